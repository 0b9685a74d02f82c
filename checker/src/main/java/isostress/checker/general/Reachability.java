package isostress.checker.general;

import isostress.checker.graph.Csr;

import java.util.Arrays;

/**
 * Reachability in a polygraph's known graph, as one vector per node: for each session, the earliest position of that
 * session reachable from the node. Since consecutive members of a session are joined by known edges, what is
 * reachable within a session is a suffix, so "a reaches b" is one comparison: {@code vec(a)[session(b)] <= pos(b)}.
 * Vectors are computed in reverse topological order, O(edges x sessions), and take nodes x sessions ints: the
 * per-session compression PolySI's implementation also relies on (its "reduceEdges"), here carried all
 * the way so that no n x n closure is ever built.
 *
 * <p>Two modes.
 * <ul>
 *   <li><b>Serializability</b>: plain reachability; adding an edge a→b closes a cycle iff b reaches a.</li>
 *   <li><b>Snapshot isolation</b>: reachability in the induced SI graph KI = Dep ∪ (Dep ; RW) (PolySI Def. 3.3;
 *       Cerone &amp; Gotsman: SI holds iff some version order makes KI acyclic). A KI path is a path of the known
 *       graph that starts with a Dep edge and has no two consecutive rw edges. It is tracked on two states per node:
 *       F(v), "at v, the next edge must be Dep" (the start, and after an rw edge) and A(v), "at v after a Dep edge,
 *       anything may follow". A Dep edge u→v gives F(u)→A(v) and A(u)→A(v); an rw edge gives A(u)→F(v). The layered
 *       graph is acyclic iff KI is. Per state two vectors: U (nodes reached in either state, the state's own node
 *       included) and A (nodes reached in state A). Both are suffixes per session, since session edges are Dep.
 *       Then, exactly as PolySI's pruning rules (Alg. 2, lines 37-73) ask, and slightly stronger for ww:
 *       adding ww a→b (Dep) closes a KI cycle iff b reaches a from A(b): {@link #wwCloses};
 *       adding rw r→b closes one iff F(b) reaches A(r): {@link #rwCloses}.</li>
 * </ul>
 */
final class Reachability {
    static final int INF = Integer.MAX_VALUE;

    final boolean si;
    final int sessions;
    /** SER: vec per node. SI: U and A per state (state F(v) = 2v, A(v) = 2v+1). */
    private final int[] u, a;
    /** Edge ids of a cycle, when the known graph has one; otherwise null. */
    final int[] cycle;

    private Reachability(boolean si, int sessions, int[] u, int[] a, int[] cycle) {
        this.si = si;
        this.sessions = sessions;
        this.u = u;
        this.a = a;
        this.cycle = cycle;
    }

    /** Computes reachability over the first {@code g.edges.size} edges of {@code g}. */
    static Reachability of(Polygraph g, boolean si, long cycleBudget) {
        return si ? layered(g, cycleBudget) : plain(g, cycleBudget);
    }

    /** Computes reachability over the first {@code edgeLimit} edges of {@code g} (the others are tentative). */
    static Reachability of(Polygraph g, boolean si, long cycleBudget, int edgeLimit) {
        int saved = g.edges.size;
        g.edges.size = edgeLimit;
        try {
            return of(g, si, cycleBudget);
        } finally {
            g.edges.size = saved;
        }
    }

    // ---- queries ----

    /** SER: a reaches b (a == b counts). SI: b is reached from A(a) in either state. */
    boolean reaches(int x, int y) {
        int s = sessionOf(y);
        if (s < 0) return false;
        int[] vec = u;
        int base = (si ? 2 * x + 1 : x) * sessions;
        return vec[base + s] <= posOf(y);
    }

    /** Adding ww (or any Dep edge) x→y closes a cycle. */
    boolean wwCloses(int x, int y) {
        return reaches(y, x);
    }

    /** Adding rw r→y closes a cycle. */
    boolean rwCloses(int r, int y) {
        if (!si) return reaches(y, r);
        int s = sessionOf(r);
        return s >= 0 && a[(2 * y) * sessions + s] <= posOf(r);
    }

    /** Adding rw r→y adds nothing: SER, r reaches y already; SI, A(r) reaches A(y). */
    boolean rwImplied(int r, int y) {
        if (!si) return reaches(r, y);
        int s = sessionOf(y);
        return s >= 0 && a[(2 * r + 1) * sessions + s] <= posOf(y);
    }

    /** Adding Dep x→y adds nothing: A(x) reaches A(y) (SI); x reaches y (SER). */
    boolean depImplied(int x, int y) {
        if (!si) return reaches(x, y);
        int s = sessionOf(y);
        return s >= 0 && a[(2 * x + 1) * sessions + s] <= posOf(y);
    }

    /** The earliest position of session s that x reaches (see {@link #reaches}), or INF. */
    int front(int x, int s) {
        return u[(si ? 2 * x + 1 : x) * sessions + s];
    }

    private int[] sessionArr, posArr;

    private int sessionOf(int v) {
        return sessionArr[v];
    }

    private int posOf(int v) {
        return posArr[v];
    }

    // ---- computation ----

    private static Reachability plain(Polygraph g, long cycleBudget) {
        int n = g.n, S = g.sessions, m = g.edges.size;
        Csr csr = Csr.build(n, g.edges.from, g.edges.to, null, m);
        int[] order = topological(csr);
        if (order == null) return withCycle(false, S, g, Paths.cycles(g, false, csr, 1, cycleBudget).get(0));
        return plain(g, csr, order);
    }

    /**
     * SER reachability from a graph of the polygraph's edges built already ({@code csr}, ids not needed) and a
     * topological order of it: the failed witness has both for the known edges, and building them again would
     * cost about as much as the vectors themselves.
     */
    static Reachability plain(Polygraph g, Csr csr, int[] order) {
        int n = g.n, S = g.sessions;
        int[] vec = new int[n * S];
        Arrays.fill(vec, INF);
        for (int i = n - 1; i >= 0; i--) {
            int v = order[i];
            int base = v * S;
            if (g.session[v] >= 0) vec[base + g.session[v]] = g.pos[v];
            for (int p = csr.off[v]; p < csr.off[v + 1]; p++) {
                int w = csr.tgt[p] * S;
                for (int s = 0; s < S; s++) {
                    int x = vec[w + s];
                    if (x < vec[base + s]) vec[base + s] = x;
                }
            }
        }
        Reachability r = new Reachability(false, S, vec, null, null);
        r.sessionArr = g.session;
        r.posArr = g.pos;
        return r;
    }

    private static Reachability layered(Polygraph g, long cycleBudget) {
        int n = g.n, S = g.sessions, m = g.edges.size;
        Csr csr = layeredCsr(g);
        int[] order = topological(csr);
        if (order == null) return withCycle(true, S, g, Paths.cycles(g, true, csr, 1, cycleBudget).get(0));
        int states = 2 * n;
        int[] uv = new int[states * S], av = new int[states * S];
        Arrays.fill(uv, INF);
        Arrays.fill(av, INF);
        for (int i = states - 1; i >= 0; i--) {
            int x = order[i];
            int v = x >>> 1;
            int base = x * S;
            int s0 = g.session[v];
            if (s0 >= 0) {
                uv[base + s0] = g.pos[v];
                if ((x & 1) == 1) av[base + s0] = g.pos[v];
            }
            for (int p = csr.off[x]; p < csr.off[x + 1]; p++) {
                int w = csr.tgt[p] * S;
                for (int s = 0; s < S; s++) {
                    int y = uv[w + s];
                    if (y < uv[base + s]) uv[base + s] = y;
                    y = av[w + s];
                    if (y < av[base + s]) av[base + s] = y;
                }
            }
        }
        Reachability r = new Reachability(true, S, uv, av, null);
        r.sessionArr = g.session;
        r.posArr = g.pos;
        return r;
    }

    /** The layered graph of {@link Reachability}'s SI mode; edge ids are the polygraph's. */
    static Csr layeredCsr(Polygraph g) {
        int m = g.edges.size;
        int count = 0;
        for (int e = 0; e < m; e++) count += g.dep(e) ? 2 : 1;
        int[] f = new int[count], t = new int[count], ids = new int[count];
        int j = 0;
        for (int e = 0; e < m; e++) {
            int x = g.edges.from[e], y = g.edges.to[e];
            if (g.dep(e)) {
                f[j] = 2 * x;
                t[j] = 2 * y + 1;
                ids[j++] = e;
                f[j] = 2 * x + 1;
                t[j] = 2 * y + 1;
                ids[j++] = e;
            } else {
                f[j] = 2 * x + 1;
                t[j] = 2 * y;
                ids[j++] = e;
            }
        }
        return Csr.build(2 * g.n, f, t, ids, count);
    }

    private static Reachability withCycle(boolean si, int S, Polygraph g, int[] cycle) {
        Reachability r = new Reachability(si, S, null, null, cycle);
        r.sessionArr = g.session;
        r.posArr = g.pos;
        return r;
    }

    /** Kahn's algorithm; null when the graph has a cycle. */
    static int[] topological(Csr csr) {
        int n = csr.n;
        int[] indeg = new int[n];
        for (int p = 0; p < csr.tgt.length; p++) indeg[csr.tgt[p]]++;
        int[] order = new int[n];
        int head = 0, tail = 0;
        for (int v = 0; v < n; v++) if (indeg[v] == 0) order[tail++] = v;
        while (head < tail) {
            int v = order[head++];
            for (int p = csr.off[v]; p < csr.off[v + 1]; p++) {
                if (--indeg[csr.tgt[p]] == 0) order[tail++] = csr.tgt[p];
            }
        }
        return tail == n ? order : null;
    }
}
