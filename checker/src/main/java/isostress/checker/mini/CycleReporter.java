package isostress.checker.mini;

import isostress.checker.index.RegisterIndex;
import isostress.checker.graph.Csr;
import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.CycleShape;
import isostress.checker.model.CycleVariant;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LongFork;
import isostress.checker.model.MtcAnomaly;
import isostress.checker.model.Step;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns cycles found in a {@link MiniGraph} into {@link Anomaly} data: picks, between consecutive transactions, the
 * edge that explains the order with the weakest dependency (ww, then wr, then so, then rw), fills in the key and
 * values that justify each edge, and names the cycle (Elle's shape plus the MTC alias and the weakest level the
 * instance violates).
 *
 * <p>The level of a G-single cycle depends on its shape (Biswas &amp; Enea's axioms, §2.2): with the rw edge
 * T3 -rw(x)-> W and the edge P -> T3 that closes the cycle, if P wrote x after the version T3 read, the cycle
 * breaks Read Atomic (P is a direct so/wr predecessor of T3: SessionGuaranteeViolation for so, FracturedRead for
 * wr) or even Read Committed (T3 read P's write before its stale read of x: NonMonotonicRead); otherwise it breaks
 * Causal (CausalityViolation). No lost update assumed: then PC and SI coincide on RMW histories, so G-nonadjacent
 * breaks Prefix (LongFork).
 */
final class CycleReporter {
    private final RegisterIndex m;
    private final MiniGraph g;

    CycleReporter(MiniGraph g) {
        this.m = g.m;
        this.g = g;
    }

    /** Steps for a cycle through {@code nodes} (transactions, in order; it closes back to the first). */
    List<Step> steps(int[] nodes, Csr csr) {
        List<Step> steps = new ArrayList<>(nodes.length);
        for (int i = 0; i < nodes.length; i++) {
            steps.add(best(nodes[i], nodes[(i + 1) % nodes.length], csr));
        }
        return steps;
    }

    /** The step with the weakest dependency among the edges a -> b of {@code csr}, or null when there is none. */
    Step best(int a, int b, Csr csr) {
        Step best = null;
        int bestRank = Integer.MAX_VALUE;
        for (int p = csr.off[a]; p < csr.off[a + 1]; p++) {
            if (csr.tgt[p] != b) continue;
            Step s = step(csr.id(p));
            int r = rank(s.kind());
            if (r < bestRank) {
                best = s;
                bestRank = r;
            }
        }
        return best;
    }

    private static int rank(EdgeKind k) {
        switch (k) {
            case WW: return 0;
            case WR: return 1;
            case SO: return 2;
            case RT: return 3;
            case RW: return 4;
            default: return 5;
        }
    }

    /** The step for graph edge {@code e}, relabelling a wr edge into a writer that overwrote the version as ww. */
    Step step(int e) {
        int a = g.from(e), b = g.to(e);
        EdgeKind k = g.kind(e);
        if (k == EdgeKind.SO) return Step.of(a, b, EdgeKind.SO);
        int v = g.ver(e);
        int keyId = m.versionKey(v);
        long key = m.keyOf[keyId];
        Long value = m.versionValue(v);
        boolean init = v >= m.accCount;
        int acc = m.access(b, keyId);
        Long next = acc != RegisterIndex.NONE && m.accWrites[acc] ? m.accWrite(acc) : null;
        if (k == EdgeKind.WR) {
            if (acc != RegisterIndex.NONE && m.accWrites[acc] && m.accSource[acc] == v) {
                return new Step(a, b, EdgeKind.WW, key, value, next, init, -1);
            }
            return new Step(a, b, EdgeKind.WR, key, value, null, init, -1);
        }
        return new Step(a, b, k, key, value, next, init, -1);
    }

    /** A real-time step: a completed before b was invoked. */
    static Step realTime(int a, int b) {
        return Step.of(a, b, EdgeKind.RT);
    }

    /** Names a cycle of dependency steps found by the check for {@code foundBy}. */
    Anomaly cycle(List<Step> steps, IsolationLevel foundBy) {
        List<EdgeKind> kinds = new ArrayList<>(steps.size());
        for (Step s : steps) kinds.add(s.kind());
        CycleShape shape = CycleShape.of(kinds);
        MtcAnomaly alias = null;
        IsolationLevel level;
        if (shape.variant() == CycleVariant.REALTIME) {
            level = foundBy == IsolationLevel.LINEARIZABLE ? foundBy : IsolationLevel.STRICT_SERIALIZABLE;
        } else {
            switch (shape.type()) {
                case G_SINGLE: alias = singleAlias(steps); break;
                // PC = SI needs a fixed version order; with a lost update PC is decided by search instead.
                case G_NONADJACENT: alias = m.anyDivergence ? null : MtcAnomaly.LONG_FORK; break;
                case G2_ITEM: alias = MtcAnomaly.WRITE_SKEW; break;
                default: break;
            }
            level = alias != null ? alias.level() : shape.type().level();
        }
        return new Anomaly(LongFork.name(shape.type(), steps), shape.variant(), alias, level, txnsOf(steps), steps,
                null, null);
    }

    /** Names a stale-read cycle found by an axiom check that knows which MTC anomaly it is. */
    Anomaly staleRead(List<Step> steps, MtcAnomaly alias) {
        List<EdgeKind> kinds = new ArrayList<>(steps.size());
        for (Step s : steps) kinds.add(s.kind());
        CycleShape shape = CycleShape.of(kinds);
        return new Anomaly(shape.type(), shape.variant(), alias, alias.level(), txnsOf(steps), steps, null, null);
    }

    /** Names a cycle that uses commit-order (co) steps forced by the axiom of {@code level}. */
    Anomaly forcedOrderCycle(List<Step> steps, IsolationLevel level) {
        MtcAnomaly alias = level == IsolationLevel.READ_COMMITTED ? MtcAnomaly.NON_MONOTONIC_READ
                : level == IsolationLevel.READ_ATOMIC ? MtcAnomaly.FRACTURED_READ : MtcAnomaly.CAUSALITY_VIOLATION;
        boolean so = steps.stream().anyMatch(s -> s.kind() == EdgeKind.SO);
        return new Anomaly(AnomalyType.G_SINGLE, so ? CycleVariant.PROCESS : CycleVariant.NONE, alias, level,
                txnsOf(steps), steps, null, null);
    }

    private MtcAnomaly singleAlias(List<Step> steps) {
        int n = steps.size();
        int i = 0;
        while (steps.get(i).kind() != EdgeKind.RW) i++;
        Step rw = steps.get(i);
        Step closing = steps.get((i - 1 + n) % n);
        int t3 = rw.from(), w = rw.to(), p = closing.from();
        int x = keyId(rw.key());
        int wAcc = m.access(w, x);
        int pAcc = m.access(p, x);
        boolean laterWriter = pAcc != RegisterIndex.NONE && m.accWrites[pAcc] && wAcc != RegisterIndex.NONE
                && m.descendantOrSelf(pAcc, wAcc);
        if (!laterWriter) return MtcAnomaly.CAUSALITY_VIOLATION;
        if (closing.kind() == EdgeKind.SO) return MtcAnomaly.SESSION_GUARANTEE_VIOLATION;
        int yAcc = m.access(t3, keyId(closing.key()));
        int xAcc = m.access(t3, x);
        if (yAcc != RegisterIndex.NONE && xAcc != RegisterIndex.NONE && m.accReadOp[yAcc] < m.accReadOp[xAcc]) {
            return MtcAnomaly.NON_MONOTONIC_READ;
        }
        return MtcAnomaly.FRACTURED_READ;
    }

    private int keyId(Long key) {
        return m.keyId(key);
    }

    List<Txn> txnsOf(List<Step> steps) {
        Set<Integer> ids = new LinkedHashSet<>();
        for (Step s : steps) {
            ids.add(s.from());
            ids.add(s.to());
        }
        for (Step s : steps) if (s.witness() >= 0) ids.add(s.witness()); // whose reads force co steps
        List<Txn> out = new ArrayList<>(ids.size());
        for (int t : ids) out.add(m.h.txn(t));
        return out;
    }
}
