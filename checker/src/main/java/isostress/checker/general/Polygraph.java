package isostress.checker.general;

import isostress.checker.graph.EdgeList;
import isostress.checker.model.EdgeKind;

import java.util.Arrays;

/**
 * A generalized polygraph (PolySI, Huang et al. PVLDB 2023, Def. 3.1): nodes, the dependency edges known for certain,
 * and, per key, the writers whose relative order may still be open, each with the readers of its version. For two
 * writers A, B of key x the constraint is "A before B (ww A→B, and rw from every reader of A's version to B) or B
 * before A (symmetrically)". Readers of a key's initial version precede every writer of it (known rw edges, added
 * by the solver).
 *
 * <p>Nodes are plain ints so that the same structure serves a history's transactions, their split into read and
 * write halves (Biswas &amp; Enea §4.2, for prefix consistency) and real-time points (for strict serializability).
 * Every node with edges belongs to a session: a chain of nodes whose consecutive members are joined by known edges
 * (session order, or the order of time points). Sessions are what makes reachability cheap ({@link Reachability}):
 * a set of nodes reachable from somewhere is, within each session, a suffix.
 *
 * <p>Edges carry two version ids that justify them (wr: the version read; ww: the earlier and the later version;
 * rw: the version read and the version that overwrote it) and their origin: the history itself, or an order the
 * solver derived (which counterexamples must then justify).
 */
final class Polygraph {
    /** Where an edge comes from. */
    static final byte HISTORY = 0, FRONTIER = 1, FORCED = 2, CHOSEN = 3;

    final int n;
    final int sessions;
    final int[] session, pos;
    /** The transaction each node stands for, or -1 (time points). */
    final int[] txnOf;
    /** An order hint per node (completion time), guiding the SAT search's first guesses; null when unknown. */
    long[] hint;

    /** Labels a and b: the two version ids that justify an edge; tag: its origin ({@link #HISTORY}, ...). */
    final EdgeList edges;

    final int keys;
    /** Writers of key k: writer indices wStart[k] .. wStart[k+1]-1, each a node and the version it wrote. */
    final int[] wStart, wNode, wVer;
    /**
     * Per writer, whether the data places its version in the key's order (a list-append chain): its ww and rw
     * edges to its neighbours there are known edges. The others' places are what the solver chooses.
     */
    final boolean[] wPlaced;
    /** Readers of writer w's version: rStart[w] .. rStart[w+1]-1 (nodes). */
    final int[] rStart, rNode;
    /** Readers of key k's initial version, and that version's id. */
    final int[] iStart, iNode, iVer;
    /**
     * Keys whose version order the data shows completely (list-append chains with at most one unobserved append):
     * their ww and rw edges are known edges already, so the solver neither derives nor enumerates anything for them.
     */
    final boolean[] ordered;
    /**
     * The writers of each key grouped by session, each group sorted by position: key k's groups are
     * gStart[k] .. gStart[k+1]-1; group g holds writer indices gw[gFrom[g] .. gFrom[g+1]-1] of session gSession[g].
     */
    final int[] gStart, gSession, gFrom, gw;

    private Polygraph(Builder b) {
        n = b.n;
        sessions = b.sessions;
        session = b.session;
        pos = b.pos;
        txnOf = b.txnOf;
        edges = b.edges;
        keys = b.keys;
        ordered = b.ordered;
        // Writers grouped by key (counting sort, stable), each with the readers of its version.
        int w = b.writers;
        wStart = new int[keys + 1];
        for (int i = 0; i < w; i++) wStart[b.wKey[i] + 1]++;
        for (int k = 0; k < keys; k++) wStart[k + 1] += wStart[k];
        int[] fill = Arrays.copyOf(wStart, keys);
        wNode = new int[w];
        wVer = new int[w];
        wPlaced = new boolean[w];
        for (int i = 0; i < w; i++) {
            int x = fill[b.wKey[i]]++;
            wNode[x] = b.wNode[i];
            wVer[x] = b.wVer[i];
            wPlaced[x] = b.wPlaced[i];
        }
        rStart = new int[w + 1];
        for (int x = 0; x < w; x++) rStart[x + 1] = rStart[x] + b.readerStart[wVer[x] + 1] - b.readerStart[wVer[x]];
        rNode = new int[rStart[w]];
        for (int x = 0; x < w; x++) {
            int v = wVer[x];
            System.arraycopy(b.readerNode, b.readerStart[v], rNode, rStart[x], rStart[x + 1] - rStart[x]);
        }
        iVer = b.initVersion;
        iStart = new int[keys + 1];
        for (int k = 0; k < keys; k++) {
            int v = iVer[k];
            iStart[k + 1] = iStart[k] + (v < 0 ? 0 : b.readerStart[v + 1] - b.readerStart[v]);
        }
        iNode = new int[iStart[keys]];
        for (int k = 0; k < keys; k++) {
            if (iVer[k] >= 0) System.arraycopy(b.readerNode, b.readerStart[iVer[k]], iNode, iStart[k], iStart[k + 1] - iStart[k]);
        }
        // Group each key's writers by session, sorted by position.
        int groups = 0;
        int[] gs = new int[keys + 1];
        int[] gSess = new int[Math.max(1, w)], gF = new int[Math.max(1, w) + 1], all = new int[w];
        int filled = 0;
        for (int k = 0; k < keys; k++) {
            gs[k] = groups;
            int lo = wStart[k], hi = wStart[k + 1];
            long[] keyed = new long[hi - lo];
            for (int x = lo; x < hi; x++) keyed[x - lo] = ((long) session[wNode[x]] << 32) | (x - lo);
            Arrays.sort(keyed);
            int prevSession = Integer.MIN_VALUE;
            for (long kx : keyed) {
                int x = lo + (int) kx;
                int s = session[wNode[x]];
                if (s != prevSession) {
                    gSess[groups] = s;
                    gF[groups] = filled;
                    groups++;
                    prevSession = s;
                }
                all[filled++] = x;
            }
        }
        gs[keys] = groups;
        gF[groups] = filled;
        gStart = gs;
        gSession = Arrays.copyOf(gSess, groups);
        gFrom = Arrays.copyOf(gF, groups + 1);
        gw = all;
        for (int g = 0; g < groups; g++) sortGroupByPosition(gFrom[g], gFrom[g + 1]);
    }

    /** Writers are usually added in session order already; sorts a group when they were not. */
    private void sortGroupByPosition(int lo, int hi) {
        boolean sorted = true;
        for (int i = lo + 1; i < hi && sorted; i++) sorted = pos[wNode[gw[i - 1]]] < pos[wNode[gw[i]]];
        if (sorted) return;
        long[] keyed = new long[hi - lo];
        for (int i = lo; i < hi; i++) keyed[i - lo] = ((long) pos[wNode[gw[i]]] << 32) | gw[i];
        Arrays.sort(keyed);
        for (int i = lo; i < hi; i++) gw[i] = (int) keyed[i - lo];
    }

    EdgeKind kind(int e) {
        return EdgeKind.of(edges.kind[e]);
    }

    /** True when edge e adds to the dependency part (everything but rw) of the SI graph. */
    boolean dep(int e) {
        return edges.kind[e] != EdgeKind.RW.code();
    }

    int addEdge(int f, int t, EdgeKind k, int a, int b, byte orig) {
        return edges.add(f, t, k.code(), a, b, orig);
    }

    /** Removes the edges added after the first {@code count} (the solver's tentative choices). */
    void truncate(int count) {
        edges.truncate(count);
        while (bases > 0 && basis[bases - 1] > count) bases--;
    }

    /**
     * Edge counts, increasing, each where the solver began adding edges derived from reachability over the edges
     * before it: an order derived so is justified by those edges only. The edges derived in the same round are no
     * justification, as they rest on the same orders (a path through an rw edge of the pair itself would be
     * circular).
     */
    private int[] basis = new int[8];
    private int bases;

    /** The edges added from now on are derived from reachability over the first {@code count} edges. */
    void derivedFrom(int count) {
        if (bases > 0 && basis[bases - 1] == count) return;
        if (bases == basis.length) basis = Arrays.copyOf(basis, 2 * bases);
        basis[bases++] = count;
    }

    /** How many edges edge e was derived from (see {@link #derivedFrom}): e itself when none was recorded. */
    int basisOf(int e) {
        int out = e;
        for (int i = bases - 1; i >= 0; i--) {
            if (basis[i] <= e) return basis[i];
        }
        return out;
    }

    /** Index in {@link #gw} of the first writer of group g at position >= p, or gFrom[g+1] when none. */
    int firstAtOrAfter(int g, int p) {
        int lo = gFrom[g], hi = gFrom[g + 1];
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (pos[wNode[gw[mid]]] < p) lo = mid + 1; else hi = mid;
        }
        return lo;
    }

    /** Builds a polygraph. */
    static final class Builder {
        final int n, sessions, keys;
        final int[] session, pos, txnOf;
        final int[] readerStart, readerNode;
        final EdgeList edges;
        int writers;
        int[] wKey = new int[64], wNode = new int[64], wVer = new int[64];
        boolean[] wPlaced = new boolean[64];
        final int[] initVersion;
        final boolean[] ordered;

        /**
         * @param session     session of each node (-1: the node has no edges)
         * @param pos         position of each node in its session
         * @param txnOf       the transaction of each node, -1 for time points
         * @param readerStart readers of version v: readerNode[readerStart[v] .. readerStart[v+1]-1] (nodes)
         * @param edgeCapacity the edges expected (more grow the arrays)
         */
        Builder(int n, int sessions, int[] session, int[] pos, int[] txnOf, int keys, int[] readerStart,
                int[] readerNode, long edgeCapacity) {
            edges = new EdgeList(Math.max(64, edgeCapacity), true, false);
            this.n = n;
            this.sessions = sessions;
            this.session = session;
            this.pos = pos;
            this.txnOf = txnOf;
            this.keys = keys;
            this.readerStart = readerStart;
            this.readerNode = readerNode;
            initVersion = new int[keys];
            Arrays.fill(initVersion, -1);
            ordered = new boolean[keys];
        }

        void edge(int f, int t, EdgeKind k, int a, int b) {
            if (f == t) return;
            edges.add(f, t, k.code(), a, b, HISTORY);
        }

        /**
         * Writer {@code node} wrote {@code version} of key k (its readers are those of the version); {@code placed}
         * when the data places it in the key's order (see {@link Polygraph#wPlaced}).
         */
        void writer(int k, int node, int version, boolean placed) {
            if (writers == wKey.length) {
                int c = writers * 2;
                wKey = Arrays.copyOf(wKey, c);
                wNode = Arrays.copyOf(wNode, c);
                wVer = Arrays.copyOf(wVer, c);
                wPlaced = Arrays.copyOf(wPlaced, c);
            }
            wKey[writers] = k;
            wNode[writers] = node;
            wPlaced[writers] = placed;
            wVer[writers++] = version;
        }

        /** Key k's initial version is {@code version} (its readers are those of the version). */
        void initialVersion(int k, int version) {
            initVersion[k] = version;
        }

        /** Key k's version order is fully known: its consecutive ww and rw edges are among the edges. */
        void ordered(int k) {
            ordered[k] = true;
        }

        Polygraph build() {
            return new Polygraph(this);
        }
    }
}
