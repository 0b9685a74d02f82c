package isostress.checker.stream;

import java.util.Arrays;

/**
 * A graph that only grows, kept in a topological order as edges arrive, so that the edge closing the first cycle is
 * refused the moment it comes: Pearce &amp; Kelly's dynamic topological sort ("A dynamic topological sort algorithm
 * for directed acyclic graphs", ACM JEA 11, 2006, §2). An edge that agrees with the order costs O(1); one that does
 * not reorders only the nodes between its ends (the "affected region"), which for a history's dependency graph,
 * whose edges mostly point from older to newer transactions, stays small.
 *
 * <p>Laid out for the cost of adding an edge, which is what the streaming check of list-append does several times
 * per transaction: in a profile of a million-transaction replay, adding edges to per-node {@code int[]} adjacency
 * arrays (each node's order, lengths and two arrays in six places) took 15% of the checking thread, a cache miss per
 * field of an old node. Here a node's order and the heads of its two edge lists sit side by side in one {@code int[]},
 * and edges are appended to a pool in arrival order (the pool's end stays in cache), each linked into its source's
 * outgoing and its target's incoming list; the lists are walked only to reorder. The pool is in chunks, so it grows
 * without copying (no pause) and without the 2^31 limit of one array.
 */
public final class OnlineOrder {
    /** Per node: its position in the order, then the first edge of its outgoing and of its incoming list (-1: none). */
    private static final int ORD = 0, OUT = 1, IN = 2, NODE = 3;
    /** Per edge: source, target, next edge out of the source, next edge into the target. */
    private static final int FROM = 0, TO = 1, NEXT_OUT = 2, NEXT_IN = 3, EDGE = 4;
    private static final int CHUNK_BITS = 16, CHUNK_EDGES = 1 << CHUNK_BITS, CHUNK_MASK = CHUNK_EDGES - 1;

    private int n;
    private int[] nodes = new int[1024 * NODE];
    private int[][] chunks = new int[16][];
    private long edges;
    private int nextOrd;
    /** Search marks: node v was reached by the current search when {@code mark[v] == stamp}. */
    private int[] mark = new int[1024];
    private int stamp;
    private final IntStack stack = new IntStack(), forward = new IntStack(), backward = new IntStack();

    /** A new node, last in the order. */
    public int node() {
        if ((n + 1) * NODE > nodes.length) {
            nodes = Arrays.copyOf(nodes, nodes.length * 2);
            mark = Arrays.copyOf(mark, mark.length * 2);
        }
        int b = n * NODE;
        nodes[b + ORD] = nextOrd++;
        nodes[b + OUT] = -1;
        nodes[b + IN] = -1;
        return n++;
    }

    public int nodes() {
        return n;
    }

    public long edges() {
        return edges;
    }

    /** Adds {@code x -> y}; false (and the edge left out) when it would close a cycle. Self-loops are ignored. */
    public boolean add(int x, int y) {
        if (x == y) return true;
        int ox = nodes[x * NODE + ORD], oy = nodes[y * NODE + ORD];
        if (ox > oy) {
            if (++stamp == 0) { // wrapped: old marks could equal the new stamp
                Arrays.fill(mark, 0);
                stamp = 1;
            }
            if (!forward(y, ox)) return false;
            backward(x, oy);
            reorder();
        }
        push(x, y);
        return true;
    }

    /** Nodes reachable from {@code start} with order at most {@code ub}; false when {@code ub}'s node is among them. */
    private boolean forward(int start, int ub) {
        forward.clear();
        stack.clear();
        stack.push(start);
        mark[start] = stamp;
        while (stack.size > 0) {
            int v = stack.pop();
            forward.push(v);
            for (int e = nodes[v * NODE + OUT]; e >= 0; e = field(e, NEXT_OUT)) {
                int w = field(e, TO), ow = nodes[w * NODE + ORD];
                if (ow == ub) return false; // w is x: the new edge closes a cycle
                if (mark[w] == stamp || ow > ub) continue;
                mark[w] = stamp;
                stack.push(w);
            }
        }
        return true;
    }

    /** Nodes reaching {@code start} with order at least {@code lb}. */
    private void backward(int start, int lb) {
        backward.clear();
        stack.clear();
        stack.push(start);
        mark[start] = stamp;
        while (stack.size > 0) {
            int v = stack.pop();
            backward.push(v);
            for (int e = nodes[v * NODE + IN]; e >= 0; e = field(e, NEXT_IN)) {
                int w = field(e, FROM);
                if (mark[w] == stamp || nodes[w * NODE + ORD] < lb) continue;
                mark[w] = stamp;
                stack.push(w);
            }
        }
    }

    /** Gives the backward set the lowest of both sets' positions, then the forward set, each in its old order. */
    private void reorder() {
        int[] f = sortByOrd(forward), b = sortByOrd(backward);
        int[] slots = new int[f.length + b.length];
        int k = 0;
        for (int v : b) slots[k++] = nodes[v * NODE + ORD];
        for (int v : f) slots[k++] = nodes[v * NODE + ORD];
        Arrays.sort(slots);
        k = 0;
        for (int v : b) nodes[v * NODE + ORD] = slots[k++];
        for (int v : f) nodes[v * NODE + ORD] = slots[k++];
    }

    private int[] sortByOrd(IntStack s) {
        long[] keyed = new long[s.size];
        for (int i = 0; i < s.size; i++) keyed[i] = ((long) nodes[s.a[i] * NODE + ORD] << 32) | s.a[i];
        Arrays.sort(keyed);
        int[] vs = new int[s.size];
        for (int i = 0; i < vs.length; i++) vs[i] = (int) keyed[i];
        return vs;
    }

    private void push(int x, int y) {
        long e = edges;
        if (e > Integer.MAX_VALUE) throw new IllegalStateException("more than 2^31 dependency edges");
        int c = (int) (e >>> CHUNK_BITS);
        if (c == chunks.length) chunks = Arrays.copyOf(chunks, c * 2);
        if (chunks[c] == null) chunks[c] = new int[CHUNK_EDGES * EDGE];
        int[] chunk = chunks[c];
        int at = ((int) e & CHUNK_MASK) * EDGE, bx = x * NODE, by = y * NODE;
        chunk[at + FROM] = x;
        chunk[at + TO] = y;
        chunk[at + NEXT_OUT] = nodes[bx + OUT];
        chunk[at + NEXT_IN] = nodes[by + IN];
        nodes[bx + OUT] = (int) e;
        nodes[by + IN] = (int) e;
        edges++;
    }

    private int field(int e, int f) {
        return chunks[e >>> CHUNK_BITS][(e & CHUNK_MASK) * EDGE + f];
    }

    /** A growable stack of ints, reused by every search (no boxing, no allocation once grown). */
    private static final class IntStack {
        int[] a = new int[16];
        int size;

        void push(int v) {
            if (size == a.length) a = Arrays.copyOf(a, size * 2);
            a[size++] = v;
        }

        int pop() {
            return a[--size];
        }

        void clear() {
            size = 0;
        }
    }
}
