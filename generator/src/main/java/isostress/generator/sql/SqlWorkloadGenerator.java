package isostress.generator.sql;

import isostress.generator.workload.WorkloadSpec;
import isostress.generator.workload.WorkloadType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Generates an {@link SqlWorkload}: a pure function of the spec (one random source from the seed, consumed in
 * transaction order). Transaction t goes to session {@code t mod sessions}.
 *
 * <p>The table starts with rows {@code 0 .. keys-1}; inserts also use the {@code 2 x groups} ids after those, which
 * start absent. A row's group is {@code id mod groups} for its whole life, so predicates test only immutable columns
 * ({@code id}, {@code grp}) and the {@code deleted} flag, as in a conflict-free TPC-C, which keeps the checker's
 * search small. Statements: a fraction {@code readRatio} are
 * SELECTs (3 in 4 by group, the rest by id); writes are updates of bal by id (55%) or by group (20%), upserts
 * (12%), soft deletes (8%) and real DELETEs (5%). Rows that vanish from a predicate's result (deletes, soft
 * deletes, ids not yet inserted) are what makes the checker's conflicts, so those are the rarer writes.
 */
public final class SqlWorkloadGenerator {
    private final WorkloadSpec spec;
    private final SplittableRandom rnd;
    private final String[] levels;
    private final double[] cumulative;

    private SqlWorkloadGenerator(WorkloadSpec spec, String defaultIsolation) {
        this.spec = spec;
        this.rnd = new SplittableRandom(spec.seed());
        Map<String, Double> mix = spec.isolationMix();
        if (mix.isEmpty()) mix = Map.of(defaultIsolation, 1.0);
        levels = new String[mix.size()];
        cumulative = new double[mix.size()];
        double sum = 0;
        int i = 0;
        for (Map.Entry<String, Double> e : new java.util.TreeMap<>(mix).entrySet()) {
            levels[i] = e.getKey();
            sum += e.getValue();
            cumulative[i++] = sum;
        }
        if (sum <= 0) throw new IllegalArgumentException("the isolation mix needs a positive weight");
    }

    /**
     * @param spec             a spec of type {@link WorkloadType#SQL}
     * @param defaultIsolation the level of every transaction when the spec has no isolation mix (campaign name)
     */
    public static SqlWorkload generate(WorkloadSpec spec, String defaultIsolation) {
        if (spec.type() != WorkloadType.SQL) throw new IllegalArgumentException("not an sql workload: " + spec.type());
        return new SqlWorkloadGenerator(spec, defaultIsolation).run();
    }

    private SqlWorkload run() {
        int keys = spec.keys(), groups = spec.groups();
        List<SqlWorkload.Row> init = new ArrayList<>();
        for (long id = 0; id < keys; id++) init.add(new SqlWorkload.Row(id, group(id), 100));
        List<List<SqlTxnPlan>> sessions = new ArrayList<>();
        for (int s = 0; s < spec.sessions(); s++) sessions.add(new ArrayList<>());
        for (int t = 0; t < spec.transactions(); t++) {
            int s = t % spec.sessions();
            int n = spec.minOps() + rnd.nextInt(spec.maxOps() - spec.minOps() + 1);
            String level = level();
            List<SqlStatement> stmts = new ArrayList<>(n);
            for (int i = 0; i < n; i++) stmts.add(statement());
            sessions.get(s).add(new SqlTxnPlan(s, sessions.get(s).size(), level, stmts));
        }
        return new SqlWorkload(spec, init, sessions);
    }

    private int group(long id) {
        return (int) (id % spec.groups());
    }

    private String level() {
        double x = rnd.nextDouble() * cumulative[cumulative.length - 1];
        for (int i = 0; i < cumulative.length; i++) if (x < cumulative[i]) return levels[i];
        return levels[levels.length - 1];
    }

    private long anyId() {
        return rnd.nextInt(spec.keys() + 2 * spec.groups());
    }

    private SqlPredicate byGroup(double live) {
        SqlPredicate g = SqlPredicate.eq("grp", rnd.nextInt(spec.groups()));
        return rnd.nextDouble() < live ? SqlPredicate.and(g, SqlPredicate.eq("deleted", false)) : g;
    }

    private SqlPredicate byId(double live) {
        SqlPredicate p = SqlPredicate.eq("id", anyId());
        return rnd.nextDouble() < live ? SqlPredicate.and(p, SqlPredicate.eq("deleted", false)) : p;
    }

    private SqlStatement statement() {
        if (rnd.nextDouble() < spec.readRatio()) {
            return SqlStatement.select(rnd.nextInt(4) < 3 ? byGroup(0.8) : byId(0.5));
        }
        double x = rnd.nextDouble();
        int amount = 1 + rnd.nextInt(9);
        if (x < 0.55) return SqlStatement.update(byId(0.5), amount);
        if (x < 0.75) return SqlStatement.update(byGroup(1.0), amount);
        if (x < 0.87) {
            long id = rnd.nextInt(5) < 3 ? spec.keys() + rnd.nextInt(2 * spec.groups()) : anyId();
            return SqlStatement.insert(id, group(id), 100 + rnd.nextInt(100));
        }
        if (x < 0.95) return SqlStatement.softDelete(byId(1.0));
        return SqlStatement.delete(SqlPredicate.eq("id", anyId()));
    }
}
