package isostress.checker.general;

import isostress.checker.history.History;
import isostress.checker.history.Outcome;
import isostress.checker.model.EdgeKind;

import java.util.Arrays;

/**
 * Builds the {@link Polygraph} of a history for one level.
 *
 * <ul>
 *   <li>{@link Variant#PLAIN}, for SER and SI: a node per transaction. Known edges: session order between
 *       consecutive committed transactions of a process, wr from each version's writer to each transaction whose
 *       first external read of the key returned it.</li>
 *   <li>{@link Variant#SPLIT}, for PC: Biswas &amp; Enea §4.2 (Theorem 4.8), a history is prefix-consistent iff its
 *       split h_{R|W} is serializable: transaction t becomes a read half R_t (node 2t) and a write half W_t (node
 *       2t+1), session order R_t → W_t → R_next, wr from the writer's W half to the reader's R half, and the version
 *       order is over W halves.</li>
 *   <li>{@link Variant#TIMED}, for SSER: PLAIN plus real-time order, without its quadratic number of edges: one
 *       time point per invocation, in invocation order (a session of their own), the point of T's invocation → T,
 *       and T → the first invocation point after T's completion. So T1 reaches T2 through time points iff T1
 *       completed before T2 was invoked. Info transactions never completed: no edge out of them.</li>
 * </ul>
 *
 * Where the data reveals the version order (list-append chains), its ww edges, and rw edges from the readers of
 * each version to the writer of the next, are known edges; the appends no read observed follow the last observed
 * one (ww) in an order left open. A commit log's order ({@link LogOrder}) is a chain holding every committed version
 * of its key, for registers too: the key is then ordered, and the solver has nothing to choose for it. A register
 * key the log does not order has an empty chain: its writers are all unplaced, after the initial version only.
 */
final class PolygraphBuilder {
    /** The graph's shape. */
    enum Variant { PLAIN, SPLIT, TIMED }

    /** The built polygraph, with the writer node of each version. */
    record Built(Polygraph g, int[] nodeOfVersion) {
    }

    private PolygraphBuilder() {
    }

    static Built build(Observations o, Variant variant) {
        Sessions ss = Sessions.of(o);
        int n = o.n;
        boolean split = variant == Variant.SPLIT;
        int[] timeOrder = variant == Variant.TIMED ? invocationOrder(o) : new int[0];
        int nodes = (split ? 2 * n : n) + timeOrder.length;
        int sessions = ss.count + (timeOrder.length > 0 ? 1 : 0);
        int[] session = new int[nodes], pos = new int[nodes], txnOf = new int[nodes];
        for (int t = 0; t < n; t++) {
            if (split) {
                session[2 * t] = session[2 * t + 1] = ss.session[t];
                pos[2 * t] = 2 * ss.pos[t];
                pos[2 * t + 1] = 2 * ss.pos[t] + 1;
                txnOf[2 * t] = txnOf[2 * t + 1] = t;
            } else {
                session[t] = ss.session[t];
                pos[t] = ss.pos[t];
                txnOf[t] = t;
            }
        }
        int base = split ? 2 * n : n;
        for (int i = 0; i < timeOrder.length; i++) {
            session[base + i] = ss.count;
            pos[base + i] = i;
            txnOf[base + i] = -1;
        }
        // The readers of each version (first read of each key by each transaction), as nodes: flat, by version.
        int[] readerStart = new int[o.versions + 1];
        for (int a = 0; a < o.accRead.length; a++) if (o.accRead[a] >= 0) readerStart[o.accRead[a] + 1]++;
        for (int v = 0; v < o.versions; v++) readerStart[v + 1] += readerStart[v];
        int[] readerNode = new int[readerStart[o.versions]];
        int[] fill = Arrays.copyOf(readerStart, o.versions);
        for (int t = 0; t < n; t++) {
            if (!o.included[t]) continue;
            for (int a = o.accStart[t]; a < o.accStart[t + 1]; a++) {
                int v = o.accRead[a];
                if (v >= 0) readerNode[fill[v]++] = split ? 2 * t : t;
            }
        }
        int[] nodeOfVersion = new int[o.versions];
        Arrays.fill(nodeOfVersion, -1);
        for (int t = 0; t < n; t++) {
            if (!o.included[t]) continue;
            for (int a = o.accStart[t]; a < o.accStart[t + 1]; a++) {
                if (o.accWrite[a] >= 0) nodeOfVersion[o.accWrite[a]] = split ? 2 * t + 1 : t;
            }
        }
        boolean[] inChain = new boolean[o.chainStart == null ? 0 : o.versions];
        if (o.chainStart != null) for (int i = 0; i < o.chainStart[o.keys]; i++) inChain[o.chain[i]] = true;
        // The edge arrays are allocated once, for at most the known edges and a sixteenth more for the solver's:
        // grown by doubling they would hold up to twice what they need, and copying them costs both at once (ten
        // million transactions: a gigabyte or more).
        long known = (split ? 2L : 1L) * n + readerStart[o.versions] + (timeOrder.length > 0 ? 2L * timeOrder.length
                + n : 0) + (o.chainStart == null ? 0 : knownOrder(o, null, readerStart, readerNode, nodeOfVersion,
                inChain));
        long capacity = known + known / 16;
        Polygraph.Builder b = new Polygraph.Builder(nodes, Math.max(1, sessions), session, pos, txnOf, o.keys,
                readerStart, readerNode, capacity);
        // Session order.
        for (int t = 0; t < n; t++) {
            if (!o.included[t]) continue;
            if (split) b.edge(2 * t, 2 * t + 1, EdgeKind.SO, -1, -1);
            int prev = ss.previous(t);
            if (prev >= 0) b.edge(split ? 2 * prev + 1 : prev, split ? 2 * t : t, EdgeKind.SO, -1, -1);
        }
        // wr.
        for (int t = 0; t < n; t++) {
            if (!o.included[t]) continue;
            for (int a = o.accStart[t]; a < o.accStart[t + 1]; a++) {
                int v = o.accRead[a];
                if (v < 0) continue;
                int w = o.verTxn[v];
                if (w >= 0 && w != t) b.edge(split ? 2 * w + 1 : w, split ? 2 * t : t, EdgeKind.WR, v, -1);
            }
        }
        for (int t = 0; t < n; t++) {
            if (!o.included[t]) continue;
            for (int a = o.accStart[t]; a < o.accStart[t + 1]; a++) {
                int v = o.accWrite[a];
                if (v >= 0) b.writer(o.accKey[a], nodeOfVersion[v], v, o.chainStart != null && inChain[v]);
            }
        }
        for (int k = 0; k < o.keys; k++) b.initialVersion(k, o.initialVersion(k));
        if (o.chainStart != null) knownOrder(o, b, readerStart, readerNode, nodeOfVersion, inChain);
        if (timeOrder.length > 0) realTime(o, b, timeOrder, base);
        Polygraph g = b.build();
        // Completion order guides the SAT search (histories without real time keep their file order, which
        // usually is an execution order too).
        long[] hint = new long[nodes];
        for (int v = 0; v < nodes; v++) {
            int t = txnOf[v];
            if (t < 0) continue;
            long c = o.h.completeIndex(t) >= 0 ? o.h.completeIndex(t) : Math.max(0, o.h.invokeIndex(t));
            hint[v] = split ? 2 * c + (v & 1) : c;
        }
        g.hint = hint;
        return new Built(g, nodeOfVersion);
    }

    /**
     * ww along each key's known chain, rw from each version's readers to the next writer, ww and rw to the appends
     * no read observed; a key is ordered when at most one committed append is unobserved. With {@code b} null,
     * only counts the edges (at least as many as it adds).
     */
    private static long knownOrder(Observations o, Polygraph.Builder b, int[] readerStart, int[] readerNode,
                                   int[] nodeOfVersion, boolean[] inChain) {
        long count = 0;
        int[] lastOfChain = new int[o.keys];
        int[] unobserved = new int[o.keys];
        for (int k = 0; k < o.keys; k++) {
            int prev = o.initialVersion(k);
            for (int i = o.chainStart[k]; i < o.chainStart[k + 1]; i++) {
                int v = o.chain[i];
                int node = nodeOfVersion[v];
                if (node < 0) continue; // not committed: its append is reported elsewhere (G1a / dirty update)
                count += 1 + readerStart[prev + 1] - readerStart[prev];
                if (b != null) {
                    if (nodeOfVersion[prev] >= 0) b.edge(nodeOfVersion[prev], node, EdgeKind.WW, prev, v);
                    for (int j = readerStart[prev]; j < readerStart[prev + 1]; j++) {
                        b.edge(readerNode[j], node, EdgeKind.RW, prev, v);
                    }
                }
                prev = v;
            }
            lastOfChain[k] = prev;
        }
        // Committed appends no read observed come after the chain.
        for (int v = 0; v < o.versions - o.keys; v++) {
            if (inChain[v] || nodeOfVersion[v] < 0) continue;
            int last = lastOfChain[o.verKey[v]];
            unobserved[o.verKey[v]]++;
            count += 1 + readerStart[last + 1] - readerStart[last];
            if (b == null) continue;
            if (nodeOfVersion[last] >= 0) b.edge(nodeOfVersion[last], nodeOfVersion[v], EdgeKind.WW, last, v);
            for (int j = readerStart[last]; j < readerStart[last + 1]; j++) {
                b.edge(readerNode[j], nodeOfVersion[v], EdgeKind.RW, last, v);
            }
        }
        if (b != null) for (int k = 0; k < o.keys; k++) if (unobserved[k] <= 1) b.ordered(k);
        return count;
    }

    /** Included transactions in invocation order (usually their id order already). */
    private static int[] invocationOrder(Observations o) {
        History h = o.h;
        int count = 0;
        for (int t = 0; t < o.n; t++) if (o.included[t]) count++;
        int[] out = new int[count];
        int i = 0;
        boolean sorted = true;
        for (int t = 0; t < o.n; t++) {
            if (!o.included[t]) continue;
            if (i > 0 && h.invokeIndex(out[i - 1]) > h.invokeIndex(t)) sorted = false;
            out[i++] = t;
        }
        if (sorted) return out;
        Integer[] ids = new Integer[count];
        for (int j = 0; j < count; j++) ids[j] = out[j];
        Arrays.sort(ids, (x, y) -> Long.compare(h.invokeIndex(x), h.invokeIndex(y)));
        for (int j = 0; j < count; j++) out[j] = ids[j];
        return out;
    }

    private static void realTime(Observations o, Polygraph.Builder b, int[] order, int base) {
        History h = o.h;
        int m = order.length;
        long[] inv = new long[m];
        for (int i = 0; i < m; i++) inv[i] = h.invokeIndex(order[i]);
        for (int i = 0; i < m; i++) {
            if (i + 1 < m) b.edge(base + i, base + i + 1, EdgeKind.RT, -1, -1);
            b.edge(base + i, order[i], EdgeKind.RT, -1, -1);
        }
        for (int t = 0; t < o.n; t++) {
            if (!o.included[t] || h.outcome(t) != Outcome.OK) continue;
            long done = h.completeIndex(t);
            int lo = 0, hi = m;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (inv[mid] <= done) lo = mid + 1; else hi = mid;
            }
            if (lo < m) b.edge(t, base + lo, EdgeKind.RT, -1, -1);
        }
    }
}
