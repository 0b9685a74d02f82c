package isostress.checker.mini;

import isostress.checker.index.RegisterIndex;
import isostress.checker.graph.Acyclicity;
import isostress.checker.graph.Csr;
import isostress.checker.history.History;
import isostress.checker.history.Outcome;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Step;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Strict serializability of a mini-transaction history (MTC Def. 4: SER's graph plus real-time order RT), in
 * O(n log n) instead of MTC's O(n²) (§IV-D), which materialises every RT pair.
 *
 * <p>Real-time order is encoded through a chain of time points, one per completion, in completion-index order:
 * T → point(T) at T's completion; point_i → point_{i+1}; and point_i → S for every S whose invocation comes after
 * completion i but before completion i+1. Then T reaches S through time points iff T completed before S was invoked,
 * so the graph has a cycle iff SER's graph plus RT has one, with O(n) extra nodes and edges; sorting the completions
 * is the O(n log n) part. Indices, not clocks, give the order: clocks of different clients are not comparable. An {@code info} transaction's completion
 * is unknown, so it precedes nothing in real time.
 */
final class SserChecker {
    static final String ALGORITHM = "CheckSSER with a time-point chain (Wei et al. Def. 4; O(n log n))";

    private SserChecker() {
    }

    static int cycles(MiniContext ctx) {
        RegisterIndex m = ctx.m();
        History h = m.h;
        Csr g = ctx.g().main();
        int n = m.n;
        // Completed committed transactions, by completion index.
        int completed = 0;
        for (int t = 0; t < n; t++) if (m.included[t] && h.outcome(t) == Outcome.OK) completed++;
        int cnt = completed;
        int[] order = sortByCompletion(h, m, cnt);
        // Transactions come in invocation order, so a merge with the sorted completions finds each one's latest
        // earlier completion in O(n); a binary search covers histories built in another order.
        boolean invokeOrdered = true;
        for (int t = 1; t < n && invokeOrdered; t++) invokeOrdered = h.invokeIndex(t) >= h.invokeIndex(t - 1);
        boolean merge = invokeOrdered;
        Csr.EdgeSource timeEdges = sink -> {
            for (int i = 0; i < cnt; i++) {
                sink.edge(order[i], n + i, -1);
                if (i + 1 < cnt) sink.edge(n + i, n + i + 1, -1);
            }
            int cursor = -1;
            for (int s = 0; s < n; s++) {
                if (!m.included[s]) continue;
                int i;
                if (merge) {
                    while (cursor + 1 < cnt && h.completeIndex(order[cursor + 1]) < h.invokeIndex(s)) cursor++;
                    i = cursor;
                } else {
                    i = lastBefore(h, order, h.invokeIndex(s));
                }
                if (i >= 0) sink.edge(n + i, s, -1);
            }
        };
        // A valid history (the common case) is settled by the acyclicity of g joined to real-time order, without a
        // copy of g: the joined graph is built only to report cycles (100M transactions must fit in 20 GB).
        if (merge ? acyclicWithRealTime(g, m, order) : Acyclicity.isAcyclic(g, Csr.build(n + cnt, timeEdges, false))) {
            return 0;
        }
        // Edges of g keep their positions in g as ids; time edges have id -1.
        Csr rt = Csr.build(n + cnt, sink -> {
            for (int u = 0; u < n; u++) {
                for (int p = g.off[u]; p < g.off[u + 1]; p++) sink.edge(u, g.tgt[p], p);
            }
            timeEdges.edges(sink);
        });
        return SccCycles.report(rt, n, ctx, (start, positions) -> {
            List<Step> steps = new ArrayList<>();
            int cur = start;
            int pendingFrom = -1;
            for (int pos : positions) {
                int next = rt.tgt[pos];
                if (rt.id(pos) >= 0) {
                    steps.add(ctx.reporter().best(cur, next, g));
                } else if (cur < n) {
                    pendingFrom = cur; // leaving a transaction into the time chain
                }
                if (next < n && rt.id(pos) < 0) {
                    steps.add(CycleReporter.realTime(pendingFrom, next));
                }
                cur = next;
            }
            return steps;
        }, steps -> ctx.reporter().cycle(steps, IsolationLevel.STRICT_SERIALIZABLE));
    }

    /**
     * Kahn's algorithm on g plus real-time order, for transactions in invocation order, with the time points left
     * implicit: a transaction may go once its predecessors in g have gone and so have all transactions that completed
     * before its invocation, a prefix of {@code order} (the time chain says exactly that). The transactions whose
     * prefix has gone are those below a cursor, as invocations only grow; ready ones wait on a stack linked through
     * the in-degree array. One int per transaction beside {@code order}, where the time-point graph takes five.
     */
    private static boolean acyclicWithRealTime(Csr g, RegisterIndex m, int[] order) {
        History h = m.h;
        int n = g.n, cnt = order.length;
        int[] indeg = new int[n];
        for (int t : g.tgt) indeg[t]++;
        int top = -1, removed = 0;
        int done = 0; // order[0 .. done) have all gone
        int cursor = 0; // transactions below it wait on g only
        while (true) {
            while (cursor < n && (!m.included[cursor] || done == cnt
                    || h.completeIndex(order[done]) >= h.invokeIndex(cursor))) {
                if (indeg[cursor] == 0) {
                    indeg[cursor] = -2 - top;
                    top = cursor;
                }
                cursor++;
            }
            if (top < 0) break;
            int u = top;
            top = -2 - indeg[u];
            indeg[u] = GONE;
            removed++;
            for (int p = g.off[u]; p < g.off[u + 1]; p++) {
                int v = g.tgt[p];
                if (--indeg[v] == 0 && v < cursor) {
                    indeg[v] = -2 - top;
                    top = v;
                }
            }
            while (done < cnt && indeg[order[done]] == GONE) done++;
        }
        return removed == n;
    }

    /** Marks a removed transaction in {@link #acyclicWithRealTime}'s in-degree array (stack links are above it). */
    private static final int GONE = Integer.MIN_VALUE;

    /** Included ok transactions sorted by completion index. */
    private static int[] sortByCompletion(History h, RegisterIndex m, int cnt) {
        int[] ids = new int[cnt];
        int j = 0;
        boolean sorted = true;
        for (int t = 0; t < m.n; t++) {
            if (m.included[t] && h.outcome(t) == Outcome.OK) {
                if (j > 0 && h.completeIndex(t) < h.completeIndex(ids[j - 1])) sorted = false;
                ids[j++] = t;
            }
        }
        if (sorted) return ids; // without a copy of the completion indices (100M transactions must fit in 20 GB)
        long[] keys = new long[cnt];
        for (int i = 0; i < cnt; i++) keys[i] = h.completeIndex(ids[i]);
        boolean packable = m.n < (1 << 25);
        for (long key : keys) if (key < 0 || key >= (1L << 38)) { packable = false; break; }
        if (packable) {
            long[] packed = new long[cnt];
            for (int i = 0; i < cnt; i++) packed[i] = (keys[i] << 25) | ids[i];
            Arrays.sort(packed);
            int[] out = new int[cnt];
            for (int i = 0; i < cnt; i++) out[i] = (int) (packed[i] & ((1 << 25) - 1));
            return out;
        }
        Integer[] idx = new Integer[cnt];
        for (int i = 0; i < cnt; i++) idx[i] = i;
        Arrays.sort(idx, (a, b) -> Long.compare(keys[a], keys[b]));
        int[] out = new int[cnt];
        for (int i = 0; i < cnt; i++) out[i] = ids[idx[i]];
        return out;
    }

    /** The largest i with the completion index of {@code order[i]} below x, or -1. */
    private static int lastBefore(History h, int[] order, long x) {
        int lo = 0, hi = order.length - 1, ans = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (h.completeIndex(order[mid]) < x) {
                ans = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return ans;
    }
}
