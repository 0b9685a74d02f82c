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
    /** Set in {@link #kind}'s byte for a sibling rw edge (see the class comment). */
    private static final int SIBLING = 0x40;

    final RegisterIndex m;
    /** Number of edges, sibling rw edges included; an edge's id is its position in {@link #all}. */
    int edges;
    /** Per edge id: its kind's code (with {@link #SIBLING}) and the version it concerns (-1 for so). */
    private byte[] kind;
    private int[] ver;
    private int siblingCount;
    /** Every edge, with its id; {@link #main} leaves the sibling rw edges out (the same graph when there are none). */
    private final Csr all, main;
    /** The previous committed transaction of each transaction's process, or -1: only while the graph is built. */
    private int[] soPred;

    private MiniGraph(RegisterIndex m) {
        this.m = m;
        int n = m.n;
        soPred = new int[n];
        Arrays.fill(soPred, -1);
        LongPairIntMap lastOfProcess = new LongPairIntMap(64);
        for (int t = 0; t < n; t++) {
            if (!m.included[t]) continue;
            int prev = lastOfProcess.put(m.h.process(t), 0, t);
            if (prev != LongPairIntMap.MISSING) soPred[t] = prev;
        }
        // Compressed sparse rows in two passes (count, then place), with each edge's payload stored at its position,
        // so an edge's id is its position and there are no from/to/id arrays (100M transactions must fit in 20 GB).
        int[] off = new int[n + 1];
        emit((f, t, k, v) -> off[f + 1]++);
        for (int u = 0; u < n; u++) off[u + 1] += off[u];
        edges = off[n];
        int[] tgt = new int[edges];
        kind = new byte[edges];
        ver = new int[edges];
        emit((f, t, k, v) -> {
            int p = off[f]++;
            tgt[p] = t;
            kind[p] = (byte) k;
            ver[p] = v;
        });
        System.arraycopy(off, 0, off, 1, n); // off[u] was u's end: shift to starts
        off[0] = 0;
        soPred = null;
        all = Csr.positional(n, off, tgt);
        main = siblingCount == 0 ? all : Csr.build(n, sink -> {
            for (int u = 0; u < n; u++) {
                for (int p = all.off[u]; p < all.off[u + 1]; p++) {
                    if ((kind[p] & SIBLING) == 0) sink.edge(u, all.tgt[p], p);
                }
            }
        });
    }

    /** Receives an edge with its payload: kind code (with {@link #SIBLING}) and version. */
    private interface EdgeOut {
        void edge(int from, int to, int kind, int version);
    }

    /**
     * Makes every edge, the same ones in the same order each call: SO from each transaction's process predecessor,
     * then per version WR from its writer to each reader and RW from each reader to each child.
     */
    private void emit(EdgeOut out) {
        siblingCount = 0;
        for (int t = 0; t < m.n; t++) if (soPred[t] >= 0) out.edge(soPred[t], t, EdgeKind.SO.code(), -1);
        for (int v = 0; v < m.versionCount; v++) {
            int wt = m.versionTxn(v);
            for (int i = m.readerStart[v]; i < m.readerStart[v + 1]; i++) {
                int r = m.readers[i];
                int rt = m.accTxn[r];
                if (wt >= 0 && wt != rt) out.edge(wt, rt, EdgeKind.WR.code(), v);
                for (int j = m.childStart[v]; j < m.childStart[v + 1]; j++) {
                    int ct = m.accTxn[m.children[j]];
                    if (ct == rt) continue;
                    boolean sibling = m.accWrites[r];
                    if (sibling) siblingCount++;
                    out.edge(rt, ct, EdgeKind.RW.code() | (sibling ? SIBLING : 0), v);
                }
            }
        }
    }

    static MiniGraph of(RegisterIndex m) {
        return new MiniGraph(m);
    }

    /** The graph without sibling RW edges: MTC's graph Ĝ when there is no lost update. */
    Csr main() {
        return main;
    }

    /** The graph with every RW edge. */
    Csr full() {
        return all;
    }

    boolean hasSiblingEdges() {
        return siblingCount > 0;
    }

    EdgeKind kind(int e) {
        return EdgeKind.of(kind[e] & ~SIBLING);
    }

    /** The version edge {@code e} concerns (read by its reader, overwritten by its child), or -1 for SO. */
    int ver(int e) {
        return ver[e];
    }

    /** The transaction edge {@code e} leaves (a binary search: for reports). */
    int from(int e) {
        return all.source(e);
    }

    /** The transaction edge {@code e} enters. */
    int to(int e) {
        return all.tgt[e];
    }
}
