package isostress.checker.lin;

import isostress.checker.model.CheckOptions;
import isostress.checker.history.History;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Txn;
import isostress.checker.index.AnomalyLog;
import isostress.checker.model.Anomaly;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.CycleVariant;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LevelResult;
import isostress.checker.model.Premise;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a history of single-register operations ({@link History#registerOps()}: Jepsen/Knossos {@code :read},
 * {@code :write}, {@code :cas}, plain or jepsen.independent) for linearizability, key by key (Horn &amp; Kroening's
 * P-compositionality, FORTE 2015; locality, Herlihy &amp; Wing 1990), each with {@link WglSearch}.
 *
 * <p>Only {@code linearizable} has a meaning here: one-op "transactions" make every transactional level weaker than
 * it hold trivially or not at all for reasons linearizability already reports, so those levels are answered unknown
 * with that reason rather than guessed.
 */
public final class LinearizabilityChecker {
    public static final String ALGORITHM = "Wing & Gong / Lowe just-in-time linearizability with memoisation, "
            + "per key (P-compositionality)";
    public static final String SHAPE = "single-register ops (Knossos cas-register model)";

    private LinearizabilityChecker() {
    }

    public static Result check(History h, Collection<IsolationLevel> levels, CheckOptions options) {
        long t0 = System.nanoTime();
        AnomalyLog anomalies = new AnomalyLog(h, options.anomaliesPerType());
        List<RegisterOps> keys = RegisterOps.byKey(h);
        long budget = options.searchBudget();
        long steps = 0;
        int bad = 0;
        String unknown = null;
        for (RegisterOps ops : keys) {
            WglSearch.Outcome o = new WglSearch(ops).run(budget - steps);
            steps += o.steps();
            if (o.kind() == WglSearch.Kind.NOT_LINEARIZABLE) {
                bad++;
                anomalies.nonCycle(counterexample(h, ops, o));
            } else if (o.kind() == WglSearch.Kind.BUDGET_EXHAUSTED) {
                unknown = "search budget of " + budget + " steps exhausted at key " + h.keyName(ops.key)
                        + " (raise --search-budget)";
                break;
            }
        }
        LevelResult lin;
        if (bad > 0) {
            lin = new LevelResult(IsolationLevel.LINEARIZABLE, Verdict.INVALID,
                    bad + " key(s) without a linearization", ALGORITHM);
        } else if (unknown != null) {
            lin = new LevelResult(IsolationLevel.LINEARIZABLE, Verdict.UNKNOWN, unknown, ALGORITHM);
        } else {
            lin = new LevelResult(IsolationLevel.LINEARIZABLE, Verdict.VALID,
                    "every key has a linearization (" + keys.size() + " key(s))", ALGORITHM);
        }
        List<LevelResult> results = new ArrayList<>();
        for (IsolationLevel l : IsolationLevel.values()) {
            if (l == IsolationLevel.LINEARIZABLE) {
                results.add(lin);
            } else if (levels.contains(l)) {
                results.add(new LevelResult(l, Verdict.UNKNOWN, "a history of single-register operations is "
                        + "checked for linearizability only (--level linearizable)", "none"));
            }
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        int ok = 0, fail = 0;
        for (int t = 0; t < h.size(); t++) {
            if (h.outcome(t) == isostress.checker.history.Outcome.OK) ok++;
            else if (h.outcome(t) == isostress.checker.history.Outcome.FAIL) fail++;
        }
        stats.put("transactions", h.size());
        stats.put("ok", ok);
        stats.put("fail", fail);
        stats.put("info", h.size() - ok - fail);
        stats.put("keys", keys.size());
        stats.put("search_steps", steps);
        stats.put("check_ms", (System.nanoTime() - t0) / 1_000_000);
        List<IsolationLevel> requested = new ArrayList<>(levels);
        return new Result(SHAPE, results, requested, anomalies.listed(), anomalies.omitted(), anomalies.counts(),
                stats);
    }

    /**
     * The op that cannot be placed first, then the last {@link WglSearch#TAIL} ops of the linearization that got furthest (in
     * order), with the register's value after it; the shortest non-linearizable prefix ends at the op's completion.
     */
    private static Anomaly counterexample(History h, RegisterOps ops, WglSearch.Outcome o) {
        int blockedTxn = ops.txn[o.blockedOp()];
        List<Txn> txns = new ArrayList<>();
        txns.add(h.txn(blockedTxn));
        StringBuilder order = new StringBuilder();
        // Only the linearization's last ops are listed: on a long history the whole order would bury the point.
        int[] lin = o.linearized();
        int earlier = o.linearizedCount() - lin.length;
        if (earlier > 0) order.append("(").append(earlier).append(" earlier ops)");
        for (int k = 0; k < lin.length; k++) {
            int i = lin[k];
            Txn t = h.txn(ops.txn[i]);
            txns.add(t);
            if (order.length() > 0) order.append(", ");
            order.append(t.label());
        }
        String key = h.keyName(ops.key);
        Long value = ops.value(o.stateBefore());
        String prefix = o.prefixEnd() == RegisterOps.END_OF_TIME ? "the whole history"
                : "the events up to index " + o.prefixEnd() + " (line " + h.line(blockedTxn) + ")";
        String claim = "no order of " + prefix + " is legal for key " + key + "; the furthest linearization, "
                + (order.length() == 0 ? "empty" : order.toString()) + ", leaves it = "
                + (value == null ? "nil" : value) + ", and then T" + blockedTxn + " cannot be placed";
        MicroOp op = h.op(h.firstOp(blockedTxn));
        return new Anomaly(AnomalyType.NONLINEARIZABLE, CycleVariant.NONE, null, IsolationLevel.LINEARIZABLE, txns,
                List.of(), op, ops.key, List.of(new Premise(claim, List.of())));
    }
}
