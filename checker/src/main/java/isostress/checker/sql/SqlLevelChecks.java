package isostress.checker.sql;

import isostress.checker.model.CheckOptions;
import isostress.checker.history.Outcome;
import isostress.checker.model.Anomaly;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.Argument;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LevelResult;
import isostress.checker.model.Result;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs {@link SqlChecker} on an SQL history once per check asked — at each transaction's own level (the mixed-level
 * semantics of CAV 2025, reported as level {@link LevelResult#OWN}), and as if every transaction ran at each requested
 * level — and answers the common {@link Result}, so SQL histories share the key-value histories' text, JSON,
 * results.json, anomalies/ and report (other inputs are converted into the core types).
 *
 * <p>Each check's counterexample becomes an {@link Anomaly} whose {@link Argument} keeps what the SQL checker
 * found, as data: the transactions with their statements and rows, the readers whose axioms forced an edge, the
 * commit-order edges each with its reason, the predicate and rows; the renderers tell it in sentences.
 */
public final class SqlLevelChecks {
    /** The shape name results report for SQL histories. */
    public static final String SHAPE = "isostress-sql (mixed levels and predicates: CAV 2025 Alg. 3)";
    private static final String ALGORITHM = "CHECKCONSISTENCY (Bouajjani, Enea, Román-Calvo, CAV 2025, §4, Alg. 3)";

    private SqlLevelChecks() {
    }

    /**
     * @param own    check at each transaction's own level
     * @param levels also check as if every transaction ran at each of these (RC, RA, PC, SI or SER)
     * @param o      {@code searchBudget}: prefix-search states per check; {@code solverTimeoutMillis}: wall clock per
     *               check; {@code anomaliesPerType}: counterexamples listed per name
     * @throws IllegalArgumentException for a level the SQL checker does not support
     */
    public static Result check(SqlHistory h, boolean own, List<IsolationLevel> levels, CheckOptions o) {
        SqlCheckOptions base = SqlCheckOptions.DEFAULTS.withMaxStates(o.searchBudget())
                .withTimeout(Duration.ofMillis(o.solverTimeoutMillis()));
        List<IsolationLevel> sorted = new ArrayList<>(levels);
        sorted.sort(null);
        List<LevelResult> results = new ArrayList<>();
        List<Anomaly> found = new ArrayList<>();
        Map<String, Object> perCheck = new LinkedHashMap<>();
        if (own) check(h, null, base, results, found, perCheck);
        for (IsolationLevel l : sorted) check(h, l, base.withLevel(l), results, found, perCheck);
        List<Anomaly> listed = new ArrayList<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Anomaly a : found) {
            if (counts.merge(a.name(), 1, Integer::sum) <= o.anomaliesPerType()) listed.add(a);
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("txns", h.txns().size());
        for (Outcome out : Outcome.values()) {
            stats.put(out.jepsenName(), h.txns().stream().filter(t -> t.outcome() == out).count());
        }
        stats.put("checks", perCheck);
        return new Result(SHAPE, results, sorted, listed, found.size() - listed.size(), counts, stats);
    }

    private static void check(SqlHistory h, IsolationLevel level, SqlCheckOptions o, List<LevelResult> results,
                              List<Anomaly> found, Map<String, Object> perCheck) {
        SqlResult r = SqlChecker.check(h, o);
        LevelResult lr = new LevelResult(level, r.verdict(), r.reason(), ALGORITHM);
        results.add(lr);
        perCheck.put(lr.name(), r.stats());
        for (SqlViolation v : r.violations()) found.add(anomaly(v, level));
    }

    /** {@code v} as an anomaly at {@code level} (null: the transactions' own levels). */
    static Anomaly anomaly(SqlViolation v, IsolationLevel level) {
        return Anomaly.of(v.type(), level, v.argument());
    }

    /**
     * The SQL checker's kinds (the names {@link isostress.checker.explain.ArgumentText#kind} gives its findings) as
     * anomaly types; Adya's names where they agree.
     */
    static AnomalyType type(String kind) {
        switch (kind) {
            case "internal": return AnomalyType.INTERNAL;
            case "aborted read": return AnomalyType.G1A;
            case "intermediate read": return AnomalyType.G1B;
            case "read does not match predicate": return AnomalyType.PREDICATE_MISMATCH;
            // A SELECT returned a row version with a value its writer never wrote: a value nobody wrote was read.
            case "value mismatch": return AnomalyType.THIN_AIR_READ;
            case "cycle in so ∪ wr": return AnomalyType.SO_WR_CYCLE;
            case "cycle in so ∪ wr ∪ saturated co": return AnomalyType.COMMIT_ORDER_CYCLE;
            case "predicate read missed a row": return AnomalyType.MISSED_ROW;
            case "no consistent commit order": return AnomalyType.NO_COMMIT_ORDER;
            default: throw new IllegalStateException("an SQL violation kind with no anomaly type: " + kind);
        }
    }
}
