package isostress.checker.graph;

/**
 * Whether a graph is acyclic, by Kahn's algorithm (Kahn 1962): repeatedly remove nodes without incoming edges; the
 * graph is acyclic iff all get removed. O(n + m) like Tarjan, but with two int arrays and no stack bookkeeping it
 * runs about twice as fast, and valid histories (the common case) need nothing more. Tarjan runs only when this
 * says there is a cycle.
 */
public final class Acyclicity {
    private Acyclicity() {
    }

    public static boolean isAcyclic(Csr g) {
        return isAcyclic(g, null);
    }

    /**
     * Whether the union of {@code a} and {@code b} (null: none; on nodes 0 .. the larger size) is acyclic, without
     * building it: the strict serializability check joins the dependency graph to a chain of time points this way.
     * The nodes whose in-degree fell to zero wait on a stack linked through the in-degree array itself ({@code -2 -
     * next}), so the check needs one int per node (100M transactions must fit in 20 GB).
     */
    public static boolean isAcyclic(Csr a, Csr b) {
        int n = b == null ? a.n : Math.max(a.n, b.n);
        int[] indeg = new int[n];
        for (int t : a.tgt) indeg[t]++;
        if (b != null) for (int t : b.tgt) indeg[t]++;
        int top = -1;
        for (int u = 0; u < n; u++) {
            if (indeg[u] == 0) {
                indeg[u] = -2 - top;
                top = u;
            }
        }
        int removed = 0;
        while (top >= 0) {
            int u = top;
            top = -2 - indeg[u];
            removed++;
            for (int k = 0; k < 2; k++) {
                Csr g = k == 0 ? a : b;
                if (g == null || u >= g.n) continue;
                for (int p = g.off[u], e = g.off[u + 1]; p < e; p++) {
                    int v = g.tgt[p];
                    if (--indeg[v] == 0) {
                        indeg[v] = -2 - top;
                        top = v;
                    }
                }
            }
        }
        return removed == n;
    }

    /** The nodes in a topological order (Kahn's removal order), or null when the graph has a cycle. */
    public static int[] topologicalOrder(Csr g) {
        return topologicalOrder(g, null);
    }

    /** As {@link #topologicalOrder(Csr)} for the edges whose position {@code skip} does not mark (null: all). */
    public static int[] topologicalOrder(Csr g, boolean[] skip) {
        int n = g.n;
        int[] indeg = new int[n];
        int[] tgt = g.tgt;
        for (int p = 0; p < tgt.length; p++) if (skip == null || !skip[p]) indeg[tgt[p]]++;
        int[] queue = new int[n];
        int head = 0, tail = 0;
        for (int u = 0; u < n; u++) if (indeg[u] == 0) queue[tail++] = u;
        int[] off = g.off;
        while (head < tail) {
            int u = queue[head++];
            for (int p = off[u], e = off[u + 1]; p < e; p++) {
                if (skip != null && skip[p]) continue;
                if (--indeg[tgt[p]] == 0) queue[tail++] = tgt[p];
            }
        }
        return tail == n ? queue : null;
    }
}
