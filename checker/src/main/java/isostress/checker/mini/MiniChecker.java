package isostress.checker.mini;

import isostress.checker.index.RegisterIndex;
import isostress.checker.index.TxnReads;
import isostress.checker.index.AnomalyLog;
import isostress.checker.index.LevelEvaluation;
import isostress.checker.model.CheckOptions;
import isostress.checker.general.PrefixSearch;
import isostress.checker.general.SearchHistory;
import isostress.checker.history.History;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.Outcome;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LevelResult;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a mini-transaction history at the requested levels, and at weaker ones as needed to name the weakest level
 * it violates.
 *
 * <p>Each level has its own exact check (see the per-level classes). Levels are related by the lattice of
 * {@link IsolationLevel}: a valid level makes every weaker one valid, an invalid one every stronger one invalid, so a
 * level is computed only when neither shortcut applies. When a requested level is violated, the weaker levels are
 * examined from the weakest up, and the first violated one is the answer.
 */
public final class MiniChecker extends LevelEvaluation {
    private final MiniContext ctx;

    private MiniChecker(History h, AnomalyLog anomalies, RegisterIndex m, CheckOptions options) {
        super(h, anomalies);
        long t0 = System.nanoTime();
        if (m.blindWrites > 0) throw m.notMiniTransactionHistory();
        MiniGraph g = MiniGraph.of(m);
        ctx = new MiniContext(m, g, new CycleReporter(g), anomalies, options);
        stats.put("graph_ms", (System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * Checks {@code h} at {@code levels}.
     *
     * @throws isostress.checker.history.InputException when {@code h} is not a mini-transaction history, writes a
     *                                                  value twice, or lacks the real time a level needs
     */
    public static Result check(History h, Collection<IsolationLevel> levels, CheckOptions options) {
        long t0 = System.nanoTime();
        AnomalyLog anomalies = new AnomalyLog(h, options.anomaliesPerType());
        RegisterIndex m = RegisterIndex.of(h, anomalies);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        MiniChecker c = new MiniChecker(h, anomalies, m, options);
        c.stats.put("index_ms", ms);
        return c.run(new ArrayList<>(levels), options.weakerLevels());
    }

    /** Checks an already compiled mini-transaction history (the facade compiles it to pick the checker). */
    public static Result check(History h, AnomalyLog anomalies, RegisterIndex m, Collection<IsolationLevel> levels,
                               CheckOptions options) {
        return new MiniChecker(h, anomalies, m, options).run(new ArrayList<>(levels), options.weakerLevels());
    }

    @Override
    protected String shape() {
        for (int o = 0; o < h.opCount(); o++) {
            if (h.opKind(o) != History.CAS) return "mini-transaction";
        }
        return "lightweight-transaction (CAS)";
    }

    @Override
    protected boolean committed(int t) {
        return ctx.m().included[t];
    }

    @Override
    protected void describe(Map<String, Object> s) {
        s.put("keys", ctx.m().keyCount);
        s.put("dependency_edges", ctx.g().edges);
    }

    @Override
    protected String undetermined() {
        RegisterIndex m = ctx.m();
        if (m.undeterminedWrites == 0) return null;
        return m.undeterminedWrites + " write(s) of info transactions whose read of the same key was not recorded "
                + "(first: T" + m.firstUndetermined + "), so their place in the version order is unknown";
    }

    /**
     * Prefix consistency is linear only without lost updates (then PC = SI); with them, it takes the prefix search,
     * whose states grow exponentially with the concurrency (B&amp;E §4.2), so it runs only when asked for.
     */
    @Override
    protected String costly(IsolationLevel l) {
        if (l != IsolationLevel.PREFIX || lostUpdates() == 0) return null;
        return "with lost updates it takes a search (Biswas & Enea §4.2), not a linear check";
    }

    /** The level's own check. */
    @Override
    protected LevelResult search(IsolationLevel l) {
        switch (l) {
            case READ_COMMITTED:
                return verdict(l, SaturationChecker.check(ctx, l), "violation of the Read Committed axiom", SaturationChecker.ALGORITHM_RC);
            case READ_ATOMIC:
                return verdict(l, SaturationChecker.check(ctx, l), "violation of the Read Atomic axiom", SaturationChecker.ALGORITHM_RA);
            case CAUSAL: {
                CausalChecker.Outcome o = CausalChecker.check(ctx);
                if (o.violations() == 0 && o.unknownReason() != null) {
                    return new LevelResult(l, Verdict.UNKNOWN, o.unknownReason(), CausalChecker.ALGORITHM);
                }
                return verdict(l, o.violations(), "violation of the Causal axiom", CausalChecker.ALGORITHM);
            }
            case PREFIX:
                if (lostUpdates() == 0) {
                    return verdict(l, siCycles(), "dependency cycle without two adjacent rw edges (PC = SI on "
                            + "read-modify-write histories without lost updates)", SiChecker.ALGORITHM);
                }
                return prefixSearch();
            case PARALLEL_SNAPSHOT_ISOLATION:
                if (lostUpdates() > 0) {
                    return new LevelResult(l, Verdict.INVALID, lostUpdates() + " lost update(s)", PsiChecker.ALGORITHM);
                }
                return verdict(l, PsiChecker.violations(ctx), PsiChecker.WHAT, PsiChecker.ALGORITHM);
            case SNAPSHOT_ISOLATION: {
                if (lostUpdates() > 0) {
                    return new LevelResult(l, Verdict.INVALID, lostUpdates() + " lost update(s)", SiChecker.ALGORITHM);
                }
                return verdict(l, siCycles(), "dependency cycle without two adjacent rw edges", SiChecker.ALGORITHM);
            }
            case SERIALIZABLE: {
                int c = serCycles();
                if (lostUpdates() > 0) {
                    return new LevelResult(l, Verdict.INVALID, lostUpdates() + " lost update(s)"
                            + (c > 0 ? " and " + c + " dependency cycle(s)" : ""), SerChecker.ALGORITHM);
                }
                return verdict(l, c, "dependency cycle", SerChecker.ALGORITHM);
            }
            case STRICT_SERIALIZABLE: {
                LevelResult ser = eval(IsolationLevel.SERIALIZABLE);
                if (ser.verdict() == Verdict.INVALID) {
                    return new LevelResult(l, Verdict.INVALID, "implied: the history violates serializable",
                            ser.algorithm());
                }
                return verdict(l, SserChecker.cycles(ctx), "dependency cycle through real-time order", SserChecker.ALGORITHM);
            }
            case LINEARIZABLE: {
                int bad = LinChecker.check(ctx);
                if (lostUpdates() > 0 && bad == 0) bad = lostUpdates();
                return verdict(l, bad, "key without a linearization", LinChecker.ALGORITHM);
            }
            default:
                throw new IllegalStateException(l.toString());
        }
    }

    private int lostUpdates() {
        return once("lost updates", () -> LostUpdates.report(ctx));
    }

    private int serCycles() {
        return once("ser cycles", () -> SerChecker.cycles(ctx));
    }

    private int siCycles() {
        return once("si cycles", () -> SiChecker.cycles(ctx));
    }

    /** PC with lost updates: the version order is not fixed, so search (Biswas &amp; Enea §4.2). */
    private LevelResult prefixSearch() {
        RegisterIndex m = ctx.m();
        LongPairIntMap sessionOf = new LongPairIntMap(64);
        int[] dense = new int[m.n];
        int sessions = 0, count = 0;
        for (int t = 0; t < m.n; t++) {
            if (!m.included[t]) continue;
            dense[t] = count++;
            if (sessionOf.get(h.process(t), 0) == LongPairIntMap.MISSING) sessionOf.put(h.process(t), 0, sessions++);
        }
        SearchHistory.Builder b = new SearchHistory.Builder(m.keyCount, sessions);
        TxnReads rt = new TxnReads(m);
        for (int t = 0; t < m.n; t++) {
            if (!m.included[t]) continue;
            b.begin(sessionOf.get(h.process(t), 0));
            for (int i = 0, nr = rt.load(t); i < nr; i++) {
                int wt = m.versionTxn(rt.src[i]);
                b.read(rt.key[i], wt < 0 ? -1 : dense[wt]);
            }
            for (int a = m.accStart[t]; a < m.accStart[t + 1]; a++) if (m.accWrites[a]) b.write(m.accKey[a]);
            b.end();
        }
        PrefixSearch.Outcome o = PrefixSearch.check(b.build(), PrefixSearch.Mode.PC, ctx.options().searchBudget());
        String alg = "prefix search (Biswas & Enea §4.1 Alg. 2 with the §4.2 PC reduction)";
        switch (o.answer()) {
            case VALID:
                return verdict(IsolationLevel.PREFIX, 0, "violation: a commit order satisfying the Prefix axiom exists ("
                        + o.states() + " states searched)", alg);
            case INVALID:
                return new LevelResult(IsolationLevel.PREFIX, Verdict.INVALID, "no commit order satisfies the prefix "
                        + "axiom (exhaustive search, " + o.states() + " states)", alg);
            default:
                return new LevelResult(IsolationLevel.PREFIX, Verdict.UNKNOWN, "the prefix search exceeded its budget "
                        + "of " + ctx.options().searchBudget() + " states", alg);
        }
    }
}
