package isostress.checker.graph;

import java.util.Arrays;
import java.util.Objects;

/**
 * The test behind parallel snapshot isolation with a known version order (Cerone &amp; Gotsman, "Analysing Snapshot
 * Isolation", PODC 2016 / J.ACM 2018, §4): a history is PSI iff ((SO ∪ WR ∪ WW)+ ; RW?) is irreflexive, i.e. the
 * dependency graph D = SO ∪ WR ∪ WW is acyclic and no anti-dependency a -rw-> b has b D* a (no cycle with at most
 * one rw edge).
 *
 * <p>Reachability in the DAG D is kept as one vector per node: for each session, the earliest position of that
 * session the node reaches. Consecutive members of a session are joined by SO edges of D, so what a node reaches
 * within a session is a suffix and "b reaches a" is {@code vec(b)[session(a)] <= pos(a)} (the compression of
 * general.Reachability and PolySI's implementation). Vectors are filled in reverse topological order, O(edges x
 * sessions) time in all. The sessions are taken in blocks of at most {@value #BLOCK} (fewer when nodes x block would
 * pass {@link #MAX_CELLS} cells), so memory stays O(nodes x block) however many sessions a history has (a session
 * that ends in an unknown outcome gets a new process id). A counterexample's path is a breadth-first search from b
 * that enters only nodes whose vector says they reach a, so it never leaves the way.
 */
public final class PsiReachability {
    static final int BLOCK = 64;
    /**
     * Vector cells allocated at once: a twelfth of the heap, at least 64 MiB; fewer sessions per block for huge
     * histories. Each block is one pass over every edge, and a pass of one session reads one int per edge at random:
     * ten million transactions of 20 sessions took 20 such passes under a fixed 64 MiB, against one in 800 MB.
     */
    static final long MAX_CELLS = Math.min(Integer.MAX_VALUE - 16,
            Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 48));
    private static final int INF = Integer.MAX_VALUE;

    /** Receives the violations found, in the order of the rw edges. */
    public interface Sink {
        /**
         * Anti-dependency {@code rw} closes a cycle; {@code path} is the edge positions of D from its target back to
         * its source, or null once {@code witnesses} paths have been given.
         */
        void violation(int rw, int[] path);
    }

    private PsiReachability() {
    }

    /**
     * Counts the anti-dependencies {@code rwFrom[i] -> rwTo[i]} (i &lt; rwCount) whose target reaches their source
     * in {@code dep}.
     *
     * @param dep       D: SO ∪ WR ∪ WW, every node of a session joined to the next by an edge
     * @param sessions  the number of sessions
     * @param session   per node its session, or -1 for nodes outside the history (no edges)
     * @param pos       per node its position in its session
     * @param witnesses how many violations get a path
     * @return the number of violating rw edges, or -1 when {@code dep} itself has a cycle (then nothing is reported)
     */
    public static int check(Csr dep, int sessions, int[] session, int[] pos, int[] rwFrom, int[] rwTo, int rwCount,
                            int witnesses, Sink sink) {
        return check(dep, null, sessions, session, pos, Objects.requireNonNull(rwFrom), rwTo, rwCount, witnesses, sink);
    }

    /**
     * As above, with D the edges of {@code g} whose position {@code rw} does not mark and the anti-dependencies the
     * marked ones, numbered in position order: the caller's dependency graph serves as both without a copy (issue
     * 15: 100M transactions in 20 GB).
     */
    public static int check(Csr g, boolean[] rw, int sessions, int[] session, int[] pos, int witnesses, Sink sink) {
        return check(g, rw, sessions, session, pos, null, null, 0, witnesses, sink);
    }

    /** D is g without the positions {@code skip} marks (null: none); the rw edges are the arrays or, null, those. */
    private static int check(Csr g, boolean[] skip, int sessions, int[] session, int[] pos, int[] rwFrom, int[] rwTo,
                             int rwCount, int witnesses, Sink sink) {
        Csr dep = g;
        int[] order = Acyclicity.topologicalOrder(dep, skip);
        if (order == null) return -1;
        int n = dep.n;
        int found = 0;
        Bfs bfs = null;
        int block = (int) Math.max(1, Math.min(BLOCK, MAX_CELLS / Math.max(1, n)));
        for (int s0 = 0; s0 < sessions; s0 += block) {
            int width = Math.min(block, sessions - s0);
            int[] vec = new int[n * width];
            Arrays.fill(vec, INF);
            for (int i = n - 1; i >= 0; i--) {
                int v = order[i];
                int base = v * width;
                int s = session[v] - s0;
                if (s >= 0 && s < width) vec[base + s] = pos[v];
                for (int p = dep.off[v]; p < dep.off[v + 1]; p++) {
                    if (skip != null && skip[p]) continue;
                    int w = dep.tgt[p] * width;
                    for (int j = 0; j < width; j++) if (vec[w + j] < vec[base + j]) vec[base + j] = vec[w + j];
                }
            }
            for (int i = 0, u = 0, p = -1; ; i++) {
                int a, b;
                if (rwFrom != null) {
                    if (i >= rwCount) break;
                    a = rwFrom[i];
                    b = rwTo[i];
                } else { // the next masked position
                    do p++; while (p < dep.tgt.length && !skip[p]);
                    if (p == dep.tgt.length) break;
                    while (dep.off[u + 1] <= p) u++;
                    a = u;
                    b = dep.tgt[p];
                }
                int s = session[a] - s0;
                if (s < 0 || s >= width || session[b] < 0 || vec[b * width + s] > pos[a]) continue;
                found++;
                if (found > witnesses) {
                    sink.violation(i, null);
                    continue;
                }
                if (bfs == null) bfs = new Bfs(dep, skip);
                sink.violation(i, bfs.path(b, a, vec, width, s, pos[a]));
            }
        }
        return found;
    }

    /** Shortest path b -> a in D, visiting only nodes that reach a (so it never wanders off). */
    private static final class Bfs {
        private final Csr g;
        private final boolean[] skip;
        private final int[] stamp, parent, queue;
        private int epoch;

        Bfs(Csr g, boolean[] skip) {
            this.g = g;
            this.skip = skip;
            stamp = new int[g.n];
            parent = new int[g.n];
            queue = new int[g.n];
        }

        int[] path(int b, int a, int[] vec, int width, int s, int posA) {
            int e = ++epoch;
            int head = 0, tail = 0;
            queue[tail++] = b;
            stamp[b] = e;
            while (head < tail) {
                int v = queue[head++];
                for (int p = g.off[v]; p < g.off[v + 1]; p++) {
                    if (skip != null && skip[p]) continue;
                    int w = g.tgt[p];
                    if (stamp[w] == e || vec[w * width + s] > posA) continue;
                    stamp[w] = e;
                    parent[w] = p;
                    if (w == a) return unwind(b, a);
                    queue[tail++] = w;
                }
            }
            throw new IllegalStateException("T" + b + " reaches T" + a + " by its vector but not by search");
        }

        private int[] unwind(int b, int a) {
            int len = 0;
            for (int v = a; v != b; v = g.source(parent[v])) len++;
            int[] out = new int[len];
            for (int v = a, i = len - 1; v != b; v = g.source(parent[v])) out[i--] = parent[v];
            return out;
        }
    }
}
