package isostress.checker.general;

import isostress.checker.model.EdgeKind;
import org.sat4j.core.VecInt;
import org.sat4j.minisat.SolverFactory;
import org.sat4j.specs.ContradictionException;
import org.sat4j.specs.ISolver;
import org.sat4j.specs.IVecInt;
import org.sat4j.specs.TimeoutException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Decides whether some version order makes a {@link Polygraph} acyclic: in SER mode the whole graph, in SI mode its
 * induced SI graph (PolySI Thm. 8). PolySI's pipeline (§4, Alg. 1 and 2), adapted to per-session reachability:
 *
 * <ol>
 *   <li><b>A witness first</b> ({@link HintWitness}): the open orders chosen as completion order suggests, where the
 *       known dependencies leave the choice; no cycle then proves the level in linear time.</li>
 *   <li><b>Order forced by reachability.</b> If writer A of key x reaches writer B (SI: from state A(A), see
 *       {@link Reachability}), B before A closes a cycle, so A precedes B. First along the failed witness
 *       ({@link HintWitness#keepForced}): of its order, the consecutive pairs whose earlier writer reaches the later
 *       stay, and if the graph is then cyclic the level is refuted (write skews are such cycles), in time linear in
 *       the edges. Otherwise, for all pairs, which are never materialised: for each writer A and each session, only
 *       the first writer of x there that A reaches matters (the later ones follow it in session order), and every
 *       reader of A's version gets an rw edge to it ({@code FRONTIER}); a cycle then refutes the level too, before
 *       the open pairs are listed.</li>
 *   <li><b>Pruning</b> (Alg. 2, lines 37-73) of the remaining pairs, the writers neither reaches: a side whose ww
 *       or rw edge would close a cycle is impossible; then the other side's edges become known ({@code FORCED});
 *       both sides impossible is a violation, explained by the two cycles. Rounds repeat, with reachability
 *       recomputed, until nothing changes.</li>
 *   <li><b>SAT</b> for what is left: one variable per open pair, solved by Sat4j lazily, as MonoSAT's acyclicity
 *       theory would: take a model, add the sides it picks, look for a cycle; if there is one,
 *       the clause "not all of the choices on this cycle" is learned; repeat. A model with no cycle proves the
 *       level; unsatisfiability refutes it, and a minimal set of learned cycles (deletion-based) is the
 *       counterexample: every choice of the open orders closes one of them (PolySI's adjoining cycle set, §5.3).</li>
 * </ol>
 *
 * Sound and complete for the polygraph it is given (pruning and learning only remove orders that close a cycle).
 * Limits (deadline, number of open pairs) give {@link Outcome.Unknown}, never a guess.
 */
final class PolygraphSolver {
    /** What the solver concluded. */
    sealed interface Outcome permits Outcome.Acyclic, Outcome.Violation, Outcome.Unknown {
        /** Some version order makes the graph acyclic. */
        record Acyclic(SolverStats stats) implements Outcome {
        }

        /**
         * No version order does. {@code cycles}: one cycle (the known graph is cyclic), two (both orders of one
         * pair close a cycle) or several (every model of the open orders closes one of them).
         */
        record Violation(List<PolygraphCycle> cycles, SolverStats stats) implements Outcome {
        }

        /** A limit was hit. */
        record Unknown(String reason, SolverStats stats) implements Outcome {
        }
    }

    /**
     * Limits, and whether to prune first ({@code prune} false is the ablation that sends every pair of writers to the
     * SAT search: exact too, only slower; tests use it to exercise the SAT search on small histories).
     */
    record Limits(long deadlineNanos, long maxConstraints, long cycleBudget, boolean prune) {
    }

    private final Polygraph g;
    private final boolean si;
    private final Limits limits;
    private final SolverStats stats = new SolverStats();
    private final OpenPairs pairs;
    private final isostress.checker.history.LongPairIntMap rwAdded = new isostress.checker.history.LongPairIntMap(1024);

    private PolygraphSolver(Polygraph g, boolean si, Limits limits) {
        this.g = g;
        this.si = si;
        this.limits = limits;
        this.pairs = new OpenPairs(g, si, limits.maxConstraints());
    }

    /** Solves {@code g} (edges are added to it: known ones, derived ones). */
    static Outcome solve(Polygraph g, boolean si, Limits limits) {
        return new PolygraphSolver(g, si, limits).run();
    }

    private Outcome run() {
        long t0 = started = System.nanoTime();
        initialReaders();
        boolean allOrdered = true;
        for (int k = 0; k < g.keys && allOrdered; k++) allOrdered = g.ordered[k];
        if (allOrdered) {
            // Every version order is known (list-append): nothing to derive or choose, only a cycle to look for.
            stats.rounds = 1;
            java.util.List<int[]> cycles = Paths.acyclicOrCycle(g, si, limits.cycleBudget());
            stats.pruneMs = (System.nanoTime() - t0) / 1_000_000;
            return cycles.isEmpty() ? new Outcome.Acyclic(stats) : violation(List.of(copy(cycles.get(0))));
        }
        long w0 = System.nanoTime();
        HintWitness.Tried tried = limits.prune() ? HintWitness.attempt(g, si) : null;
        stats.witnessMs = ms(w0);
        if (tried != null && tried.acyclic()) {
            stats.witness = true;
            stats.pruneMs = ms(t0);
            return new Outcome.Acyclic(stats);
        }
        Reachability reach = null;
        boolean first = true;
        if (!limits.prune()) {
            // Ablation (PolySI's "w/o P", Fig. 10): every pair of writers of a key goes to the SAT search.
            reach = Reachability.of(g, si, limits.cycleBudget());
            if (reach.cycle != null) return violation(List.of(copy(reach.cycle)));
            listed = true;
            if (!pairs.enumerateAll()) return unknown("more than " + limits.maxConstraints() + " pairs of writers");
            stats.constraints = stats.openAfterPruning = pairs.cons;
            long t1 = System.nanoTime();
            Outcome o = pairs.cons == 0 ? new Outcome.Acyclic(stats) : sat();
            stats.satMs = (System.nanoTime() - t1) / 1_000_000;
            return o;
        }
        if (tried.known() >= 0) {
            // The witness's order where reachability forces it: a cycle there refutes the level at once. Its
            // reachability, over the known edges, is also the first round's.
            int known = tried.known();
            long r0 = System.nanoTime();
            reach = tried.knownGraph() != null ? Reachability.plain(g, tried.knownGraph(), tried.order())
                    : Reachability.of(g, si, limits.cycleBudget(), known);
            stats.reachMs += ms(r0);
            if (reach.cycle != null) {
                g.truncate(known);
                stats.rounds = 1;
                return violation(List.of(copy(reach.cycle)));
            }
            long c0 = System.nanoTime();
            g.derivedFrom(known);
            HintWitness.keepForced(g, known, reach, si);
            List<int[]> cycles = g.edges.size == known ? List.of()
                    : Paths.acyclicOrCycle(g, si, limits.cycleBudget());
            stats.cycleMs += ms(c0);
            if (!cycles.isEmpty()) {
                stats.rounds = 1;
                return violation(List.of(copy(cycles.get(0))));
            }
            g.truncate(known);
        }
        while (true) {
            stats.rounds++;
            if (!first || reach == null) {
                long r0 = System.nanoTime();
                reach = Reachability.of(g, si, limits.cycleBudget());
                stats.reachMs += ms(r0);
                if (reach.cycle != null) return violation(List.of(copy(reach.cycle)));
            }
            if (System.nanoTime() > limits.deadlineNanos()) return unknown("the time limit ran out while pruning");
            int before = g.edges.size;
            g.derivedFrom(before);
            long f0 = System.nanoTime();
            frontier(reach);
            stats.frontierMs += ms(f0);
            stats.frontierEdges += g.edges.size - before;
            if (first) {
                if (g.edges.size > before) {
                    // The orders reachability forces may close a cycle by themselves (write skews do: both rw edges
                    // follow from reads of versions their readers' writers are known to precede). Such a cycle
                    // refutes the level with no open pair listed: one acyclicity test, linear, against listing and
                    // pruning the pairs, which costs writers x sessions reachability queries.
                    long c0 = System.nanoTime();
                    List<int[]> cycles = Paths.acyclicOrCycle(g, si, limits.cycleBudget());
                    stats.cycleMs += ms(c0);
                    if (!cycles.isEmpty()) return violation(List.of(copy(cycles.get(0))));
                }
                long e0 = System.nanoTime();
                listed = true;
                boolean fits = pairs.enumerate(reach);
                stats.enumerateMs += ms(e0);
                if (!fits) {
                    return unknown("more than " + limits.maxConstraints() + " pairs of writers are unordered");
                }
                stats.constraints = pairs.cons;
                first = false;
            }
            int beforeResolve = g.edges.size;
            long p0 = System.nanoTime();
            Outcome v = resolve(reach);
            stats.resolveMs += ms(p0);
            if (v != null) return v;
            if (g.edges.size == before && beforeResolve == before) break;
        }
        stats.pruneMs = ms(t0);
        stats.openAfterPruning = pairs.cons;
        if (pairs.cons == 0) return new Outcome.Acyclic(stats);
        long t1 = System.nanoTime();
        Outcome o = sat();
        stats.satMs = (System.nanoTime() - t1) / 1_000_000;
        return o;
    }

    private static long ms(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }

    /** When {@link #run} started. */
    private long started;
    /** Whether the open pairs were listed (a violation found before is a cycle of known and forced edges). */
    private boolean listed;

    private Outcome unknown(String why) {
        if (stats.pruneMs == 0) stats.pruneMs = ms(started);
        return new Outcome.Unknown(why, stats);
    }

    private Outcome violation(List<PolygraphCycle> cycles) {
        if (stats.pruneMs == 0) stats.pruneMs = ms(started);
        stats.definite = !listed;
        return new Outcome.Violation(cycles, stats);
    }

    // ---- step 0: readers of initial versions precede every writer ----

    private void initialReaders() {
        for (int k = 0; k < g.keys; k++) {
            if (g.iStart[k] == g.iStart[k + 1] || g.ordered[k]) continue;
            for (int grp = g.gStart[k]; grp < g.gStart[k + 1]; grp++) {
                int w = g.gw[g.gFrom[grp]];
                int wn = g.wNode[w];
                for (int i = g.iStart[k]; i < g.iStart[k + 1]; i++) {
                    int r = g.iNode[i];
                    // A reader that is this writer itself precedes the later writers of its session in session order.
                    if (r != wn) g.addEdge(r, wn, EdgeKind.RW, g.iVer[k], g.wVer[w], Polygraph.HISTORY);
                }
            }
        }
    }

    // ---- step 1: orders forced by reachability ----

    private void frontier(Reachability reach) {
        for (int k = 0; k < g.keys; k++) {
            int g0 = g.gStart[k], g1 = g.gStart[k + 1];
            if (g1 - g0 == 0 || g.ordered[k]) continue;
            for (int x = g.wStart[k]; x < g.wStart[k + 1]; x++) {
                int u = g.wNode[x];
                boolean hasReaders = g.rStart[x] < g.rStart[x + 1];
                if (!hasReaders && !si) continue; // SER: the ww edge is implied by reachability itself
                for (int grp = g0; grp < g1; grp++) {
                    int p = reach.front(u, g.gSession[grp]);
                    if (p == Reachability.INF) continue;
                    int i = g.firstAtOrAfter(grp, p);
                    if (i < g.gFrom[grp + 1] && g.wNode[g.gw[i]] == u) i++;
                    if (i >= g.gFrom[grp + 1]) continue;
                    int y = g.gw[i];
                    int wn = g.wNode[y];
                    if (si && !reach.depImplied(u, wn)) {
                        g.addEdge(u, wn, EdgeKind.WW, g.wVer[x], g.wVer[y], Polygraph.FRONTIER);
                    }
                    for (int j = g.rStart[x]; j < g.rStart[x + 1]; j++) {
                        int r = g.rNode[j];
                        if (r != wn && newRw(reach, r, wn)) {
                            g.addEdge(r, wn, EdgeKind.RW, g.wVer[x], g.wVer[y], Polygraph.FRONTIER);
                        }
                    }
                }
            }
        }
    }

    /**
     * True when rw r→y is worth adding: not implied by reachability, and (SI) not added before. Under SI an rw edge
     * reaches state F(y), which per-session vectors do not record, so added rw edges are remembered instead.
     */
    private boolean newRw(Reachability reach, int r, int y) {
        if (reach.rwImplied(r, y)) return false;
        if (!si) return true;
        return rwAdded.put(r, y, 1) == isostress.checker.history.LongPairIntMap.MISSING;
    }

    // ---- step 2: the open pairs, and pruning ----

    /** One pruning pass over the open pairs; a violation when both orders of some pair close a cycle. */
    private Outcome resolve(Reachability reach) {
        int kept = 0;
        for (int i = 0; i < pairs.cons; i++) {
            int u = pairs.cu[i], v = pairs.cv[i];
            if (reach.reaches(u, v) || reach.reaches(v, u)) continue; // ordered: this round's frontier edges cover it
            int whyUv = impossible(reach, i, true), entryUv = whyEntry;
            int whyVu = impossible(reach, i, false), entryVu = whyEntry;
            if (whyUv != -1 && whyVu != -1) {
                return violation(List.of(closing(i, true, whyUv, entryUv), closing(i, false, whyVu, entryVu)));
            }
            if (whyUv != -1) {
                force(reach, i, false);
            } else if (whyVu != -1) {
                force(reach, i, true);
            } else {
                pairs.cu[kept] = u;
                pairs.cv[kept] = v;
                pairs.chead[kept++] = pairs.chead[i];
            }
        }
        pairs.cons = kept;
        return null;
    }

    /** The entry the last {@link #impossible} answer is about. */
    private int whyEntry;

    /**
     * Whether open pair i in the order given ({@code uFirst}: cu before cv) closes a cycle: -2 for its ww edge, a
     * reader node r for an edge r -rw-> (the later node), or -1 when it is possible; {@link #whyEntry} names the key.
     */
    private int impossible(Reachability reach, int i, boolean uFirst) {
        int a = uFirst ? pairs.cu[i] : pairs.cv[i], b = uFirst ? pairs.cv[i] : pairs.cu[i];
        whyEntry = pairs.chead[i];
        if (reach.wwCloses(a, b)) return -2;
        for (int j = pairs.chead[i]; j >= 0; j = pairs.enext[j]) {
            int x = pairs.first(j, uFirst);
            for (int q = g.rStart[x]; q < g.rStart[x + 1]; q++) {
                int r = g.rNode[q];
                if (r != b && reach.rwCloses(r, b)) {
                    whyEntry = j;
                    return r;
                }
            }
        }
        return -1;
    }

    /** Makes open pair i's order known. */
    private void force(Reachability reach, int i, boolean uFirst) {
        stats.forced++;
        int a = uFirst ? pairs.cu[i] : pairs.cv[i], b = uFirst ? pairs.cv[i] : pairs.cu[i];
        int h0 = pairs.chead[i];
        if (!reach.depImplied(a, b)) {
            g.addEdge(a, b, EdgeKind.WW, g.wVer[pairs.first(h0, uFirst)], g.wVer[pairs.second(h0, uFirst)], Polygraph.FORCED);
        }
        for (int j = h0; j >= 0; j = pairs.enext[j]) {
            int x = pairs.first(j, uFirst), y = pairs.second(j, uFirst);
            for (int q = g.rStart[x]; q < g.rStart[x + 1]; q++) {
                int r = g.rNode[q];
                if (r != b && newRw(reach, r, b)) g.addEdge(r, b, EdgeKind.RW, g.wVer[x], g.wVer[y], Polygraph.FORCED);
            }
        }
    }

    /** The cycle that open pair i's order closes: its ww or rw edge, then a path back in the current graph. */
    private PolygraphCycle closing(int i, boolean uFirst, int why, int j) {
        int a = uFirst ? pairs.cu[i] : pairs.cv[i], b = uFirst ? pairs.cv[i] : pairs.cu[i];
        int x = pairs.first(j, uFirst), y = pairs.second(j, uFirst);
        int mark = g.edges.size;
        int e = why == -2 ? g.addEdge(a, b, EdgeKind.WW, g.wVer[x], g.wVer[y], Polygraph.CHOSEN)
                : g.addEdge(why, b, EdgeKind.RW, g.wVer[x], g.wVer[y], Polygraph.CHOSEN);
        int[] cyc = Paths.cycleThrough(g, si, e);
        PolygraphCycle c = copy(cyc);
        g.truncate(mark);
        return c;
    }

    // ---- step 3: SAT over the open pairs ----

    private Outcome sat() {
        // Start from the order the hint gives each open pair (in a real execution the commit order mostly follows
        // completion time). A variable is true when its pair goes against the hint, so the solver's default
        // polarity, false, starts from the hinted order, and phase saving stays near it: on valid histories the
        // first models are nearly right, and few cycles need learning.
        boolean[] hintUFirst = new boolean[pairs.cons];
        for (int i = 0; i < pairs.cons; i++) hintUFirst[i] = g.hint == null || g.hint[pairs.cu[i]] <= g.hint[pairs.cv[i]];
        ISolver solver = SolverFactory.newDefault();
        solver.newVar(pairs.cons);
        int secondsLeft = (int) Math.max(1, (limits.deadlineNanos() - System.nanoTime()) / 1_000_000_000L);
        solver.setTimeout(secondsLeft);
        int base = g.edges.size;
        List<PolygraphCycle> learned = new ArrayList<>();
        List<int[]> clauses = new ArrayList<>();
        try {
            while (true) {
                if (System.nanoTime() > limits.deadlineNanos()) {
                    return unknown("the time limit ran out in the SAT search after " + stats.satIterations
                            + " iterations (" + pairs.cons + " open pairs of writes)");
                }
                stats.satIterations++;
                long s0 = System.nanoTime();
                boolean sat = solver.isSatisfiable();
                stats.solverNanos += System.nanoTime() - s0;
                if (!sat) {
                    return violation(LearnedCycles.minimalCore(pairs.cons, clauses, learned));
                }
                int[] model = solver.model();
                boolean[] against = new boolean[pairs.cons];
                for (int lit : model) {
                    int v = Math.abs(lit) - 1;
                    if (v < pairs.cons) against[v] = lit > 0;
                }
                g.truncate(base);
                int[] owner = new int[16];
                for (int i = 0; i < pairs.cons; i++) {
                    boolean uFirst = hintUFirst[i] != against[i];
                    int start = g.edges.size;
                    addSide(i, uFirst);
                    if (owner.length < g.edges.size - base) owner = Arrays.copyOf(owner, Math.max(owner.length * 2, g.edges.size - base));
                    // The literal that blocks this choice: var i true when it was false, and the other way round.
                    for (int e = start; e < g.edges.size; e++) owner[e - base] = against[i] ? -(i + 1) : i + 1;
                }
                List<int[]> cycles = Paths.someCycles(g, si, base, 1024, limits.cycleBudget());
                if (cycles.isEmpty()) {
                    g.truncate(base);
                    return new Outcome.Acyclic(stats);
                }
                for (int[] cyc : cycles) {
                    IVecInt clause = new VecInt();
                    List<Integer> lits = new ArrayList<>();
                    for (int e : cyc) {
                        if (e < base) continue;
                        int lit = owner[e - base];
                        if (!lits.contains(lit)) lits.add(lit);
                    }
                    if (lits.isEmpty()) { // only known edges: cannot happen after pruning, but is a violation
                        g.truncate(base);
                        return violation(List.of(copy(cyc)));
                    }
                    for (int l : lits) clause.push(l);
                    learned.add(copy(cyc));
                    clauses.add(lits.stream().mapToInt(Integer::intValue).toArray());
                    stats.learnedCycles++;
                    solver.addClause(clause);
                }
            }
        } catch (ContradictionException e) {
            // The learned clauses are already contradictory (e.g. a unit clause and its negation).
            return violation(LearnedCycles.minimalCore(pairs.cons, clauses, learned));
        } catch (TimeoutException e) {
            return unknown("the SAT solver ran out of time after " + stats.satIterations + " iterations (" + pairs.cons
                    + " open pairs of writes)");
        } finally {
            g.truncate(base);
        }
    }

    /** Adds the edges of open pair i's order as tentative (CHOSEN) edges. */
    private void addSide(int i, boolean uFirst) {
        int a = uFirst ? pairs.cu[i] : pairs.cv[i], b = uFirst ? pairs.cv[i] : pairs.cu[i];
        int h0 = pairs.chead[i];
        g.addEdge(a, b, EdgeKind.WW, g.wVer[pairs.first(h0, uFirst)], g.wVer[pairs.second(h0, uFirst)], Polygraph.CHOSEN);
        for (int j = h0; j >= 0; j = pairs.enext[j]) {
            int x = pairs.first(j, uFirst), y = pairs.second(j, uFirst);
            for (int q = g.rStart[x]; q < g.rStart[x + 1]; q++) {
                int r = g.rNode[q];
                if (r != b) g.addEdge(r, b, EdgeKind.RW, g.wVer[x], g.wVer[y], Polygraph.CHOSEN);
            }
        }
    }

    private PolygraphCycle copy(int[] edgeIds) {
        return PolygraphCycle.of(g, edgeIds);
    }
}
