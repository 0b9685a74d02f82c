package isostress.checker.general;

import isostress.checker.graph.Csr;
import isostress.checker.graph.CycleSearch;
import isostress.checker.graph.TarjanScc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cycles and paths in a {@link Polygraph}'s current edges, for counterexamples: over nodes in SER mode, over the
 * layered states of {@link Reachability} in SI mode (so that a path never takes two rw edges in a row). Results are
 * polygraph edge ids in path order. Breadth-first, so paths are shortest.
 */
final class Paths {
    private Paths() {
    }

    static boolean hasTimePoints(Polygraph g) {
        for (int v = g.n - 1; v >= 0; v--) if (g.txnOf[v] < 0) return true;
        return false;
    }

    private static int weight(Polygraph g, int[] edgeIds) {
        int w = 0;
        for (int e : edgeIds) if (g.txnOf[g.edges.to[e]] >= 0) w++;
        return w;
    }

    /**
     * The cycle through s with the fewest edges into transactions (edges into time points are free): 0-1 BFS within
     * s's component. Edge ids in order, or null.
     */
    static int[] cycle01(Polygraph g, Csr csr, int[] comp, int s) {
        int n = csr.n;
        int[] dist = new int[n];
        java.util.Arrays.fill(dist, Integer.MAX_VALUE);
        int[] parentPos = new int[n], parentNode = new int[n];
        int[] deque = new int[2 * n + 2];
        int head = n + 1, tail = n + 1;
        int best = Integer.MAX_VALUE, bestPos = -1, bestFrom = -1;
        dist[s] = 0;
        deque[tail++] = s;
        while (head < tail) {
            int u = deque[head++];
            for (int p = csr.off[u]; p < csr.off[u + 1]; p++) {
                int v = csr.tgt[p];
                if (comp[v] != comp[s]) continue;
                int w = g.txnOf[v] >= 0 ? 1 : 0;
                int d = dist[u] + w;
                if (v == s) {
                    if (d < best) {
                        best = d;
                        bestPos = p;
                        bestFrom = u;
                    }
                    continue;
                }
                if (d >= dist[v]) continue;
                dist[v] = d;
                parentPos[v] = p;
                parentNode[v] = u;
                if (w == 0) deque[--head] = v; else deque[tail++] = v;
            }
        }
        if (bestPos < 0) return null;
        List<Integer> rev = new ArrayList<>();
        rev.add(csr.eid[bestPos]);
        for (int v = bestFrom; v != s; v = parentNode[v]) rev.add(csr.eid[parentPos[v]]);
        int[] out = new int[rev.size()];
        for (int i = 0; i < out.length; i++) out[i] = rev.get(out.length - 1 - i);
        return out;
    }

    /** The graph searched: nodes (SER) or layered states (SI). */
    static Csr graph(Polygraph g, boolean si, int edgeLimit) {
        if (!si) return Csr.build(g.n, g.edges.from, g.edges.to, null, edgeLimit);
        int saved = g.edges.size;
        g.edges.size = edgeLimit;
        try {
            return Reachability.layeredCsr(g);
        } finally {
            g.edges.size = saved;
        }
    }

    /** A shortest cycle through edge e (it must exist), as edge ids starting with e. */
    static int[] cycleThrough(Polygraph g, boolean si, int e) {
        Csr csr = graph(g, si, g.edges.size);
        int x = g.edges.from[e], y = g.edges.to[e];
        int[] starts, targets;
        if (!si) {
            starts = new int[] {y};
            targets = new int[] {x};
        } else if (g.dep(e)) {
            starts = new int[] {2 * y + 1};
            targets = new int[] {2 * x, 2 * x + 1};
        } else {
            starts = new int[] {2 * y};
            targets = new int[] {2 * x + 1};
        }
        int[] path = shortestPath(csr, starts, targets, -1);
        if (path == null) throw new IllegalStateException("no cycle through edge " + e);
        int[] out = new int[path.length + 1];
        out[0] = e;
        System.arraycopy(path, 0, out, 1, path.length);
        return out;
    }

    /**
     * A shortest path from {@code from} to {@code to} using only edges with id below {@code edgeLimit} (SI: from
     * state A(from), to either state of {@code to}), or null.
     */
    static int[] path(Polygraph g, boolean si, int from, int to, int edgeLimit) {
        Csr csr = graph(g, si, edgeLimit);
        int[] starts = si ? new int[] {2 * from + 1} : new int[] {from};
        int[] targets = si ? new int[] {2 * to, 2 * to + 1} : new int[] {to};
        return shortestPath(csr, starts, targets, -1);
    }

    /** Edge ids of a shortest path from any start to any target (both non-empty), or null. */
    static int[] shortestPath(Csr csr, int[] starts, int[] targets, int unused) {
        int n = csr.n;
        boolean[] isTarget = new boolean[n];
        for (int t : targets) isTarget[t] = true;
        int[] parentPos = new int[n], parentNode = new int[n];
        boolean[] seen = new boolean[n];
        int[] queue = new int[n];
        int head = 0, tail = 0;
        for (int s : starts) {
            if (isTarget[s]) return new int[0];
            seen[s] = true;
            parentPos[s] = -1;
            queue[tail++] = s;
        }
        while (head < tail) {
            int u = queue[head++];
            for (int p = csr.off[u]; p < csr.off[u + 1]; p++) {
                int v = csr.tgt[p];
                if (seen[v]) continue;
                seen[v] = true;
                parentPos[v] = p;
                parentNode[v] = u;
                if (isTarget[v]) {
                    int len = 0;
                    for (int w = v; parentPos[w] >= 0; w = parentNode[w]) len++;
                    int[] out = new int[len];
                    int i = len - 1;
                    for (int w = v; parentPos[w] >= 0; w = parentNode[w]) out[i--] = csr.eid[parentPos[w]];
                    return out;
                }
                queue[tail++] = v;
            }
        }
        return null;
    }

    /**
     * Cycles of the current graph for the SAT search to learn from, empty when the graph is acyclic: a shortest cycle
     * through each of up to {@code max} edges with id >= {@code from} (the tentative ones) that lie in a cyclic
     * strongly connected component. Many cycles per round mean fewer rounds (each rebuilds the graph); cycles
     * through different tentative edges give different clauses.
     */
    static List<int[]> someCycles(Polygraph g, boolean si, int from, int max, long budget) {
        Csr csr = graph(g, si, g.edges.size);
        List<int[]> out = new ArrayList<>();
        if (Reachability.topological(csr) != null) return out;
        if (!si && hasTimePoints(g)) return cycles(g, si, csr, max, budget);
        TarjanScc scc = TarjanScc.of(csr);
        int[] dist = new int[csr.n];
        Arrays.fill(dist, -1);
        int[] parentPos = new int[csr.n], parentNode = new int[csr.n], queue = new int[csr.n];
        int[] touched = new int[csr.n];
        java.util.Set<Integer> seenEdges = new java.util.HashSet<>();
        for (int e = from; e < g.edges.size && out.size() < max; e++) {
            int x = g.edges.from[e], y = g.edges.to[e];
            int start, target1, target2;
            if (!si) {
                start = y;
                target1 = target2 = x;
            } else if (g.dep(e)) {
                start = 2 * y + 1;
                target1 = 2 * x;
                target2 = 2 * x + 1;
            } else {
                start = 2 * y;
                target1 = target2 = 2 * x + 1;
            }
            int c = scc.comp[start];
            if (!scc.cyclic(c) || (scc.comp[target1] != c && scc.comp[target2] != c)) continue;
            if (seenEdges.contains(e)) continue;
            // BFS inside the component from the edge's head back to its tail.
            int head = 0, tail = 0, nt = 0, hit = -1;
            queue[tail++] = start;
            dist[start] = 0;
            touched[nt++] = start;
            while (head < tail && hit < 0) {
                int u = queue[head++];
                for (int p = csr.off[u]; p < csr.off[u + 1]; p++) {
                    int v = csr.tgt[p];
                    if (dist[v] >= 0 || scc.comp[v] != c) continue;
                    dist[v] = dist[u] + 1;
                    parentPos[v] = p;
                    parentNode[v] = u;
                    touched[nt++] = v;
                    if (v == target1 || v == target2) {
                        hit = v;
                        break;
                    }
                    queue[tail++] = v;
                }
            }
            if (hit >= 0 || start == target1 || start == target2) {
                List<Integer> path = new ArrayList<>();
                for (int v = hit; v >= 0 && v != start; v = parentNode[v]) path.add(csr.eid[parentPos[v]]);
                int[] cyc = new int[path.size() + 1];
                cyc[0] = e;
                for (int i = 0; i < path.size(); i++) cyc[i + 1] = path.get(path.size() - 1 - i);
                for (int id : cyc) seenEdges.add(id);
                out.add(cyc);
            }
            for (int i = 0; i < nt; i++) dist[touched[i]] = -1;
        }
        if (out.isEmpty()) return cycles(g, si, csr, max, budget);
        return out;
    }

    /** Empty when the current graph is acyclic (Kahn's algorithm only), else one short cycle. */
    static List<int[]> acyclicOrCycle(Polygraph g, boolean si, long budget) {
        Csr csr = graph(g, si, g.edges.size);
        if (Reachability.topological(csr) != null) return new ArrayList<>();
        return cycles(g, si, csr, 1, budget);
    }

    /** One short cycle per cyclic component of {@code csr} (a graph of g's nodes or states), at most {@code max}. */
    static List<int[]> cycles(Polygraph g, boolean si, Csr csr, int max, long budget) {
        List<int[]> out = new ArrayList<>();
        TarjanScc scc = TarjanScc.of(csr);
        if (!si && hasTimePoints(g)) {
            // Runs through time points stand for one real-time step: count only edges into transactions.
            boolean[] done = new boolean[scc.count];
            for (int v = 0; v < csr.n && out.size() < max; v++) {
                int c = scc.comp[v];
                if (done[c] || !scc.cyclic(c) || g.txnOf[v] < 0) continue;
                done[c] = true;
                int[] best = null;
                int tries = 0;
                for (int s = v; s < csr.n && tries < 16; s++) {
                    if (scc.comp[s] != c || g.txnOf[s] < 0) continue;
                    tries++;
                    int[] cyc = cycle01(g, csr, scc.comp, s);
                    if (cyc != null && (best == null || weight(g, cyc) < weight(g, best))) best = cyc;
                }
                if (best != null) out.add(best);
            }
            return out;
        }
        int[][] members = new int[scc.count][];
        int[] fill = new int[scc.count];
        for (int c = 0; c < scc.count; c++) if (scc.cyclic(c)) members[c] = new int[Math.min(scc.size(c), 16)];
        for (int v = 0; v < csr.n; v++) {
            int c = scc.comp[v];
            if (members[c] != null && fill[c] < members[c].length) members[c][fill[c]++] = v;
        }
        CycleSearch search = new CycleSearch(csr, scc.comp);
        for (int c = 0; c < scc.count && out.size() < max; c++) {
            if (members[c] == null) continue;
            int[] positions = search.shortest(Arrays.copyOf(members[c], fill[c]), budget);
            if (positions == null) continue;
            int[] ids = new int[positions.length];
            for (int i = 0; i < positions.length; i++) ids[i] = csr.eid[positions[i]];
            out.add(ids);
        }
        return out;
    }
}
