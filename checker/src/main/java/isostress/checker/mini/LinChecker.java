package isostress.checker.mini;

import isostress.checker.index.RegisterIndex;
import isostress.checker.history.History;
import isostress.checker.history.Outcome;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Step;

import java.util.ArrayList;
import java.util.List;

/**
 * Linearizability of each key: MTC's VL-LWT (Wei et al. §IV-E, Alg. 2), generalised from read&amp;write operations
 * to plain reads and to any read-modify-write history, in O(n).
 *
 * <p>Each transaction's accesses of key x are one operation on x spanning the transaction's invocation and
 * completion (linearizability is local: Herlihy &amp; Wing). Step ❶ builds the chain of versions from the initial one:
 * it must not branch (a branch is a lost update) and must reach every version (else writes read each other in a
 * cycle). Step ❷ then checks real time along the chain: the writer of version i, then the reads of version i in any
 * order, then the writer of version i+1. Placing every operation as early as its invocation and its predecessors
 * allow is optimal, so one forward pass decides it: an operation that must be placed after its own completion was
 * preceded in the chain by one invoked after that completion. That pair, with the chain between them, is the
 * counterexample. Algorithm 2's reverse min-finish scan is the special case of a chain without reads.
 *
 * <p>An {@code info} transaction may have completed at any time after its invocation: its completion is infinite.
 */
final class LinChecker {
    static final String ALGORITHM = "MTC VL-LWT per key (Wei et al. §IV-E Alg. 2, with reads)";
    private static final long INFINITE = Long.MAX_VALUE;

    private LinChecker() {
    }

    /** Returns the number of keys that are not linearizable (each reported). */
    static int check(MiniContext ctx) {
        RegisterIndex m = ctx.m();
        int[] writersOfKey = new int[m.keyCount];
        boolean[] undetermined = new boolean[m.keyCount];
        for (int a = 0; a < m.accCount; a++) {
            if (!m.accWrites[a] || !m.included[m.accTxn[a]]) continue;
            writersOfKey[m.accKey[a]]++;
            // An info transaction's write whose read was not recorded has no known place in the chain: the key
            // cannot be decided (the verdict becomes unknown unless another key fails).
            if (m.accReadState[a] == RegisterIndex.READ_UNKNOWN) undetermined[m.accKey[a]] = true;
        }
        int bad = 0;
        List<Integer> chain = new ArrayList<>();
        for (int k = 0; k < m.keyCount; k++) {
            if (undetermined[k]) continue;
            chain.clear();
            if (!checkKey(ctx, k, writersOfKey[k], chain)) bad++;
        }
        return bad;
    }

    private static boolean checkKey(MiniContext ctx, int k, int writers, List<Integer> chain) {
        RegisterIndex m = ctx.m();
        History h = m.h;
        int v = m.accCount + k;
        long t = Long.MIN_VALUE;
        int owner = -1;
        int reached = 0;
        while (true) {
            chain.add(v);
            if (v < m.accCount) {
                reached++;
                long s = h.invokeIndex(m.accTxn[v]);
                long p = Math.max(t, s);
                if (p >= finish(h, m.accTxn[v])) return violation(ctx, chain, owner, v);
                if (s >= t) owner = v;
                t = p;
            }
            long next = t;
            int nextOwner = owner;
            for (int i = m.readerStart[v]; i < m.readerStart[v + 1]; i++) {
                int r = m.readers[i];
                if (m.accWrites[r]) continue; // an overwriter: the next version's writer
                long s = h.invokeIndex(m.accTxn[r]);
                long p = Math.max(t, s);
                if (p >= finish(h, m.accTxn[r])) return violation(ctx, chain, owner, r);
                if (p > next) {
                    next = p;
                    nextOwner = r;
                }
            }
            t = next;
            owner = nextOwner;
            int kids = m.childStart[v + 1] - m.childStart[v];
            if (kids > 1) return false; // a lost update, reported by LostUpdates
            if (kids == 0) {
                if (reached < writers) reportVersionCycle(ctx, k);
                return reached == writers;
            }
            v = m.children[m.childStart[v]];
        }
    }

    /**
     * Some versions of key k are not reachable from its initial version: either their writer's read was unusable
     * (already reported as a non-cycle anomaly) or writers read each other's versions in a cycle, reported here.
     */
    private static void reportVersionCycle(MiniContext ctx, int k) {
        RegisterIndex m = ctx.m();
        for (int a = 0; a < m.accCount; a++) {
            if (m.accKey[a] != k || !m.accWrites[a] || !m.included[m.accTxn[a]] || m.inForest(a)) continue;
            List<Integer> path = new ArrayList<>();
            int c = a;
            while (!path.contains(c)) {
                path.add(c);
                c = m.accSource[c];
            }
            List<Integer> cycle = path.subList(path.indexOf(c), path.size());
            List<Step> steps = new ArrayList<>();
            long key = m.keyOf[k];
            for (int i = cycle.size() - 1; i >= 0; i--) {
                int child = cycle.get(i);
                int parent = m.accSource[child];
                steps.add(new Step(m.accTxn[parent], m.accTxn[child], EdgeKind.WW, key, m.accWrite(parent),
                        m.accWrite(child), false, -1));
            }
            ctx.anomalies().add(ctx.reporter().cycle(steps, IsolationLevel.LINEARIZABLE));
            return;
        }
    }

    private static long finish(History h, int txn) {
        return h.outcome(txn) == Outcome.OK ? h.completeIndex(txn) : INFINITE;
    }

    /**
     * Access {@code a} precedes access {@code o} in the chain, but o completed before a was invoked: the steps from
     * a to o along the chain, then o -rt-> a.
     */
    private static boolean violation(MiniContext ctx, List<Integer> chain, int a, int o) {
        RegisterIndex m = ctx.m();
        List<Step> steps = new ArrayList<>();
        long key = m.keyOf[m.accKey[o]];
        int ia = position(m, chain, a), io = position(m, chain, o);
        int i = ia;
        if (!isWriterOf(m, chain, a, ia)) {
            int next = chain.get(ia + 1);
            steps.add(new Step(m.accTxn[a], m.accTxn[next], EdgeKind.RW, key, m.versionValue(chain.get(ia)),
                    m.accWrite(next), chain.get(ia) >= m.accCount, -1));
            i = ia + 1;
        }
        for (; i < io; i++) {
            int cur = chain.get(i), next = chain.get(i + 1);
            steps.add(new Step(m.accTxn[cur], m.accTxn[next], EdgeKind.WW, key, m.versionValue(cur),
                    m.accWrite(next), false, -1));
        }
        if (!isWriterOf(m, chain, o, io)) {
            int w = chain.get(io);
            steps.add(new Step(m.accTxn[w], m.accTxn[o], EdgeKind.WR, key, m.versionValue(w), null, false, -1));
        }
        steps.add(CycleReporter.realTime(m.accTxn[o], m.accTxn[a]));
        ctx.anomalies().add(ctx.reporter().cycle(steps, IsolationLevel.LINEARIZABLE));
        return false;
    }

    /** The chain position of access x: the version it wrote, or else the version it read. */
    private static int position(RegisterIndex m, List<Integer> chain, int x) {
        int i = chain.indexOf(x);
        if (i < 0) i = chain.indexOf(m.accSource[x]);
        if (i < 0) throw new IllegalStateException("access not on the chain");
        return i;
    }

    private static boolean isWriterOf(RegisterIndex m, List<Integer> chain, int x, int pos) {
        return chain.get(pos) == x;
    }
}
