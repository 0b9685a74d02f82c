package isostress.checker.mini;

import isostress.checker.index.RegisterIndex;
import isostress.checker.index.TxnReads;
import isostress.checker.graph.Csr;
import isostress.checker.history.History;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.graph.EdgeList;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.MtcAnomaly;
import isostress.checker.model.Step;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Read committed, read atomic and causal consistency by saturation (Biswas &amp; Enea, OOPSLA 2019, §3, Alg. 1 and
 * Appendix B): every axiom instance "T3 reads x from T1, T2 writes x, φ(T2, T3) ⇒ T2 before T1 in the commit order"
 * adds a forced edge; the level holds iff so ∪ wr ∪ forced edges is acyclic. On mini-transaction histories most
 * forced edges need no graph at all: in the version forest of x, T2's version is either an ancestor of T1's (the
 * edge is implied by the wr chain), a descendant (an immediate contradiction, reported as the dependency cycle
 * T3 -rw(x)-> ... -ww(x)-> T2 -> T3), or in another branch of a lost update, and only those become co edges.
 *
 * <ul>
 *   <li>RC: φ = T2 wrote what an earlier read of T3 returned (T2 -wr-> β, β po-before the read of x). O(n).</li>
 *   <li>RA: φ = T2 is a wr predecessor of T3 or precedes it in its session (so is transitive). O(n): per key only
 *       the session's last earlier writer matters (the others precede it in so, hence in the commit order), and a
 *       mini-transaction has at most one wr predecessor per key.</li>
 *   <li>CC: φ = T2 is a causal predecessor of T3, (so ∪ wr)+; see {@link CausalChecker}.</li>
 * </ul>
 */
final class SaturationChecker {
    static final String ALGORITHM_RC = "saturation (Biswas & Enea §3, Read Committed axiom)";
    static final String ALGORITHM_RA = "saturation (Biswas & Enea §3, Read Atomic axiom)";

    private final MiniContext ctx;
    private final RegisterIndex m;
    private final IsolationLevel level;
    final EdgeList co = new EdgeList(8, false, true);
    int immediate;
    private int[] predFirstRead;

    SaturationChecker(MiniContext ctx, IsolationLevel level) {
        this.ctx = ctx;
        this.m = ctx.m();
        this.level = level;
    }

    /** Runs the RC or RA check; returns the number of violations found (each reported). */
    static int check(MiniContext ctx, IsolationLevel level) {
        SaturationChecker s = new SaturationChecker(ctx, level);
        s.saturate();
        return s.immediate + acyclic(ctx, s.co, level);
    }

    private void saturate() {
        History h = m.h;
        TxnReads rt = new TxnReads(m);
        Derived d = ctx.derived();
        // RA: session order is transitive, so for each key the relevant session predecessor is the last earlier
        // transaction of the session that wrote it (the earlier ones precede that one in so, hence in co).
        LongPairIntMap lastSessionWriter = level == IsolationLevel.READ_ATOMIC ? new LongPairIntMap(1024) : null;
        int[] preds = new int[16];
        int[] earlier = new int[16];
        predFirstRead = new int[16];
        // Only the transactions where a violation can be are examined (see Derived); RA's session predecessors are
        // then needed only for the keys those transactions access.
        boolean[] examined = d.examined();
        boolean[] keyNeeded = lastSessionWriter == null ? null : new boolean[m.keyCount];
        if (keyNeeded != null) {
            for (int t = 0; t < m.n; t++) {
                if (!examined[t]) continue;
                for (int a = m.accStart[t]; a < m.accStart[t + 1]; a++) keyNeeded[m.accKey[a]] = true;
            }
        }
        for (int t3 = 0; t3 < m.n; t3++) {
            if (!m.included[t3]) continue;
            if (!examined[t3]) {
                if (lastSessionWriter != null) sessionWrites(lastSessionWriter, keyNeeded, t3);
                continue;
            }
            int nr = rt.load(t3);
            for (int i = 0; i < nr; i++) {
                int o = rt.op[i], src = rt.src[i];
                // wr holds every read (B&E §2.1); the dependency graph has the first read of each key only, so a
                // repeated read of another version adds its wr edge here.
                int acc = m.access(t3, rt.key[i]);
                int w = m.versionTxn(src);
                if (o != m.accReadOp[acc] && w >= 0 && src != m.accSource[acc]) co.addWitnessed(w, t3, EdgeKind.WR.code(), m.accKey[acc], src, -1);
            }
            int np = 0;
            if (level == IsolationLevel.READ_ATOMIC) {
                // Direct predecessors, each with the first op of T3 that read from it (MAX_VALUE: so only).
                if (preds.length < nr + 1) {
                    preds = new int[nr + 1];
                    predFirstRead = new int[nr + 1];
                }
                for (int i = 0; i < nr; i++) {
                    int w = m.versionTxn(rt.src[i]);
                    if (w < 0) continue;
                    int j = indexOf(preds, np, w);
                    if (j < 0) {
                        preds[np] = w;
                        predFirstRead[np++] = rt.op[i];
                    } else if (rt.op[i] < predFirstRead[j]) {
                        predFirstRead[j] = rt.op[i];
                    }
                }
            }
            // RC: the earlier reads that returned a written version (reads of initial versions have no writer to
            // order), so a long transaction that keeps reading initial values stays linear.
            int ne = 0;
            for (int i = 0; i < nr; i++) {
                int x = rt.key[i];
                int s = rt.src[i];
                if (level == IsolationLevel.READ_ATOMIC) {
                    for (int j = 0; j < np; j++) {
                        MtcAnomaly alias = predFirstRead[j] < rt.op[i] ? MtcAnomaly.NON_MONOTONIC_READ
                                : MtcAnomaly.FRACTURED_READ;
                        consider(preds[j], t3, x, s, alias, false);
                    }
                    int sp = lastSessionWriter.get(h.process(t3), x);
                    if (sp != LongPairIntMap.MISSING && indexOf(preds, np, sp) < 0) {
                        consider(sp, t3, x, s, MtcAnomaly.SESSION_GUARANTEE_VIOLATION, true);
                    }
                } else {
                    for (int j = 0; j < ne; j++) {
                        consider(m.versionTxn(rt.src[earlier[j]]), t3, x, s, MtcAnomaly.NON_MONOTONIC_READ, false);
                    }
                    if (m.versionTxn(s) >= 0) {
                        if (ne == earlier.length) earlier = Arrays.copyOf(earlier, ne * 2);
                        earlier[ne++] = i;
                    }
                }
            }
            if (lastSessionWriter != null) sessionWrites(lastSessionWriter, keyNeeded, t3);
        }
    }

    private void sessionWrites(LongPairIntMap lastSessionWriter, boolean[] keyNeeded, int t) {
        for (int a = m.accStart[t]; a < m.accStart[t + 1]; a++) {
            if (m.accWrites[a] && keyNeeded[m.accKey[a]]) lastSessionWriter.put(m.h.process(t), m.accKey[a], t);
        }
    }

    /**
     * Axiom instance: T3 read version {@code s} of key x, and {@code p} wrote x and satisfies φ, so p must commit
     * before s's writer.
     */
    void consider(int p, int t3, int x, int s, MtcAnomaly alias, boolean viaSession) {
        int t1 = m.versionTxn(s);
        if (p == t1 || p == t3) return;
        int pa = m.access(p, x);
        if (pa == RegisterIndex.NONE || !m.accWrites[pa]) return;
        if (m.descendantOrSelf(pa, s)) {
            immediate++;
            ctx.anomalies().add(ctx.reporter().staleRead(staleReadCycle(ctx, t3, s, pa, p, viaSession), alias));
        } else if (!m.descendantOrSelf(s, pa) && t1 >= 0 && m.inForest(pa)) {
            co.addWitnessed(p, t1, EdgeKind.CO.code(), x, s, t3);
        }
    }

    /** T3 read version s of x although p, which T3 follows directly or causally, wrote a later version pa. */
    static List<Step> staleReadCycle(MiniContext ctx, int t3, int s, int pa, int p, boolean viaSession) {
        RegisterIndex m = ctx.m();
        List<Integer> down = new ArrayList<>();
        for (int c = pa; c != s; c = m.accSource[c]) down.add(c);
        long key = m.keyOf[m.versionKey(s)];
        List<Step> steps = new ArrayList<>();
        int first = down.get(down.size() - 1);
        steps.add(new Step(t3, m.accTxn[first], EdgeKind.RW, key, m.versionValue(s), m.accWrite(first),
                s >= m.accCount, -1));
        for (int i = down.size() - 1; i > 0; i--) {
            int a = down.get(i), b = down.get(i - 1);
            steps.add(new Step(m.accTxn[a], m.accTxn[b], EdgeKind.WW, key, m.accWrite(a), m.accWrite(b), false, -1));
        }
        Step closing = viaSession ? Step.of(p, t3, EdgeKind.SO) : ctx.reporter().best(p, t3, ctx.g().main());
        // T3 may have read from p only in a repeated read, which adds no graph edge: say so directly.
        steps.add(closing != null ? closing : Step.of(p, t3, EdgeKind.WR));
        return steps;
    }

    /** so ∪ wr ∪ co must be acyclic; reports each cyclic component. */
    static int acyclic(MiniContext ctx, EdgeList co, IsolationLevel level) {
        MiniGraph g = ctx.g();
        Csr main = g.main();
        boolean[] keep = onCycles(ctx, co);
        if (keep == null) return 0;
        int m = 0;
        for (int u = 0; u < main.n; u++) {
            if (!keep[u]) continue;
            for (int p = main.off[u]; p < main.off[u + 1]; p++) {
                EdgeKind k = g.kind(main.id(p));
                if ((k == EdgeKind.SO || k == EdgeKind.WR) && keep[main.tgt[p]]) m++;
            }
        }
        int total = m + co.size;
        int[] from = new int[total], to = new int[total], ids = new int[total];
        int i = 0;
        for (int u = 0; u < main.n; u++) {
            if (!keep[u]) continue;
            for (int p = main.off[u]; p < main.off[u + 1]; p++) {
                EdgeKind k = g.kind(main.id(p));
                if (k != EdgeKind.SO && k != EdgeKind.WR || !keep[main.tgt[p]]) continue;
                from[i] = u;
                to[i] = main.tgt[p];
                ids[i++] = main.id(p);
            }
        }
        for (int c = 0; c < co.size; c++) {
            from[i] = co.from[c];
            to[i] = co.to[c];
            ids[i++] = -(c + 1);
        }
        // (co edges and repeated-read wr edges alike)
        Csr s = Csr.build(main.n, from, to, ids, total);
        return SccCycles.report(s, s.n, ctx, (start, positions) -> {
            List<Step> steps = new ArrayList<>(positions.length);
            for (int pos : positions) {
                int id = s.id(pos);
                steps.add(id >= 0 ? ctx.reporter().step(id) : coStep(co, ctx.m(), -id - 1));
            }
            return steps;
        }, steps -> steps.stream().anyMatch(st -> st.kind() == EdgeKind.CO)
                ? ctx.reporter().forcedOrderCycle(steps, level)
                : ctx.reporter().cycle(steps, level));
    }

    /**
     * The transactions a cycle of so ∪ wr ∪ co can visit, or null when there is none: so ∪ wr is part of the
     * dependency graph, so a cycle without co edges stays in one of its cyclic components; one through a co edge
     * u → v visits only transactions v reaches. Edges elsewhere are left out of the search, which then costs what
     * the violations touch rather than the whole history.
     */
    private static boolean[] onCycles(MiniContext ctx, EdgeList co) {
        MiniGraph g = ctx.g();
        Csr main = g.main();
        int n = main.n;
        boolean[] keep = ctx.derived().cyclic().clone();
        boolean any = false;
        for (int t = 0; t < n && !any; t++) any = keep[t];
        if (co.size == 0) return any ? keep : null;
        int[] coOff = new int[n + 1], coTo = new int[co.size];
        for (int c = 0; c < co.size; c++) coOff[co.from[c] + 1]++;
        for (int u = 0; u < n; u++) coOff[u + 1] += coOff[u];
        int[] fill = java.util.Arrays.copyOf(coOff, n);
        for (int c = 0; c < co.size; c++) coTo[fill[co.from[c]]++] = co.to[c];
        boolean[] seen = new boolean[n];
        int[] queue = new int[n];
        int head = 0, tail = 0;
        for (int c = 0; c < co.size; c++) {
            if (!seen[co.to[c]]) {
                seen[co.to[c]] = true;
                queue[tail++] = co.to[c];
            }
        }
        while (head < tail) {
            int u = queue[head++];
            keep[u] = true;
            for (int p = main.off[u]; p < main.off[u + 1]; p++) {
                EdgeKind k = g.kind(main.id(p));
                int v = main.tgt[p];
                if ((k == EdgeKind.SO || k == EdgeKind.WR) && !seen[v]) {
                    seen[v] = true;
                    queue[tail++] = v;
                }
            }
            for (int p = coOff[u]; p < coOff[u + 1]; p++) {
                if (!seen[coTo[p]]) {
                    seen[coTo[p]] = true;
                    queue[tail++] = coTo[p];
                }
            }
        }
        return keep;
    }

    private static int indexOf(int[] a, int n, int v) {
        for (int i = 0; i < n; i++) if (a[i] == v) return i;
        return -1;
    }

    /**
     * Edge {@code i} of {@code co}, the edges added to so ∪ wr: a commit-order edge forced by an axiom (its witness
     * the reading transaction, labels the dense key and version), or a wr edge of a repeated read (witness -1).
     */
    static Step coStep(EdgeList co, RegisterIndex m, int i) {
        int w = co.witness[i];
        EdgeKind k = w < 0 ? EdgeKind.WR : EdgeKind.CO;
        return new Step(co.from[i], co.to[i], k, m.keyOf[co.a[i]], m.versionValue(co.b[i]), null,
                co.b[i] >= m.accCount, w);
    }
}
