package isostress.checker.mini;

import isostress.checker.index.RegisterIndex;
import isostress.checker.graph.Csr;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.model.EdgeKind;

import java.util.Arrays;

/**
 * The dependency graph of a mini-transaction history: MTC's BuildDependency (§IV-B, Alg. 1) in its optimised form
 * without the transitive closure of WW (§IV-C, Theorem 1), on the committed transactions.
 *
 * <p>Edges: SO between consecutive committed transactions of a process; WR from a version's writer to each reader;
 * RW from each reader of a version to each transaction that overwrote it (its children in the version forest).
 * WW edges are not stored: a version's child read it, so the parent→child WW edge coincides with a WR edge, and
 * counterexamples relabel it (see {@link CycleReporter}). This keeps about four edges per mini-transaction.
 *
 * <p>RW edges between two children of the same version ("siblings", both of which read it and overwrote it) exist
 * only where a lost update happened; each is real in one order of the two writes only. They are kept apart: the
 * SER and SI cycle searches leave them out (the lost update itself already decides those levels), causal
 * consistency needs them ({@link #full()}).
 */
final class MiniGraph {
    final RegisterIndex m;
    int edges;
    int[] from = new int[16], to = new int[16], ver = new int[16];
    byte[] kind = new byte[16];
    private int siblingCount;
    private int[] sibling = new int[0];
    private final Csr main;
    private final int[] soPred;
    private Csr full;

    private MiniGraph(RegisterIndex m) {
        this.m = m;
        int n = m.n;
        // Exact edge count, so the edge arrays are allocated once: so <= n, wr <= readers, rw = readers x children.
        long expected = n;
        for (int v = 0; v < m.versionCount; v++) {
            long readers = m.readerStart[v + 1] - m.readerStart[v];
            expected += readers * (1 + m.childStart[v + 1] - m.childStart[v]);
        }
        grow((int) Math.min(Integer.MAX_VALUE - 8, Math.max(16, expected)));
        LongPairIntMap lastOfProcess = new LongPairIntMap(64);
        soPred = new int[n];
        Arrays.fill(soPred, -1);
        for (int t = 0; t < n; t++) {
            if (!m.included[t]) continue;
            long p = m.h.process(t);
            int prev = lastOfProcess.put(p, 0, t);
            if (prev != LongPairIntMap.MISSING) {
                add(prev, t, EdgeKind.SO, -1);
                soPred[t] = prev;
            }
        }
        int[] sib = new int[16];
        for (int v = 0; v < m.versionCount; v++) {
            int wt = m.versionTxn(v);
            for (int i = m.readerStart[v]; i < m.readerStart[v + 1]; i++) {
                int r = m.readers[i];
                int rt = m.accTxn[r];
                if (wt >= 0 && wt != rt) add(wt, rt, EdgeKind.WR, v);
                for (int j = m.childStart[v]; j < m.childStart[v + 1]; j++) {
                    int c = m.children[j];
                    int ct = m.accTxn[c];
                    if (ct == rt) continue;
                    int e = add(rt, ct, EdgeKind.RW, v);
                    if (m.accWrites[r]) {
                        if (siblingCount == sib.length) sib = Arrays.copyOf(sib, siblingCount * 2);
                        sib[siblingCount++] = e;
                    }
                }
            }
        }
        sibling = Arrays.copyOf(sib, siblingCount);
        main = siblingCount == 0 ? Csr.build(n, from, to, null, edges) : buildWithout(n);
    }

    static MiniGraph of(RegisterIndex m) {
        return new MiniGraph(m);
    }

    /** The graph without sibling RW edges: MTC's graph Ĝ when there is no lost update. */
    Csr main() {
        return main;
    }

    /** The graph with every RW edge (built on first use). */
    Csr full() {
        if (siblingCount == 0) return main;
        if (full == null) full = Csr.build(m.n, from, to, null, edges);
        return full;
    }

    /** The previous committed transaction of each transaction's process, or -1. */
    int[] soPred() {
        return soPred;
    }

    boolean hasSiblingEdges() {
        return siblingCount > 0;
    }

    EdgeKind kind(int e) {
        return EdgeKind.of(kind[e]);
    }

    private Csr buildWithout(int n) {
        boolean[] skip = new boolean[edges];
        for (int e : sibling) skip[e] = true;
        int m2 = edges - siblingCount;
        int[] f = new int[m2], t = new int[m2], ids = new int[m2];
        int j = 0;
        for (int e = 0; e < edges; e++) {
            if (skip[e]) continue;
            f[j] = from[e];
            t[j] = to[e];
            ids[j++] = e;
        }
        return Csr.build(n, f, t, ids, m2);
    }

    private int add(int f, int t, EdgeKind k, int version) {
        if (edges == from.length) grow(edges * 2);
        from[edges] = f;
        to[edges] = t;
        kind[edges] = k.code();
        ver[edges] = version;
        return edges++;
    }

    private void grow(int cap) {
        if (cap <= from.length) return;
        from = Arrays.copyOf(from, cap);
        to = Arrays.copyOf(to, cap);
        ver = Arrays.copyOf(ver, cap);
        kind = Arrays.copyOf(kind, cap);
    }
}
