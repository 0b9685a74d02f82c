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
        // An upper bound of the edge count (so <= n, wr <= readers, rw <= readers x children), so the payload arrays
        // are allocated once; the graph itself holds no from/to arrays (issue 15: 100M transactions in 20 GB).
        long expected = n;
        for (int v = 0; v < m.versionCount; v++) {
            long readers = m.readerStart[v + 1] - m.readerStart[v];
            expected += readers * (1 + m.childStart[v + 1] - m.childStart[v]);
        }
        int cap = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(16, expected));
        kind = new byte[cap];
        ver = new int[cap];
        soPred = new int[n];
        Arrays.fill(soPred, -1);
        LongPairIntMap lastOfProcess = new LongPairIntMap(64);
        for (int t = 0; t < n; t++) {
            if (!m.included[t]) continue;
            int prev = lastOfProcess.put(m.h.process(t), 0, t);
            if (prev != LongPairIntMap.MISSING) soPred[t] = prev;
        }
        Csr made = Csr.build(n, this::emit);
        soPred = null;
        // Payloads into position order, so that an edge's id is its position in the graph and the graph needs no id
        // array (issue 15: 100M transactions in 20 GB).
        byte[] k = new byte[edges];
        int[] vr = new int[edges];
        for (int p = 0; p < edges; p++) {
            k[p] = kind[made.eid[p]];
            vr[p] = ver[made.eid[p]];
        }
        kind = k;
        ver = vr;
        all = made.withPositionIds();
        main = siblingCount == 0 ? all : Csr.build(n, sink -> {
            for (int u = 0; u < n; u++) {
                for (int p = all.off[u]; p < all.off[u + 1]; p++) {
                    if ((kind[p] & SIBLING) == 0) sink.edge(u, all.tgt[p], p);
                }
            }
        });
    }

    /**
     * Makes every edge, numbering them in order (each call makes the same ones): SO from each transaction's process
     * predecessor, then per version WR from its writer to each reader and RW from each reader to each child.
     */
    private void emit(Csr.EdgeSink sink) {
        edges = 0;
        siblingCount = 0;
        for (int t = 0; t < m.n; t++) if (soPred[t] >= 0) add(sink, soPred[t], t, EdgeKind.SO, -1, false);
        for (int v = 0; v < m.versionCount; v++) {
            int wt = m.versionTxn(v);
            for (int i = m.readerStart[v]; i < m.readerStart[v + 1]; i++) {
                int r = m.readers[i];
                int rt = m.accTxn[r];
                if (wt >= 0 && wt != rt) add(sink, wt, rt, EdgeKind.WR, v, false);
                for (int j = m.childStart[v]; j < m.childStart[v + 1]; j++) {
                    int ct = m.accTxn[m.children[j]];
                    if (ct != rt) add(sink, rt, ct, EdgeKind.RW, v, m.accWrites[r]);
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

    private void add(Csr.EdgeSink sink, int f, int t, EdgeKind k, int version, boolean sibling) {
        int e = edges++;
        kind[e] = (byte) (k.code() | (sibling ? SIBLING : 0));
        ver[e] = version;
        if (sibling) siblingCount++;
        sink.edge(f, t, e);
    }
}
