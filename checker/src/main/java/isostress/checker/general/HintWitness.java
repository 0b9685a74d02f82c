package isostress.checker.general;

import isostress.checker.graph.Csr;
import isostress.checker.model.EdgeKind;

import java.util.Arrays;

/**
 * One version order tried before pruning, because valid histories are the common case and their version order
 * mostly follows commit order: each key's writes whose place the data leaves open, in a topological order of the
 * known dependencies that takes, among the nodes ready, the one with the smallest hint (completion order; PolySI's
 * implementation seeds its search the same way). With that order chosen the polygraph is an ordinary dependency
 * graph: if it is acyclic (SER), or its induced SI graph is (SI: PolySI Thm. 8, after Cerone &amp; Gotsman), the
 * level holds, since a version order exists (Adya; PolySI Def. 3.1). A cycle proves nothing by itself: the solver
 * keeps the part of the order that reachability forces ({@link #keepForced}), which refutes most violated histories at
 * once, and prunes otherwise.
 *
 * <p>Why: pruning needs reachability vectors of nodes x sessions ints (four of them per node under SI), recomputed
 * each round; for ten million list-append transactions that is gigabytes and most of the time, while the witness is
 * one topological sort and one acyclicity check, linear in the edges.
 */
final class HintWitness {
    private HintWitness() {
    }

    /**
     * What the witness found: the hinted version order has no cycle ({@code acyclic}), or it has one. When it has, and
     * the known dependencies have none, the order's edges stay in the graph after the first {@code known} edges (its
     * ww and rw edges, each ww edge followed by the rw edges of the same pair), for {@link #keepForced}; otherwise
     * {@code known} is -1 and the graph is as it was. Under SER a failed witness also hands over the graph of the
     * known edges and a topological order of it ({@code knownGraph}, {@code order}; null otherwise), which are what
     * the reachability the solver computes next is made of.
     */
    record Tried(boolean acyclic, int known, Csr knownGraph, int[] order) {
    }

    /**
     * A topological order of the known graph (SI: its dependency edges): rank per node, the nodes in order, and the
     * graph ({@code known}; null when the order needed none, see {@link #inHintOrder}).
     */
    private record Ranked(int[] rank, int[] order, Csr known) {
        /** Whether the rank is the node number ({@link #inHintOrder}, the only order computed without a graph). */
        boolean identity() {
            return known == null;
        }
    }

    /** Tries the hinted version order: acyclic (SI: its induced SI graph) or not. */
    static Tried attempt(Polygraph g, boolean si) {
        if (g.hint == null) return new Tried(false, -1, null, null);
        Ranked ranked = rank(g, si);
        if (ranked == null) return new Tried(false, -1, null, null); // the known dependencies have a cycle: pruning reports it
        int[] rank = ranked.rank();
        int base = g.edges.size;
        boolean acyclic = false;
        try {
            choose(g, rank);
            // When every edge (SER: every chosen one, the rest are in the rank already) goes forward in the rank, it
            // is a topological order of the whole graph, and so of the layered SI graph, which maps onto it: acyclic
            // without building another graph. Under SI the rank is also tried as an order of the induced SI graph
            // itself ({@link #forwardInduced}), again without building a graph.
            boolean identity = ranked.identity();
            acyclic = forward(g, si ? 0 : base, rank, identity) || si && forwardInduced(g, rank, identity)
                    || Reachability.topological(Paths.graph(g, si, g.edges.size)) != null;
            if (acyclic) return new Tried(true, -1, null, null);
            if (si) return new Tried(false, base, null, null);
            Csr known = ranked.known() != null ? ranked.known()
                    : Csr.build(g.n, g.edges.from, g.edges.to, null, base);
            return new Tried(false, base, known, ranked.order());
        } finally {
            if (acyclic) g.truncate(base);
        }
    }

    /**
     * After a failed witness, keeps of its order (the edges after the first {@code known}) only what is not a guess:
     * where the earlier of two writers next to each other in it reaches the later in the known graph ({@code reach},
     * over the first {@code known} edges), the other order would close a cycle, so every version order has the
     * earlier first, with its ww edge and the rw edges from the readers of its version (PolySI Alg. 2's pruning
     * rule, applied to the pairs the witness chose). Those edges become known ({@link Polygraph#FRONTIER}), but for
     * those reachability implies already; the others are dropped. Write skews are cycles of two such rw edges, so
     * the graph kept usually holds the cycle that refutes the level: one acyclicity test finds it, and no open pair
     * need be listed.
     */
    static void keepForced(Polygraph g, int known, Reachability reach, boolean si) {
        int[] from = g.edges.from, to = g.edges.to, va = g.edges.a, vb = g.edges.b;
        byte[] kind = g.edges.kind, tag = g.edges.tag;
        byte ww = EdgeKind.WW.code();
        int kept = known, end = g.edges.size;
        int writer = -1; // the earlier writer of the pair whose edges are being read, or -1 when its order is a guess
        for (int e = known; e < end; e++) {
            int f = from[e], t = to[e];
            boolean keep;
            if (kind[e] == ww) {
                writer = reach.reaches(f, t) ? f : -1;
                keep = writer >= 0 && si && !reach.depImplied(f, t); // SER: reachability implies the ww edge
            } else {
                keep = writer >= 0 && !reach.rwImplied(f, t);
            }
            if (!keep) continue;
            from[kept] = f;
            to[kept] = t;
            kind[kept] = kind[e];
            va[kept] = va[e];
            vb[kept] = vb[e];
            tag[kept++] = Polygraph.FRONTIER;
        }
        g.truncate(kept);
    }

    /**
     * True when every edge from {@code from} on goes from a lower rank to a higher one ({@code identity}: the rank is
     * the node number, compared with no lookup).
     */
    private static boolean forward(Polygraph g, int from, int[] rank, boolean identity) {
        int[] f = g.edges.from, t = g.edges.to;
        for (int e = from; e < g.edges.size; e++) {
            if (identity ? f[e] >= t[e] : rank[f[e]] >= rank[t[e]]) return false;
        }
        return true;
    }

    /**
     * SI: true when {@code rank} is a topological order of the induced SI graph KI = Dep ∪ (Dep ; RW) (PolySI Def.
     * 3.3, Thm. 8), checked in passes over the edges and no graph built: every Dep edge goes forward in the rank,
     * and for every rw edge r→y that goes backward, each Dep predecessor p of r (the KI edge p→y) ranks below y,
     * that is the highest ranked Dep predecessor of r does (an rw edge going forward needs nothing: r's Dep
     * predecessors rank below r). Then KI is acyclic: a cycle of the layered graph ({@link Reachability}) has no two
     * rw edges in a row, so it splits into Dep edges and Dep;RW pairs, each of which climbs in the rank. In an SI
     * execution the commit order is such an order (p commits before r starts, y after it, or r would have read
     * y's write), and the rank follows completion, so on SI histories this mostly settles the witness where the
     * layered graph and its topological sort (2n states) would cost more than the rest of the witness. False says
     * only that the rank is not such an order; the caller then sorts the layered graph. With {@code identity}
     * the rank is the node number, and the edges are read in order with no lookup.
     */
    private static boolean forwardInduced(Polygraph g, int[] rank, boolean identity) {
        int m = g.edges.size;
        int[] from = g.edges.from, to = g.edges.to;
        byte[] kind = g.edges.kind;
        byte rw = EdgeKind.RW.code();
        int[] topPred = new int[g.n];
        Arrays.fill(topPred, -1);
        int[] backward = new int[64];
        int nb = 0;
        // One pass over the edges (the witness's graph has millions, and this method runs once per check, mostly
        // before the JIT has compiled it): the highest Dep predecessor of each node, and the rw edges going back.
        for (int e = 0; e < m; e++) {
            int f = from[e], t = to[e];
            int rf = identity ? f : rank[f], rt = identity ? t : rank[t];
            if (kind[e] != rw) {
                if (rf >= rt) return false;
                if (rf > topPred[t]) topPred[t] = rf;
            } else if (rt < rf) {
                if (nb == backward.length) backward = Arrays.copyOf(backward, 2 * nb);
                backward[nb++] = e;
            }
        }
        for (int i = 0; i < nb; i++) {
            int e = backward[i];
            if (topPred[from[e]] >= (identity ? to[e] : rank[to[e]])) return false;
        }
        return true;
    }

    /**
     * Orders each open key's unplaced writers by rank: ww from each to the next, and rw from the readers of each
     * to the next (edges to later writers follow through the ww chain), each pair's ww edge first. Placed writers already have their edges,
     * and unplaced ones come after them (list-append: the last read element's writer and readers have edges to
     * each); readers of the initial version have rw edges to every writer.
     */
    private static void choose(Polygraph g, int[] rank) {
        long[] keyed = new long[16];
        for (int k = 0; k < g.keys; k++) {
            if (g.ordered[k]) continue;
            int len = 0;
            for (int x = g.wStart[k]; x < g.wStart[k + 1]; x++) {
                if (g.wPlaced[x]) continue;
                if (len == keyed.length) keyed = Arrays.copyOf(keyed, 2 * len);
                keyed[len++] = ((long) rank[g.wNode[x]] << 32) | x;
            }
            Arrays.sort(keyed, 0, len);
            for (int i = 1; i < len; i++) {
                int a = (int) keyed[i - 1], b = (int) keyed[i];
                int bn = g.wNode[b];
                g.addEdge(g.wNode[a], bn, EdgeKind.WW, g.wVer[a], g.wVer[b], Polygraph.CHOSEN);
                for (int q = g.rStart[a]; q < g.rStart[a + 1]; q++) {
                    int r = g.rNode[q];
                    if (r != bn) g.addEdge(r, bn, EdgeKind.RW, g.wVer[a], g.wVer[b], Polygraph.CHOSEN);
                }
            }
        }
    }

    /**
     * Each node's place in a topological order of the known edges (SI: the dependency edges only, as rw edges may
     * form cycles an SI history allows), smallest hint first among the ready nodes (Kahn's algorithm with a heap);
     * null when they have a cycle. Ranks fit an int and leave the sign bit clear for {@link #choose}'s keys.
     */
    private static Ranked rank(Polygraph g, boolean si) {
        int n = g.n;
        Ranked inHintOrder = inHintOrder(g, si);
        if (inHintOrder != null) return inHintOrder;
        Csr known = Csr.build(n, sink -> {
            for (int e = 0; e < g.edges.size; e++) if (!si || g.dep(e)) sink.edge(g.edges.from[e], g.edges.to[e], e);
        }, false);
        int[] off = known.off, tgt = known.tgt, indeg = new int[n];
        for (int t : tgt) indeg[t]++;
        Heap ready = new Heap(g.hint);
        for (int v = 0; v < n; v++) if (indeg[v] == 0) ready.push(v);
        int[] rank = new int[n], order = new int[n];
        int next = 0;
        while (ready.size > 0) {
            int v = ready.pop();
            rank[v] = next;
            order[next++] = v;
            for (int p = off[v]; p < off[v + 1]; p++) if (--indeg[tgt[p]] == 0) ready.push(tgt[p]);
        }
        return next == n ? new Ranked(rank, order, known) : null;
    }

    /**
     * The rank {@link #rank} would compute, without a graph, when the nodes are numbered in hint order (hints never
     * decrease with the node number) and every known edge (SI: Dep edge) goes from a lower number to a higher: each
     * node is then the smallest (hint, node) of those left and all its predecessors come before it, so Kahn's
     * algorithm takes the nodes in number order, and rank is the identity. Histories whose file order is an
     * execution order are usually so, and the graph and the heap then cost more than the rest of the witness. Null
     * otherwise ({@code known} is null: a caller needing the graph builds it).
     */
    private static Ranked inHintOrder(Polygraph g, boolean si) {
        int n = g.n;
        long[] hint = g.hint;
        for (int v = 1; v < n; v++) if (hint[v] < hint[v - 1]) return null;
        int[] from = g.edges.from, to = g.edges.to;
        for (int e = 0; e < g.edges.size; e++) {
            if (from[e] >= to[e] && (!si || g.dep(e))) return null;
        }
        int[] rank = new int[n];
        for (int v = 0; v < n; v++) rank[v] = v;
        return new Ranked(rank, rank.clone(), null);
    }

    /** A binary min-heap of nodes by (hint, node). */
    private static final class Heap {
        private final long[] hint;
        private long[] keys = new long[64];
        private int[] nodes = new int[64];
        int size;

        Heap(long[] hint) {
            this.hint = hint;
        }

        void push(int v) {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, 2 * size);
                nodes = Arrays.copyOf(nodes, 2 * size);
            }
            long k = hint[v];
            int i = size++;
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (!less(k, v, keys[parent], nodes[parent])) break;
                keys[i] = keys[parent];
                nodes[i] = nodes[parent];
                i = parent;
            }
            keys[i] = k;
            nodes[i] = v;
        }

        int pop() {
            int top = nodes[0];
            long k = keys[--size];
            int v = nodes[size];
            int i = 0;
            while (true) {
                int c = 2 * i + 1;
                if (c >= size) break;
                if (c + 1 < size && less(keys[c + 1], nodes[c + 1], keys[c], nodes[c])) c++;
                if (!less(keys[c], nodes[c], k, v)) break;
                keys[i] = keys[c];
                nodes[i] = nodes[c];
                i = c;
            }
            keys[i] = k;
            nodes[i] = v;
            return top;
        }

        private static boolean less(long k1, int v1, long k2, int v2) {
            return k1 < k2 || (k1 == k2 && v1 < v2);
        }
    }
}
