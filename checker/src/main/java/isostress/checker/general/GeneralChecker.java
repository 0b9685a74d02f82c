package isostress.checker.general;

import isostress.checker.model.CheckOptions;
import isostress.checker.history.History;
import isostress.checker.index.AnomalyLog;
import isostress.checker.index.LevelEvaluation;
import isostress.checker.index.RegisterIndex;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LevelResult;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.model.VersionOrder;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Map;

/**
 * Checks a general history (rw-register with blind writes, or list-append) at the requested levels.
 *
 * <ul>
 *   <li>RC, RA, CC: saturation, polynomial ({@link Saturation}).</li>
 *   <li>PC, SI, SER: the generalized polygraph with pruning and SAT ({@link PolygraphSolver}): SER on the plain
 *       graph, SI on its induced SI graph, PC as SER of the split history (Biswas &amp; Enea §4.2). Lost updates
 *       (two transactions that read one version of a key and both wrote it) decide SI and SER first.</li>
 *   <li>PSI: lost updates first, then no cycle with at most one rw edge on the version order the data fixes
 *       ({@link PsiCheck}).</li>
 *   <li>SSER: SER with real-time order ({@link PolygraphBuilder.Variant#TIMED}).</li>
 *   <li>Per-key linearizability is decided for mini-transaction and CAS histories only (unknown here).</li>
 * </ul>
 * With the database's commit log ({@link LogOrder}), each key's version order is the log's where it gives one: its ww
 * and rw edges are known, no order is searched for, and each of these is an acyclicity test.
 * Sound and complete for committed transactions; info transactions count as committed when some committed one read
 * their writes, and are otherwise dropped, which only removes constraints: a history valid without them is valid
 * (they may have aborted), and none is refuted because of them.
 */
public final class GeneralChecker extends LevelEvaluation {
    static final String ALGORITHM_POLY = "generalized polygraph, pruning and SAT (PolySI, PVLDB 2023, §4; Sat4j)";

    private final Observations o;
    private final CheckOptions options;
    private final String shape;
    /**
     * The plain polygraph (one node per transaction), kept from the SER or SI check for the other, which has the
     * same nodes and known edges: a violated SER is followed by SI, to name the weakest violated level, and building
     * the graph again would cost as much as the SI check itself. {@link #plainKnown} is its number of known edges
     * (the solver's derived ones are dropped before reuse). Released when another level is searched, so that the
     * saturation and PSI checks do not hold it in memory beside their own graphs.
     */
    private PolygraphBuilder.Built plain;
    private int plainKnown;

    private GeneralChecker(History h, AnomalyLog anomalies, Observations o, CheckOptions options, String shape) {
        super(h, anomalies);
        this.o = o;
        this.options = options;
        this.shape = shape;
    }

    /**
     * Checks a register history {@code h} compiled as {@code m}, or a list-append history ({@code m} null), whose
     * non-cycle anomalies are already in {@code anomalies}.
     */
    public static Result check(History h, AnomalyLog anomalies, RegisterIndex m, Collection<IsolationLevel> levels,
                               CheckOptions options, String shape) {
        return check(h, anomalies, m, levels, options, shape, null);
    }

    /**
     * As {@link #check(History, AnomalyLog, RegisterIndex, Collection, CheckOptions, String)}, with each key's
     * version order taken from the database's commit log where {@code order} (null: none) gives it completely
     * ({@link LogOrder}): ww and rw edges are then known, and every level is decided by acyclicity tests.
     */
    public static Result check(History h, AnomalyLog anomalies, RegisterIndex m, Collection<IsolationLevel> levels,
                               CheckOptions options, String shape, VersionOrder order) {
        Observations o = m == null ? ListAppendIndex.of(h, anomalies) : Observations.of(m);
        if (order == null) return check(h, anomalies, o, levels, options, shape);
        Map<String, Object> logStats = new java.util.LinkedHashMap<>();
        o = LogOrder.apply(o, order, anomalies, logStats);
        Result r = check(h, anomalies, o, levels, options, shape);
        r.stats().putAll(logStats);
        return r;
    }

    /**
     * Whether {@code order} orders each key of the register history {@code h} (compiled as {@code m}) as its
     * read-modify-writes do, so that the mini-transaction checkers, which infer the order from the reads, check the
     * log's order; {@code stats} gets the counts of {@link LogOrder}.
     */
    public static boolean logOrderSameAsReads(RegisterIndex m, VersionOrder order, Map<String, Object> stats) {
        return LogOrder.sameAsReads(Observations.of(m), order, stats);
    }

    /** Whether {@code h} is a list-append history (one the general checker reads with {@link ListAppendIndex}). */
    public static boolean isListHistory(History h) {
        return ListAppendIndex.isListHistory(h);
    }

    /** Checks the observations {@code o} of {@code h}, whose non-cycle anomalies are already in {@code anomalies}. */
    static Result check(History h, AnomalyLog anomalies, Observations o, Collection<IsolationLevel> levels,
                               CheckOptions options, String shape) {
        return new GeneralChecker(h, anomalies, o, options, shape).run(new ArrayList<>(levels),
                options.weakerLevels());
    }

    @Override
    protected String shape() {
        return shape;
    }

    @Override
    protected boolean committed(int t) {
        return o.included[t];
    }

    @Override
    protected void describe(Map<String, Object> s) {
        s.put("keys", o.keys);
        s.put("versions", o.versions - o.keys);
    }

    @Override
    protected LevelResult search(IsolationLevel l) {
        if (l != IsolationLevel.SERIALIZABLE && l != IsolationLevel.SNAPSHOT_ISOLATION) plain = null;
        switch (l) {
            case READ_COMMITTED:
                return verdict(l, saturation(l), "violation of the Read Committed axiom", Saturation.ALGORITHM_RC);
            case READ_ATOMIC:
                return verdict(l, saturation(l), "violation of the Read Atomic axiom", Saturation.ALGORITHM_RA);
            case CAUSAL:
                return verdict(l, saturation(l), "violation of the Causal axiom", Saturation.ALGORITHM_CC);
            case PREFIX:
                return polygraph(l, PolygraphBuilder.Variant.SPLIT, false,
                        "dependency cycle of the split history (Biswas & Enea §4.2)");
            case PARALLEL_SNAPSHOT_ISOLATION:
                if (lostUpdates() > 0) {
                    return new LevelResult(l, Verdict.INVALID, lostUpdates() + " lost update(s)", PsiCheck.ALGORITHM);
                }
                return PsiCheck.check(o, anomalies::add, options, this::eval);
            case SNAPSHOT_ISOLATION:
                if (lostUpdates() > 0) {
                    return new LevelResult(l, Verdict.INVALID, lostUpdates() + " lost update(s)", ALGORITHM_POLY);
                }
                return polygraph(l, PolygraphBuilder.Variant.PLAIN, true,
                        "cycle of the induced SI graph, (so ∪ wr ∪ ww) ; rw?");
            case SERIALIZABLE:
                if (lostUpdates() > 0) {
                    return new LevelResult(l, Verdict.INVALID, lostUpdates() + " lost update(s)", ALGORITHM_POLY);
                }
                return polygraph(l, PolygraphBuilder.Variant.PLAIN, false, "dependency cycle");
            case STRICT_SERIALIZABLE: {
                LevelResult ser = eval(IsolationLevel.SERIALIZABLE);
                if (ser.verdict() == Verdict.INVALID) {
                    return new LevelResult(l, Verdict.INVALID, "implied: the history violates serializable",
                            ser.algorithm());
                }
                return polygraph(l, PolygraphBuilder.Variant.TIMED, false, "dependency cycle through real-time order");
            }
            case LINEARIZABLE:
                return new LevelResult(l, Verdict.UNKNOWN, "per-key linearizability is decided for mini-transaction "
                        + "and CAS histories only; this history has blind writes or lists", "none");
            default:
                throw new IllegalStateException(l.toString());
        }
    }

    private int saturation(IsolationLevel l) {
        return Saturation.check(o, l, anomalies::add, options.anomaliesPerType());
    }

    /** Lost updates: a version read by two transactions that both wrote its key. Reported once. */
    private int lostUpdates() {
        return once("lost updates", this::reportLostUpdates);
    }

    private int reportLostUpdates() {
        int count = 0;
        int[] firstRmw = new int[o.versions];
        java.util.Arrays.fill(firstRmw, -1);
        boolean[] reported = new boolean[o.versions];
        for (int t = 0; t < o.n; t++) {
            if (!o.included[t]) continue;
            for (int a = o.accStart[t]; a < o.accStart[t + 1]; a++) {
                int v = o.accRead[a];
                if (v < 0 || o.accWrite[a] < 0) continue;
                if (firstRmw[v] < 0) {
                    firstRmw[v] = t;
                } else if (!reported[v]) {
                    reported[v] = true;
                    count++;
                    anomalies.add(CounterexampleBuilder.lostUpdate(o, v, firstRmw[v], t));
                }
            }
        }
        return count;
    }

    private LevelResult polygraph(IsolationLevel l, PolygraphBuilder.Variant variant, boolean si, String what) {
        long t0 = System.nanoTime();
        PolygraphBuilder.Built built = built(variant);
        long deadline = t0 + options.solverTimeoutMillis() * 1_000_000L;
        PolygraphSolver.Outcome out = PolygraphSolver.solve(built.g(), si,
                new PolygraphSolver.Limits(deadline, options.maxOpenPairs(), options.cycleSearchBudget(),
                        options.polygraphPruning()));
        SolverStats st = out instanceof PolygraphSolver.Outcome.Acyclic a ? a.stats()
                : out instanceof PolygraphSolver.Outcome.Violation v ? v.stats()
                : ((PolygraphSolver.Outcome.Unknown) out).stats();
        Map<String, Object> ps = new java.util.LinkedHashMap<>();
        ps.put("nodes", built.g().n);
        ps.put("edges", built.g().edges.size);
        ps.put("unordered_pairs", st.constraints);
        ps.put("witness", st.witness);
        ps.put("forced", st.forced);
        ps.put("open_after_pruning", st.openAfterPruning);
        ps.put("rounds", st.rounds);
        ps.put("prune_ms", st.pruneMs);
        ps.put("witness_ms", st.witnessMs);
        ps.put("reach_ms", st.reachMs);
        ps.put("frontier_ms", st.frontierMs);
        ps.put("cycle_ms", st.cycleMs);
        ps.put("enumerate_ms", st.enumerateMs);
        ps.put("resolve_ms", st.resolveMs);
        ps.put("sat_iterations", st.satIterations);
        ps.put("learned_cycles", st.learnedCycles);
        ps.put("sat_ms", st.satMs);
        ps.put("sat4j_ms", st.solverNanos / 1_000_000);
        stats.put(l.alias() + "_polygraph", ps);
        String how = st.witness ? "none in the version order that follows completion where the dependencies leave "
                + "it open"
                : st.definite ? "in the known dependencies and the version orders they force; no open order listed"
                : st.openAfterPruning == 0 ? "pruning left no open order"
                : st.openAfterPruning + " open order(s) after pruning, decided by SAT in " + st.satIterations
                + " iteration(s)";
        if (out instanceof PolygraphSolver.Outcome.Violation v) {
            anomalies.add(new CounterexampleBuilder(o, built, si, l).anomaly(v));
            String kind = v.cycles().size() == 1 ? what
                    : "set of " + v.cycles().size() + " cycles that every version order closes one of";
            return new LevelResult(l, Verdict.INVALID, "1 " + kind + " (" + how + ")", ALGORITHM_POLY);
        }
        if (out instanceof PolygraphSolver.Outcome.Unknown u) {
            return new LevelResult(l, Verdict.UNKNOWN, u.reason(), ALGORITHM_POLY);
        }
        return verdict(l, 0, what + " (" + how + ")", ALGORITHM_POLY);
    }

    /** The polygraph of {@code variant}: the plain one is built once and reused with its known edges only. */
    private PolygraphBuilder.Built built(PolygraphBuilder.Variant variant) {
        if (variant != PolygraphBuilder.Variant.PLAIN) {
            plain = null;
            return PolygraphBuilder.build(o, variant);
        }
        if (plain == null) {
            plain = PolygraphBuilder.build(o, variant);
            plainKnown = plain.g().edges.size;
        } else {
            plain.g().truncate(plainKnown);
        }
        return plain;
    }

    /**
     * Decides {@code level} (PC, SI or SER) by Biswas &amp; Enea's exact prefix search ({@link ExactSearch}) rather
     * than the polygraph: for benchmarks and differential tests that compare the two.
     *
     * @throws IllegalArgumentException for another level
     */
    public static PrefixSearch.Outcome exact(History h, IsolationLevel level, long budget) {
        return ExactSearch.check(h, level, budget);
    }
}
