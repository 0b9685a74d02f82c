package isostress.checker.mini;

import isostress.checker.graph.TarjanScc;
import isostress.checker.history.History;
import isostress.checker.index.ExternalReads;
import isostress.checker.index.RegisterIndex;

/**
 * What the weak-level checks (RC, RA, CC) derive from the index and the graph, computed on first use, so that after a
 * violation of a strong level they look only where a violation can be (a violation must cost no more than
 * validity).
 *
 * <p>Why they may: every edge of so ∪ wr is an edge of the dependency graph, so a cycle of so ∪ wr lies in a cyclic
 * strongly connected component of it. A forced edge T2 → T1 (T3 reads x from T1, T2 writes x and precedes T3) whose
 * version of x descends from T1's is a stale read, and the cycle T3 -rw-> (the child of T1's version toward T2's)
 * -ww…-> T2 -wr|so…-> T3 is in the dependency graph (a child's writer read its parent: the ww edge is a wr edge);
 * so T3 lies in a cyclic component, provided T2 -wr-> T3 is a graph edge (it is unless T3 read x twice, returning
 * different values) and every written version hangs in its key's version forest. Any other forced edge needs two
 * branches of the key's version forest, that is, a key with a lost update. {@link #local} says whether the
 * provisos hold; then a transaction outside the cyclic components that reads no key with a lost update adds
 * nothing to RC or RA.
 */
final class Derived {
    private final RegisterIndex m;
    private final MiniGraph g;
    private TarjanScc fullScc;
    private boolean[] cyclic, divergedKey, examined;
    private Boolean local;

    Derived(RegisterIndex m, MiniGraph g) {
        this.m = m;
        this.g = g;
    }

    /** The strongly connected components of the full dependency graph (sibling rw edges included). */
    TarjanScc fullScc() {
        if (fullScc == null) fullScc = TarjanScc.of(g.full());
        return fullScc;
    }

    /** Per transaction: in a cyclic component of the full dependency graph. */
    boolean[] cyclic() {
        if (cyclic == null) {
            TarjanScc scc = fullScc();
            cyclic = new boolean[m.n];
            for (int t = 0; t < m.n; t++) cyclic[t] = scc.cyclic(scc.comp[t]);
        }
        return cyclic;
    }

    /** Per dense key: some version of it has two or more children (a lost update). */
    boolean[] divergedKeys() {
        if (divergedKey == null) {
            divergedKey = new boolean[m.keyCount];
            for (int v = 0; v < m.versionCount; v++) {
                if (m.childStart[v + 1] - m.childStart[v] > 1) divergedKey[m.versionKey(v)] = true;
            }
        }
        return divergedKey;
    }

    /**
     * True when the provisos of the class comment hold: no transaction reads a key twice, before writing it, with
     * different values, and every version an included transaction wrote hangs in its key's version forest.
     */
    boolean local() {
        if (local == null) local = computeLocal();
        return local;
    }

    private boolean computeLocal() {
        History h = m.h;
        if (!allInForest()) return false;
        ExternalReads external = new ExternalReads(m);
        for (int t = 0; t < m.n; t++) {
            if (!m.included[t]) continue;
            external.begin();
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                if (!external.next(o)) continue;
                int a = m.access(t, m.keyId(h.opKey(o)));
                int first = m.accReadOp[a];
                if (first == o || m.accReadState[a] == RegisterIndex.NO_READ) continue;
                // A later external read of the key: the same value is the same version (values are unique).
                if (h.opValueNull(o) != h.opValueNull(first)
                        || (!h.opValueNull(o) && h.opValue(o) != h.opValue(first))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * True when every version an included transaction wrote hangs below a root of its key's version forest (an
     * initial version, or a write whose read is unusable). A version that does not is on a cycle of "read from"
     * between writes of one key, or below one: such a cycle is a wr cycle of the dependency graph, so its writers
     * are in cyclic components, and only their versions need the walk up to a root (each version walked once).
     */
    private boolean allInForest() {
        boolean[] cyc = cyclic();
        byte[] state = new byte[m.accCount]; // 0 unknown, 1 on the current walk, 2 reaches a root
        int[] path = new int[16];
        for (int a = 0; a < m.accCount; a++) {
            if (!m.accWrites[a] || !m.included[m.accTxn[a]] || !cyc[m.accTxn[a]] || state[a] == 2) continue;
            int len = 0;
            int v = a;
            while (v != RegisterIndex.NONE && v < m.accCount && state[v] == 0) {
                state[v] = 1;
                if (len == path.length) path = java.util.Arrays.copyOf(path, len * 2);
                path[len++] = v;
                v = m.accSource[v];
            }
            if (v != RegisterIndex.NONE && v < m.accCount && state[v] == 1) return false; // back on this walk
            for (int i = 0; i < len; i++) state[path[i]] = 2;
        }
        return true;
    }

    /**
     * Per transaction: must RC and RA examine it (see the class comment)? Those in cyclic components, and those that
     * touch a key with a lost update; every one when the provisos do not hold.
     */
    boolean[] examined() {
        if (examined == null) {
            examined = new boolean[m.n];
            if (!local()) {
                java.util.Arrays.fill(examined, true);
            } else {
                boolean[] cyc = cyclic();
                System.arraycopy(cyc, 0, examined, 0, m.n);
                if (m.anyDivergence) {
                    boolean[] dk = divergedKeys();
                    for (int a = 0; a < m.accCount; a++) if (dk[m.accKey[a]]) examined[m.accTxn[a]] = true;
                }
            }
        }
        return examined;
    }
}
