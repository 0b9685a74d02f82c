package isostress.checker.graph;

/**
 * Strongly connected components by Tarjan's algorithm (Tarjan 1972), iterative so that a chain of a million
 * transactions does not overflow the Java stack. O(n + m) time.
 *
 * <p>A graph is acyclic iff every component is trivial: one node without a self-loop.
 */
public final class TarjanScc {
    /** Component id of each node. */
    public final int[] comp;
    /** Number of components. */
    public final int count;
    private final int[] size;
    private final boolean[] selfLoop;

    private TarjanScc(int[] comp, int count, int[] size, boolean[] selfLoop) {
        this.comp = comp;
        this.count = count;
        this.size = size;
        this.selfLoop = selfLoop;
    }

    /** Number of nodes in component {@code c}. */
    public int size(int c) {
        return size[c];
    }

    /** True when component {@code c} contains a cycle. */
    public boolean cyclic(int c) {
        return size[c] > 1 || selfLoop[c];
    }

    /** True when some component contains a cycle. */
    public boolean anyCycle() {
        for (int c = 0; c < count; c++) if (cyclic(c)) return true;
        return false;
    }

    public static TarjanScc of(Csr g) {
        int n = g.n;
        int[] index = new int[n];
        int[] low = new int[n];
        int[] comp = new int[n];
        java.util.Arrays.fill(index, -1);
        int[] stack = new int[n];
        int sp = 0;
        boolean[] onStack = new boolean[n];
        int[] callNode = new int[n];
        int[] callEdge = new int[n];
        int[] size = new int[Math.max(1, n)];
        boolean[] self = new boolean[Math.max(1, n)];
        int next = 0, count = 0;
        for (int root = 0; root < n; root++) {
            if (index[root] >= 0) continue;
            int depth = 0;
            callNode[0] = root;
            callEdge[0] = g.off[root];
            index[root] = low[root] = next++;
            stack[sp++] = root;
            onStack[root] = true;
            while (depth >= 0) {
                int u = callNode[depth];
                int p = callEdge[depth];
                if (p < g.off[u + 1]) {
                    callEdge[depth] = p + 1;
                    int v = g.tgt[p];
                    if (index[v] < 0) {
                        index[v] = low[v] = next++;
                        stack[sp++] = v;
                        onStack[v] = true;
                        depth++;
                        callNode[depth] = v;
                        callEdge[depth] = g.off[v];
                    } else if (onStack[v] && index[v] < low[u]) {
                        low[u] = index[v];
                    }
                } else {
                    if (low[u] == index[u]) {
                        int v;
                        do {
                            v = stack[--sp];
                            onStack[v] = false;
                            comp[v] = count;
                            size[count]++;
                        } while (v != u);
                        count++;
                    }
                    depth--;
                    if (depth >= 0) {
                        int parent = callNode[depth];
                        if (low[u] < low[parent]) low[parent] = low[u];
                    }
                }
            }
        }
        for (int u = 0; u < n; u++) {
            for (int p = g.off[u]; p < g.off[u + 1]; p++) if (g.tgt[p] == u) self[comp[u]] = true;
        }
        return new TarjanScc(comp, count, size, self);
    }
}
