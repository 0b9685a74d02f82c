package isostress.checker.graph;

/**
 * A directed graph in compressed sparse row form: the out-edges of node u are positions
 * {@code off[u] .. off[u+1]-1}, each with a target {@code tgt[p]} and the id {@code eid[p]} of the edge it came
 * from in the caller's edge list (so edge payloads stay in the caller's arrays); {@code eid} is null in a graph whose
 * edge ids are their positions ({@link #id}).
 *
 * <p>Primitive arrays and CSR adjacency, not boxed nodes or lists of edge objects, because the checkers build graphs
 * of millions of edges.
 */
public final class Csr {
    public final int n;
    public final int[] off;
    public final int[] tgt;
    public final int[] eid;

    private Csr(int n, int[] off, int[] tgt, int[] eid) {
        this.n = n;
        this.off = off;
        this.tgt = tgt;
        this.eid = eid;
    }

    /**
     * Builds the graph of {@code m} edges {@code from[i] -> to[i]} with ids {@code ids[i]} (null: ids are i).
     * Edges keep their relative order within a node. O(n + m).
     */
    public static Csr build(int n, int[] from, int[] to, int[] ids, int m) {
        return build(n, sink -> {
            for (int i = 0; i < m; i++) sink.edge(from[i], to[i], ids == null ? i : ids[i]);
        });
    }

    /** Edges handed over twice, once to count each node's out-degree and once to place them. */
    public interface EdgeSource {
        void edges(EdgeSink sink);
    }

    /** Receives an edge {@code from -> to} with its id. */
    public interface EdgeSink {
        void edge(int from, int to, int id);
    }

    /**
     * Builds the graph of the edges {@code source} produces (the same ones, in the same order, both times), keeping
     * their relative order within a node. O(n + m) time like {@link #build(int, int[], int[], int[], int)}, but with
     * no from/to/id arrays beside the graph: at a hundred million transactions those are gigabytes.
     */
    public static Csr build(int n, EdgeSource source) {
        return build(n, source, true);
    }

    /** As {@link #build(int, EdgeSource)}; without {@code ids} the graph has no {@link #eid} (null). */
    public static Csr build(int n, EdgeSource source, boolean ids) {
        int[] off = new int[n + 1];
        source.edges((f, t, id) -> off[f + 1]++);
        for (int u = 0; u < n; u++) off[u + 1] += off[u];
        int[] tgt = new int[off[n]];
        int[] eid = ids ? new int[off[n]] : null;
        // off[u] is u's next free position while placing; afterwards it is u's end, i.e. u+1's start.
        source.edges((f, t, id) -> {
            int p = off[f]++;
            tgt[p] = t;
            if (eid != null) eid[p] = id;
        });
        System.arraycopy(off, 0, off, 1, n);
        off[0] = 0;
        return new Csr(n, off, tgt, eid);
    }

    /** The id of the edge at position {@code p}: {@code eid[p]}, or {@code p} itself in a graph built without ids. */
    public int id(int p) {
        return eid == null ? p : eid[p];
    }

    /** The graph of {@code off}/{@code tgt} whose edge ids are their positions (the caller keeps payloads so). */
    public static Csr positional(int n, int[] off, int[] tgt) {
        return new Csr(n, off, tgt, null);
    }

    /**
     * The graph of the edges {@code i < m} that {@code keep} accepts, {@code from[i] -> to[i]} with id i: no copies of
     * the edge list for a subgraph (the PSI check's dependency graph is most of its edges, tens of millions).
     */
    public static Csr build(int n, int[] from, int[] to, int m, java.util.function.IntPredicate keep) {
        return build(n, sink -> {
            for (int i = 0; i < m; i++) if (keep.test(i)) sink.edge(from[i], to[i], i);
        });
    }

    public int edgeCount() {
        return tgt.length;
    }

    /** The source node of edge position {@code p} (binary search; for reports, not hot paths). */
    public int source(int p) {
        int lo = 0, hi = n - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (off[mid] <= p) lo = mid; else hi = mid - 1;
        }
        return lo;
    }
}
