package isostress.checker.sql;

import isostress.checker.history.Outcome;
import isostress.checker.model.IsolationLevel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random SQL histories from a simulated store (for the differential tests, like Elle's {@code sim-si-test}): transactions commit
 * one at a time in a random interleaving of the sessions; each reads from a committed prefix chosen per its level —
 * SER the latest, SI/PC/RA one snapshot no older than its session's last commit (SI also first-committer-wins,
 * losers become {@code fail}), RC a possibly newer prefix per statement (never going back). Such histories are valid
 * under each transaction's own level. {@link #mutate} then breaks them in small ways (drop or add a returned row,
 * change a writer, strengthen a level) to get invalid candidates.
 */
final class SqlGen {
    static final IsolationLevel[] LEVELS = {IsolationLevel.READ_COMMITTED, IsolationLevel.READ_ATOMIC,
            IsolationLevel.PREFIX, IsolationLevel.SNAPSHOT_ISOLATION, IsolationLevel.SERIALIZABLE};

    /** Shape of generated histories. {@code levels}: the levels transactions draw from. */
    /** @param exactTxns every session runs maxTxnsPerSession transactions (benchmarks), not 1..that many */
    record Shape(int minSessions, int maxSessions, int maxTxnsPerSession, int maxTxns, int maxStmts, int keys,
                 int tables, int values, IsolationLevel[] levels, double infoRate, double abortRate, boolean exactTxns) {
        Shape(int minSessions, int maxSessions, int maxTxnsPerSession, int maxTxns, int maxStmts, int keys,
              int tables, int values, IsolationLevel[] levels, double infoRate, double abortRate) {
            this(minSessions, maxSessions, maxTxnsPerSession, maxTxns, maxStmts, keys, tables, values, levels, infoRate,
                    abortRate, false);
        }
    }

    private record Ver(String writer, Map<String, Object> value) {}

    private final Random rnd;
    private final Shape shape;
    private int wid;

    SqlGen(Random rnd, Shape shape) {
        this.rnd = rnd;
        this.shape = shape;
    }

    SqlHistory history() {
        wid = 0;
        List<String> keys = new ArrayList<>();
        Map<String, String> table = new LinkedHashMap<>();
        Map<String, List<String>> keysOf = new LinkedHashMap<>();
        for (int i = 0; i < shape.keys(); i++) {
            String t = "t" + (i < shape.tables() ? i : rnd.nextInt(shape.tables()));
            String k = t + ":" + i;
            keys.add(k);
            table.put(k, t);
            keysOf.computeIfAbsent(t, x -> new ArrayList<>()).add(k);
        }
        List<SqlHistory.InitRow> init = new ArrayList<>();
        Map<String, Ver> s0 = new HashMap<>();
        for (String k : keys) {
            Map<String, Object> v = rnd.nextDouble() < 0.7 ? value() : null;
            if (v != null) init.add(new SqlHistory.InitRow(table.get(k), k, v));
            s0.put(k, new Ver(SqlHistory.INIT, v));
        }
        List<Map<String, Ver>> states = new ArrayList<>(List.of(s0));
        int sessions = shape.minSessions() + rnd.nextInt(shape.maxSessions() - shape.minSessions() + 1);
        int[] left = new int[sessions];
        int total = 0;
        for (int s = 0; s < sessions; s++) {
            left[s] = shape.exactTxns() ? shape.maxTxnsPerSession() : 1 + rnd.nextInt(shape.maxTxnsPerSession());
            total += left[s];
        }
        while (total > shape.maxTxns()) {
            int s = rnd.nextInt(sessions);
            if (left[s] > 1) {
                left[s]--;
                total--;
            }
        }
        int[] sessPoint = new int[sessions];
        int[] index = new int[sessions];
        List<SqlTxn> txns = new ArrayList<>();
        long id = 1;
        while (total > 0) {
            int s = rnd.nextInt(sessions);
            if (left[s] == 0) continue;
            left[s]--;
            total--;
            IsolationLevel lv = shape.levels()[rnd.nextInt(shape.levels().length)];
            int now = states.size() - 1;
            int p = lv == IsolationLevel.SERIALIZABLE ? now : sessPoint[s] + rnd.nextInt(now - sessPoint[s] + 1);
            int p0 = p;
            Map<String, Ver> own = new LinkedHashMap<>();
            List<SqlOp> ops = new ArrayList<>();
            int stmts = 1 + rnd.nextInt(shape.maxStmts());
            for (int i = 0; i < stmts; i++) {
                if (lv == IsolationLevel.READ_COMMITTED) p = p + rnd.nextInt(now - p + 1);
                String t = "t" + rnd.nextInt(shape.tables());
                List<String> tk = keysOf.getOrDefault(t, List.of());
                if (tk.isEmpty()) continue;
                Map<String, Ver> view = new HashMap<>();
                for (String k : tk) view.put(k, own.containsKey(k) ? own.get(k) : states.get(p).get(k));
                double c = rnd.nextDouble();
                Predicate where = predicate(2);
                if (c < 0.4) {
                    List<SqlOp.ReadRow> rows = new ArrayList<>();
                    for (String k : tk) if (where.test(view.get(k).value())) rows.add(new SqlOp.ReadRow(k, view.get(k).writer(), view.get(k).value()));
                    ops.add(new SqlOp.Select(t, where, rows));
                } else if (c < 0.6) {
                    String w = "w" + (++wid);
                    String k = tk.get(rnd.nextInt(tk.size()));
                    Map<String, Object> v = value();
                    ops.add(new SqlOp.Insert(t, w, List.of(new SqlOp.WriteRow(k, v))));
                    own.put(k, new Ver(w, v));
                } else {
                    boolean update = c < 0.85;
                    String w = "w" + (++wid);
                    List<SqlOp.ReadRow> rows = new ArrayList<>();
                    for (String k : tk) {
                        Ver old = view.get(k);
                        if (!where.test(old.value())) continue;
                        Map<String, Object> v = update ? value() : null;
                        rows.add(new SqlOp.ReadRow(k, old.writer(), v));
                        own.put(k, new Ver(w, v));
                    }
                    ops.add(update ? new SqlOp.Update(t, where, w, rows) : new SqlOp.Delete(t, where, w, rows));
                }
            }
            Outcome out = Outcome.OK;
            if (lv == IsolationLevel.SNAPSHOT_ISOLATION) {
                for (String k : own.keySet()) {
                    if (!states.get(now).get(k).writer().equals(states.get(p0).get(k).writer())) out = Outcome.FAIL;
                }
            }
            if (rnd.nextDouble() < shape.abortRate()) out = Outcome.FAIL;
            if (out == Outcome.OK) {
                Map<String, Ver> next = new HashMap<>(states.get(now));
                next.putAll(own);
                states.add(next);
                sessPoint[s] = states.size() - 1;
                if (rnd.nextDouble() < shape.infoRate()) out = Outcome.INFO;
            }
            txns.add(new SqlTxn(id++, s, index[s]++, lv, out, null, null, List.copyOf(ops)));
        }
        return new SqlHistory(null, Map.of(), init, txns);
    }

    private Map<String, Object> value() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("g", (long) rnd.nextInt(shape.values()));
        m.put("v", (long) rnd.nextInt(shape.values()));
        return m;
    }

    Predicate predicate(int depth) {
        double c = rnd.nextDouble();
        String col = rnd.nextBoolean() ? "g" : "v";
        long v = rnd.nextInt(shape.values());
        if (c < 0.08) return new Predicate.True();
        if (depth > 0 && c < 0.18) return new Predicate.And(List.of(predicate(depth - 1), predicate(depth - 1)));
        if (depth > 0 && c < 0.26) return new Predicate.Or(List.of(predicate(depth - 1), predicate(depth - 1)));
        if (depth > 0 && c < 0.32) return new Predicate.Not(predicate(depth - 1));
        if (c < 0.40) return new Predicate.In(col, List.of(v, (long) rnd.nextInt(shape.values())));
        Predicate.Op[] ops = Predicate.Op.values();
        return new Predicate.Cmp(rnd.nextDouble() < 0.5 ? Predicate.Op.EQ : ops[rnd.nextInt(ops.length)], col, v);
    }

    /** A small random change; the result may or may not still be valid. */
    SqlHistory mutate(SqlHistory h) {
        List<SqlTxn> txns = new ArrayList<>(h.txns());
        if (txns.isEmpty()) return h;
        int ti = rnd.nextInt(txns.size());
        SqlTxn t = txns.get(ti);
        if (rnd.nextDouble() < 0.15) {
            IsolationLevel lv = LEVELS[rnd.nextInt(LEVELS.length)];
            txns.set(ti, new SqlTxn(t.id(), t.session(), t.index(), lv, t.outcome(), t.start(), t.end(), t.ops()));
            return new SqlHistory(h.name(), h.tables(), h.init(), txns);
        }
        List<Integer> selects = new ArrayList<>();
        for (int i = 0; i < t.ops().size(); i++) if (t.ops().get(i) instanceof SqlOp.Select) selects.add(i);
        if (selects.isEmpty()) return h;
        int oi = selects.get(rnd.nextInt(selects.size()));
        SqlOp.Select s = (SqlOp.Select) t.ops().get(oi);
        List<SqlOp.ReadRow> rows = new ArrayList<>(s.rows());
        // every version of every key of this table, with its value
        List<SqlOp.ReadRow> versions = new ArrayList<>();
        for (SqlHistory.InitRow r : h.init()) if (r.table().equals(s.table())) versions.add(new SqlOp.ReadRow(r.key(), SqlHistory.INIT, r.value()));
        for (SqlTxn x : h.txns()) {
            for (SqlOp op : x.ops()) {
                if (!op.table().equals(s.table())) continue;
                if (op instanceof SqlOp.Insert ins) for (SqlOp.WriteRow r : ins.rows()) versions.add(new SqlOp.ReadRow(r.key(), op.writeId(), r.value()));
                if (op instanceof SqlOp.Update u) for (SqlOp.ReadRow r : u.rows()) versions.add(new SqlOp.ReadRow(r.key(), op.writeId(), r.value()));
            }
        }
        versions.removeIf(v -> !s.where().test(v.value()));
        double c = rnd.nextDouble();
        if (c < 0.35 && !rows.isEmpty()) {
            rows.remove(rnd.nextInt(rows.size()));
        } else if (!versions.isEmpty()) {
            SqlOp.ReadRow v = versions.get(rnd.nextInt(versions.size()));
            rows.removeIf(r -> r.key().equals(v.key()));
            rows.add(v);
        } else {
            return h;
        }
        List<SqlOp> ops = new ArrayList<>(t.ops());
        ops.set(oi, new SqlOp.Select(s.table(), s.where(), List.copyOf(rows)));
        txns.set(ti, new SqlTxn(t.id(), t.session(), t.index(), t.level(), t.outcome(), t.start(), t.end(), List.copyOf(ops)));
        return new SqlHistory(h.name(), h.tables(), h.init(), txns);
    }
}
