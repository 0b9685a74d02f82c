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
 *   <li><b>Order forced by reachability.</b> If writer A of key x reaches writer B (SI: from state A(A), see
 *       {@link Reachability}), B before A closes a cycle, so A precedes B. Such pairs are never materialised: for
 *       each writer A and each session, only the first writer of x there that A reaches matters (the later ones
 *       follow it in session order), and every reader of A's version gets an rw edge to it ({@code FRONTIER}).</li>
 *   <li><b>Pruning</b> (Alg. 2, lines 37-73) of the remaining pairs, the writers neither reaches: a side whose ww
 *       or rw edge would close a cycle is impossible; then the other side's edges become known ({@code FORCED});
 *       both sides impossible is a violation, explained by the two cycles. Rounds repeat, with reachability
 *       recomputed, until nothing changes.</li>
 *   <li><b>SAT</b> for what is left: one variable per open pair, solved by Sat4j lazily, as MonoSAT's acyclicity
 *       theory would (notes-002 §2.6 (a)): take a model, add the sides it picks, look for a cycle; if there is one,
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
        record Acyclic(Stats stats) implements Outcome {
        }

        /**
         * No version order does. {@code cycles}: one cycle (the known graph is cyclic), two (both orders of one
         * pair close a cycle) or several (every model of the open orders closes one of them).
         */
        record Violation(List<Cycle> cycles, Stats stats) implements Outcome {
        }

        /** A limit was hit. */
        record Unknown(String reason, Stats stats) implements Outcome {
        }
    }

    /** Counters for reports and benchmarks. */
    static final class Stats {
        int rounds, constraints, forced, frontierEdges, openAfterPruning, satIterations, learnedCycles;
        long pruneMs, satMs;

        @Override
        public String toString() {
            return "rounds=" + rounds + " constraints=" + constraints + " forced=" + forced + " frontier_edges="
                    + frontierEdges + " open=" + openAfterPruning + " sat_iterations=" + satIterations;
        }
    }

    /**
     * A cycle as copies of its edges (the solver's tentative edges are discarded afterwards), with, for each edge,
     * the open pair and side it came from when the SAT phase chose it (else -1).
     */
    record Cycle(int[] from, int[] to, byte[] kind, int[] v1, int[] v2, byte[] origin, int[] edgeId) {
        int size() {
            return from.length;
        }
    }

    /** Limits. */
    record Limits(long deadlineNanos, long maxConstraints, long cycleBudget) {
    }

    private final Polygraph g;
    private final boolean si;
    private final Limits limits;
    private final Stats stats = new Stats();
    private int cons;
    private int[] cx = new int[64], cy = new int[64];
    private final isostress.checker.history.LongPairIntMap rwAdded = new isostress.checker.history.LongPairIntMap(1024);

    private PolygraphSolver(Polygraph g, boolean si, Limits limits) {
        this.g = g;
        this.si = si;
        this.limits = limits;
    }

    /** Solves {@code g} (edges are added to it: known ones, derived ones). */
    static Outcome solve(Polygraph g, boolean si, Limits limits) {
        return new PolygraphSolver(g, si, limits).run();
    }

    private Outcome run() {
        long t0 = System.nanoTime();
        initialReaders();
        Reachability reach;
        boolean first = true;
        while (true) {
            stats.rounds++;
            reach = Reachability.of(g, si, limits.cycleBudget());
            if (reach.cycle != null) return violation(List.of(copy(reach.cycle)));
            if (System.nanoTime() > limits.deadlineNanos()) return unknown("the time limit ran out while pruning");
            int before = g.edges;
            frontier(reach);
            stats.frontierEdges += g.edges - before;
            if (first) {
                if (!enumerate(reach)) {
                    return unknown("more than " + limits.maxConstraints() + " pairs of writers are unordered");
                }
                stats.constraints = cons;
                first = false;
            }
            int beforeResolve = g.edges;
            Outcome v = resolve(reach);
            if (v != null) return v;
            if (g.edges == before && beforeResolve == before) break;
        }
        stats.pruneMs = (System.nanoTime() - t0) / 1_000_000;
        stats.openAfterPruning = cons;
        if (cons == 0) return new Outcome.Acyclic(stats);
        long t1 = System.nanoTime();
        Outcome o = sat();
        stats.satMs = (System.nanoTime() - t1) / 1_000_000;
        return o;
    }

    private Outcome unknown(String why) {
        return new Outcome.Unknown(why, stats);
    }

    private Outcome violation(List<Cycle> cycles) {
        return new Outcome.Violation(cycles, stats);
    }

    // ---- step 0: readers of initial versions precede every writer ----

    private void initialReaders() {
        for (int k = 0; k < g.keys; k++) {
            if (g.iStart[k] == g.iStart[k + 1]) continue;
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
            if (g1 - g0 == 0) continue;
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

    /** Lists the pairs of writers of a key that neither reaches; false when over the limit. */
    private boolean enumerate(Reachability reach) {
        for (int k = 0; k < g.keys; k++) {
            int g0 = g.gStart[k], g1 = g.gStart[k + 1];
            if (g1 - g0 < 2) continue;
            for (int x = g.wStart[k]; x < g.wStart[k + 1]; x++) {
                int u = g.wNode[x];
                int su = g.session[u];
                for (int grp = g0; grp < g1; grp++) {
                    if (g.gSession[grp] == su) continue;
                    int p = reach.front(u, g.gSession[grp]);
                    int hi = p == Reachability.INF ? g.gFrom[grp + 1] : g.firstAtOrAfter(grp, p);
                    // Writers of the group that reach u form a prefix (earlier ones reach what later ones do).
                    int lo = g.gFrom[grp], h = hi;
                    while (lo < h) {
                        int mid = (lo + h) >>> 1;
                        if (reach.reaches(g.wNode[g.gw[mid]], u)) lo = mid + 1; else h = mid;
                    }
                    for (int i = lo; i < hi; i++) {
                        int y = g.gw[i];
                        if (x < y) {
                            if (cons >= limits.maxConstraints()) return false;
                            addConstraint(x, y);
                        }
                    }
                }
            }
        }
        return true;
    }

    private void addConstraint(int x, int y) {
        if (cons == cx.length) {
            cx = Arrays.copyOf(cx, cons * 2);
            cy = Arrays.copyOf(cy, cons * 2);
        }
        cx[cons] = x;
        cy[cons++] = y;
    }

    /** One pruning pass over the open pairs; a violation when both orders of some pair close a cycle. */
    private Outcome resolve(Reachability reach) {
        int kept = 0;
        for (int i = 0; i < cons; i++) {
            int x = cx[i], y = cy[i];
            int ux = g.wNode[x], uy = g.wNode[y];
            boolean xy = reach.reaches(ux, uy), yx = reach.reaches(uy, ux);
            if (xy || yx) continue; // now ordered by reachability: the frontier edges of this round cover it
            int whyXy = impossible(reach, x, y), whyYx = impossible(reach, y, x);
            if (whyXy >= 0 && whyYx >= 0) {
                return violation(List.of(closing(x, y, whyXy), closing(y, x, whyYx)));
            }
            if (whyXy >= 0) {
                force(reach, y, x);
            } else if (whyYx >= 0) {
                force(reach, x, y);
            } else {
                cx[kept] = x;
                cy[kept++] = y;
            }
        }
        cons = kept;
        return null;
    }

    /**
     * Whether "x before y" closes a cycle: -2 for its ww edge, a reader node r for the edge r -rw-> y, or -1 when
     * it is possible.
     */
    private int impossible(Reachability reach, int x, int y) {
        int uy = g.wNode[y];
        if (reach.wwCloses(g.wNode[x], uy)) return -2;
        for (int j = g.rStart[x]; j < g.rStart[x + 1]; j++) {
            int r = g.rNode[j];
            if (r != uy && reach.rwCloses(r, uy)) return r;
        }
        return -1;
    }

    /** Makes "x before y" known. */
    private void force(Reachability reach, int x, int y) {
        stats.forced++;
        int ux = g.wNode[x], uy = g.wNode[y];
        if (!reach.depImplied(ux, uy)) g.addEdge(ux, uy, EdgeKind.WW, g.wVer[x], g.wVer[y], Polygraph.FORCED);
        for (int j = g.rStart[x]; j < g.rStart[x + 1]; j++) {
            int r = g.rNode[j];
            if (r != uy && newRw(reach, r, uy)) g.addEdge(r, uy, EdgeKind.RW, g.wVer[x], g.wVer[y], Polygraph.FORCED);
        }
    }

    /** The cycle that "x before y" closes: its ww or rw edge, then a path back in the current graph. */
    private Cycle closing(int x, int y, int why) {
        int ux = g.wNode[x], uy = g.wNode[y];
        int mark = g.edges;
        int e = why == -2 ? g.addEdge(ux, uy, EdgeKind.WW, g.wVer[x], g.wVer[y], Polygraph.CHOSEN)
                : g.addEdge(why, uy, EdgeKind.RW, g.wVer[x], g.wVer[y], Polygraph.CHOSEN);
        int[] cyc = Paths.cycleThrough(g, si, e);
        Cycle c = copy(cyc);
        g.truncate(mark);
        return c;
    }

    // ---- step 3: SAT over the open pairs ----

    private Outcome sat() {
        ISolver solver = SolverFactory.newDefault();
        solver.newVar(cons);
        int secondsLeft = (int) Math.max(1, (limits.deadlineNanos() - System.nanoTime()) / 1_000_000_000L);
        solver.setTimeout(secondsLeft);
        int base = g.edges;
        List<Cycle> learned = new ArrayList<>();
        List<int[]> clauses = new ArrayList<>();
        try {
            while (true) {
                if (System.nanoTime() > limits.deadlineNanos()) {
                    return unknown("the time limit ran out in the SAT search after " + stats.satIterations
                            + " iterations (" + cons + " open pairs of writes)");
                }
                stats.satIterations++;
                if (!solver.isSatisfiable()) {
                    return violation(minimalCore(clauses, learned));
                }
                int[] model = solver.model();
                boolean[] xFirst = new boolean[cons];
                for (int lit : model) {
                    int v = Math.abs(lit) - 1;
                    if (v < cons) xFirst[v] = lit > 0;
                }
                g.truncate(base);
                int[] owner = new int[16];
                for (int i = 0; i < cons; i++) {
                    int x = xFirst[i] ? cx[i] : cy[i], y = xFirst[i] ? cy[i] : cx[i];
                    int start = g.edges;
                    addSide(x, y);
                    if (owner.length < g.edges - base) owner = Arrays.copyOf(owner, Math.max(owner.length * 2, g.edges - base));
                    for (int e = start; e < g.edges; e++) owner[e - base] = xFirst[i] ? i + 1 : -(i + 1);
                }
                List<int[]> cycles = Paths.someCycles(g, si, 32, limits.cycleBudget());
                if (cycles.isEmpty()) {
                    g.truncate(base);
                    return new Outcome.Acyclic(stats);
                }
                for (int[] cyc : cycles) {
                    IVecInt clause = new VecInt();
                    List<Integer> lits = new ArrayList<>();
                    for (int e : cyc) {
                        if (e < base) continue;
                        int lit = -owner[e - base];
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
            return violation(minimalCore(clauses, learned));
        } catch (TimeoutException e) {
            return unknown("the SAT solver ran out of time after " + stats.satIterations + " iterations (" + cons
                    + " open pairs of writes)");
        } finally {
            g.truncate(base);
        }
    }

    /** Adds the edges of "x before y" as tentative (CHOSEN) edges. */
    private void addSide(int x, int y) {
        int ux = g.wNode[x], uy = g.wNode[y];
        g.addEdge(ux, uy, EdgeKind.WW, g.wVer[x], g.wVer[y], Polygraph.CHOSEN);
        for (int j = g.rStart[x]; j < g.rStart[x + 1]; j++) {
            int r = g.rNode[j];
            if (r != uy) g.addEdge(r, uy, EdgeKind.RW, g.wVer[x], g.wVer[y], Polygraph.CHOSEN);
        }
    }

    /**
     * A minimal subset of the learned cycles that no choice escapes (deletion-based: drop a cycle whenever the rest
     * stays unsatisfiable), so that the counterexample is the smallest argument, as PolySI's interpretation step
     * aims for (§5.3).
     */
    private List<Cycle> minimalCore(List<int[]> clauses, List<Cycle> learned) {
        boolean[] keep = new boolean[clauses.size()];
        Arrays.fill(keep, true);
        for (int i = 0; i < clauses.size(); i++) {
            keep[i] = false;
            if (satisfiable(clauses, keep)) keep[i] = true;
        }
        List<Cycle> out = new ArrayList<>();
        for (int i = 0; i < clauses.size(); i++) if (keep[i]) out.add(learned.get(i));
        return out;
    }

    private boolean satisfiable(List<int[]> clauses, boolean[] keep) {
        ISolver s = SolverFactory.newDefault();
        s.newVar(cons);
        s.setTimeout(10);
        try {
            for (int i = 0; i < clauses.size(); i++) if (keep[i]) s.addClause(new VecInt(clauses.get(i)));
            return s.isSatisfiable();
        } catch (ContradictionException e) {
            return false;
        } catch (TimeoutException e) {
            return true; // keep the cycle: the core stays a valid (if not minimal) argument
        }
    }

    // ---- cycles as data ----

    private Cycle copy(int[] edgeIds) {
        int k = edgeIds.length;
        int[] f = new int[k], t = new int[k], a = new int[k], b = new int[k], id = new int[k];
        byte[] kd = new byte[k], or = new byte[k];
        for (int i = 0; i < k; i++) {
            int e = edgeIds[i];
            f[i] = g.from[e];
            t[i] = g.to[e];
            a[i] = g.v1[e];
            b[i] = g.v2[e];
            kd[i] = g.kind[e];
            or[i] = g.origin[e];
            id[i] = g.origin[e] == Polygraph.CHOSEN ? -1 : e;
        }
        return new Cycle(f, t, kd, a, b, or, id);
    }

}
