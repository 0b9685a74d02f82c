package isostress.checker.graph;

import java.util.Arrays;

/**
 * Finds short cycles inside a strongly connected component by breadth-first search, as Elle does for each SCC
 * (Kingsbury &amp; Alvaro, VLDB 2020, §4.2).
 *
 * <p>A BFS from node s that returns to s gives the shortest cycle through s. The shortest cycle of the whole
 * component needs a BFS from every node (O(V·E)), so the search starts from a bounded number of nodes and spends at
 * most {@code budget} edge visits per component: small components get their exact shortest cycle, huge ones a short
 * one found quickly. Work arrays are reused across searches and stamped, so many small components cost O(their
 * size), not O(graph).
 */
public final class CycleSearch {
    private final Csr g;
    private final int[] comp;
    private final int[] stamp;
    private final int[] parentPos;
    private final int[] parentNode;
    private final int[] queue;
    private int epoch;

    /**
     * @param g    the graph
     * @param comp component id per node; a search stays within one component
     */
    public CycleSearch(Csr g, int[] comp) {
        this.g = g;
        this.comp = comp;
        this.stamp = new int[g.n];
        this.parentPos = new int[g.n];
        this.parentNode = new int[g.n];
        this.queue = new int[g.n];
    }

    /**
     * The shortest cycle found through any of {@code starts} (nodes of one component), as edge positions in cycle
     * order: the cycle visits {@code starts[i]}, then {@code g.tgt[pos[0]]}, ... Returns null if none was found
     * within the budget (cannot happen when the first start lies on a cycle and the budget covers one BFS).
     *
     * @param budget edge visits allowed over all the BFS runs; the first run always completes
     */
    public int[] shortest(int[] starts, long budget) {
        int[] best = null;
        long spent = 0;
        for (int s : starts) {
            if (best != null && (spent >= budget || best.length <= 2)) break;
            int limit = best == null ? Integer.MAX_VALUE : best.length - 1;
            long[] work = new long[1];
            int[] c = bfs(s, limit, work);
            spent += work[0];
            if (c != null && (best == null || c.length < best.length)) best = c;
        }
        return best;
    }

    /** BFS from s for a path back to s of at most {@code maxLen} edges. */
    private int[] bfs(int s, int maxLen, long[] work) {
        int e = ++epoch;
        if (e == Integer.MAX_VALUE) {
            Arrays.fill(stamp, 0);
            epoch = e = 1;
        }
        int c = comp[s];
        int head = 0, tail = 0;
        queue[tail++] = s;
        stamp[s] = e;
        parentPos[s] = -1;
        int levelEnd = tail, level = 0;
        while (head < tail) {
            if (head == levelEnd) {
                level++;
                levelEnd = tail;
                if (level >= maxLen) return null;
            }
            int u = queue[head++];
            for (int p = g.off[u]; p < g.off[u + 1]; p++) {
                work[0]++;
                int v = g.tgt[p];
                if (comp[v] != c) continue;
                if (v == s) return path(s, u, p);
                if (stamp[v] == e) continue;
                stamp[v] = e;
                parentPos[v] = p;
                parentNode[v] = u;
                queue[tail++] = v;
            }
        }
        return null;
    }

    private int[] path(int s, int last, int closing) {
        int len = 1;
        for (int v = last; v != s; v = parentNode[v]) len++;
        int[] out = new int[len];
        out[len - 1] = closing;
        int i = len - 2;
        for (int v = last; v != s; ) {
            out[i--] = parentPos[v];
            v = parentNode[v];
        }
        return out;
    }
}
