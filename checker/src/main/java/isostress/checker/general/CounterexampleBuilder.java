package isostress.checker.general;

import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.CycleShape;
import isostress.checker.model.CycleVariant;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LongFork;
import isostress.checker.model.MtcAnomaly;
import isostress.checker.model.Premise;
import isostress.checker.model.Step;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns what the {@link PolygraphSolver} found into an {@link Anomaly} a person can check: the cycle as transaction
 * steps (split halves and time points folded away), Elle's name for its shape, and, because the version order of a
 * general history is partly inferred, a premise for each inferred order the cycle uses, with the path or cycle that
 * forces it. A violation found by a case split (both orders of a pair, or a set of cycles that every choice of the
 * open orders closes) lists the other cases as premises, in the manner of PolySI's adjoining cycle sets (§5.3).
 */
final class CounterexampleBuilder {
    /** Premises explained per anomaly: enough to follow the argument, bounded for huge counterexamples. */
    private static final int MAX_PREMISES = 6;

    private final Observations o;
    private final Polygraph g;
    private final int[] nodeOfVersion;
    private final boolean si;
    private final IsolationLevel level;
    private int[] writerIndex;

    CounterexampleBuilder(Observations o, PolygraphBuilder.Built built, boolean si, IsolationLevel level) {
        this.o = o;
        this.g = built.g();
        this.nodeOfVersion = built.nodeOfVersion();
        this.si = si;
        this.level = level;
    }

    /** The anomaly for a violation. */
    Anomaly anomaly(PolygraphSolver.Outcome.Violation v) {
        List<PolygraphCycle> cycles = v.cycles();
        PolygraphCycle main = cycles.get(0);
        List<Step> steps = steps(main);
        List<Premise> premises = new ArrayList<>();
        boolean derived = false;
        for (int i = 0; i < main.size(); i++) {
            if (main.origin()[i] != Polygraph.HISTORY) derived = true;
        }
        if (cycles.size() > 1) {
            premises.add(new Premise("the cycle above assumes " + choices(main) + "; every other order closes a "
                    + "cycle too", List.of()));
            for (int c = 1; c < cycles.size(); c++) {
                PolygraphCycle other = cycles.get(c);
                String assumes = choices(other);
                premises.add(new Premise(assumes.isEmpty() ? "in any order" : "if " + assumes, steps(other)));
            }
        }
        for (int i = 0; i < main.size() && premises.size() < MAX_PREMISES; i++) {
            byte orig = main.origin()[i];
            if (orig == Polygraph.FRONTIER || orig == Polygraph.FORCED) {
                Premise p = justify(main, i);
                if (p != null) premises.add(p);
            }
        }
        List<EdgeKind> kinds = new ArrayList<>();
        for (Step s : steps) kinds.add(s.kind());
        CycleShape shape = CycleShape.of(kinds);
        IsolationLevel lv = level;
        IsolationLevel byShape = shape.variant() == CycleVariant.REALTIME ? IsolationLevel.STRICT_SERIALIZABLE
                : shape.type().level();
        if (!derived && cycles.size() == 1 && level.implies(byShape)) lv = byShape;
        return new Anomaly(LongFork.name(shape.type(), steps), shape.variant(), null, lv, txnsOf(steps, premises),
                steps, null, null, premises);
    }

    /** "T3's write of key 5 (7) precedes T8's (9)" for each order the cycle assumes (its CHOSEN edges). */
    private String choices(PolygraphCycle c) {
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < c.size(); i++) {
            if (c.origin()[i] != Polygraph.CHOSEN) continue;
            out.add(order(c.v1()[i], c.v2()[i]));
        }
        return String.join(" and ", out);
    }

    private String order(int earlier, int later) {
        return writerName(earlier) + "'s write of key " + key(earlier) + " (" + o.value(earlier) + ") precedes "
                + writerName(later) + "'s (" + o.value(later) + ")";
    }

    private String writerName(int v) {
        return o.isInitial(v) ? "the initial state" : "T" + o.verTxn[v];
    }

    private long key(int v) {
        return o.keyOf[o.verKey[v]];
    }

    /**
     * Why the inferred edge at position i holds: the version order it rests on is forced, either because the earlier
     * writer reaches the later one (FRONTIER) or because the other order closes a cycle (FORCED).
     */
    private Premise justify(PolygraphCycle c, int i) {
        int e = c.edgeId()[i];
        if (e < 0) return null;
        int earlier = c.v1()[i], later = c.v2()[i];
        int ne = nodeOfVersion[earlier], nl = nodeOfVersion[later];
        if (ne < 0 || nl < 0) return null;
        // Reachability: the earlier writer reaches the later one with the edges the order was derived from (not those
        // derived beside it, which may rest on this very order).
        int basis = g.basisOf(e);
        int[] path = Paths.path(g, si, ne, nl, basis);
        if (path != null) {
            return new Premise(order(earlier, later) + ", since " + writerName(earlier) + " precedes "
                    + writerName(later), stepsOf(path));
        }
        // Forced: the other order closes a cycle.
        int[] cyc = otherOrderCycle(earlier, later, basis);
        if (cyc == null) return new Premise(order(earlier, later) + " (inferred)", List.of());
        List<Step> steps = new ArrayList<>();
        steps.add(step(g.txnOf[cyc[0] == -2 ? nl : cyc[0]], g.txnOf[ne], cyc[0] == -2 ? EdgeKind.WW : EdgeKind.RW,
                later, earlier));
        int[] rest = new int[cyc.length - 1];
        System.arraycopy(cyc, 1, rest, 0, rest.length);
        steps.addAll(stepsOf(rest));
        return new Premise(order(earlier, later) + ", since the other order closes this cycle", steps);
    }

    /**
     * For "later before earlier" (the order ruled out): {-2, path...} when its ww edge closes a cycle, {reader,
     * path...} when an rw edge from a reader of later's version does, using edges below {@code limit}; else null.
     */
    private int[] otherOrderCycle(int earlier, int later, int limit) {
        int ne = nodeOfVersion[earlier], nl = nodeOfVersion[later];
        int[] back = Paths.path(g, si, ne, nl, limit);
        if (back != null) return prepend(-2, back);
        int w = writerIndex(later);
        if (w < 0) return null;
        for (int j = g.rStart[w]; j < g.rStart[w + 1]; j++) {
            int r = g.rNode[j];
            if (r == ne) continue;
            int[] p = si ? Paths.shortestPath(Paths.graph(g, true, limit), new int[] {2 * ne}, new int[] {2 * r + 1}, -1)
                    : Paths.path(g, false, ne, r, limit);
            if (p != null) return prepend(r, p);
        }
        return null;
    }

    private int writerIndex(int version) {
        if (writerIndex == null) {
            writerIndex = new int[o.versions];
            java.util.Arrays.fill(writerIndex, -1);
            for (int w = 0; w < g.wVer.length; w++) writerIndex[g.wVer[w]] = w;
        }
        return writerIndex[version];
    }

    private static int[] prepend(int x, int[] a) {
        int[] out = new int[a.length + 1];
        out[0] = x;
        System.arraycopy(a, 0, out, 1, a.length);
        return out;
    }

    // ---- steps ----

    /** The cycle's transaction steps: halves of one transaction merged, runs through time points made one rt step. */
    List<Step> steps(PolygraphCycle c) {
        int k = c.size();
        int start = 0; // start at an edge leaving a transaction, so that no run through time points is cut
        while (start < k && g.txnOf[c.from()[start]] < 0) start++;
        int[] order = new int[k];
        for (int i = 0; i < k; i++) order[i] = (start + i) % k;
        return fold(order, c.from(), c.to(), c.kind(), c.v1(), c.v2());
    }

    private List<Step> stepsOf(int[] edgeIds) {
        PolygraphCycle c = PolygraphCycle.of(g, edgeIds);
        int[] order = new int[edgeIds.length];
        for (int i = 0; i < order.length; i++) order[i] = i;
        return fold(order, c.from(), c.to(), c.kind(), c.v1(), c.v2());
    }

    private List<Step> fold(int[] order, int[] from, int[] to, byte[] kind, int[] v1, int[] v2) {
        List<Step> out = new ArrayList<>();
        int runFrom = -1; // the transaction a run through time points started at
        for (int e : order) {
            int ft = g.txnOf[from[e]], tt = g.txnOf[to[e]];
            if (ft >= 0 && tt < 0) { // entering time points
                runFrom = ft;
                continue;
            }
            if (ft < 0) { // inside a run
                if (tt >= 0 && runFrom >= 0) out.add(Step.of(runFrom, tt, EdgeKind.RT));
                continue;
            }
            if (ft == tt) continue; // a transaction's read half to its write half
            out.add(step(ft, tt, EdgeKind.of(kind[e]), v1[e], v2[e]));
        }
        return out;
    }

    /** A step between transactions {@code f} and {@code t}. */
    private Step step(int f, int t, EdgeKind kind, int v1, int v2) {
        switch (kind) {
            case SO: case RT:
                return Step.of(f, t, kind);
            case WR:
                return new Step(f, t, kind, key(v1), o.value(v1), null, o.isInitial(v1), -1);
            default: // ww and rw: when the key's order is the commit log's, say where the two writes are in it
                return new Step(f, t, kind, key(v1), o.value(v1), v2 < 0 ? null : o.value(v2), o.isInitial(v1), -1,
                        o.log == null || v2 < 0 ? null : o.log.between(o.verKey[v1], v1, v2));
        }
    }

    private List<Txn> txnsOf(List<Step> steps, List<Premise> premises) {
        Set<Integer> ids = new LinkedHashSet<>();
        for (Step s : steps) {
            ids.add(s.from());
            ids.add(s.to());
        }
        for (Premise p : premises) {
            for (Step s : p.steps()) {
                ids.add(s.from());
                ids.add(s.to());
            }
        }
        List<Txn> out = new ArrayList<>();
        for (int t : ids) out.add(o.h.txn(t));
        return out;
    }

    /** A lost update: two transactions read the same version of a key and both wrote it. */
    static Anomaly lostUpdate(Observations o, int version, int t1, int t2) {
        long key = o.keyOf[o.verKey[version]];
        Long value = o.value(version);
        boolean init = o.isInitial(version);
        Long w1 = o.value(o.written(t1, o.verKey[version])), w2 = o.value(o.written(t2, o.verKey[version]));
        List<Step> steps = List.of(new Step(t1, t2, EdgeKind.RW, key, value, w2, init, -1),
                new Step(t2, t1, EdgeKind.RW, key, value, w1, init, -1));
        List<Txn> txns = new ArrayList<>();
        if (!init) txns.add(o.h.txn(o.verTxn[version]));
        txns.add(o.h.txn(t1));
        txns.add(o.h.txn(t2));
        return new Anomaly(AnomalyType.LOST_UPDATE, CycleVariant.NONE, MtcAnomaly.LOST_UPDATE,
                MtcAnomaly.LOST_UPDATE.level(), txns, steps, null, key);
    }
}
