package isostress.checker.sql;

import isostress.checker.model.Argument;
import isostress.checker.model.IsolationLevel;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SATURATE to a fixpoint: Bouajjani, Enea, Román-Calvo, CAV 2025, §4, Alg. 1, iterated as line 1 of Alg. 3.
 *
 * <p>Start from pco = (so ∪ wr)+. For every read r of t reading key x from t1, and every other writer t2 of x
 * (t2 ≠ t1, t2 ≠ t), if t2 is visible to r under the <em>reader's</em> level (Eq. 1, Fig. 3), add (t2, t1): r must
 * read the co-latest visible writer. Visibility that mentions co is evaluated with co := pco, an under-approximation
 * of every commit order that contains pco, so every added edge is forced (sound). Close transitively and repeat
 * until nothing changes or pco is cyclic.
 *
 * <p>Visibility of t2 to read r of t, key x ([B&amp;E19] Table 1, as in the implementer notes):
 * <ol>
 *   <li>RC: t2 so-before t, or an earlier read of t read <em>any</em> key from t2 (the any-key variant, as in the
 *       authors' artifact);</li>
 *   <li>RA: (t2, t) ∈ so ∪ wr;</li>
 *   <li>PC: ∃t4. (t2, t4) ∈ pco* ∧ (t4, t) ∈ so ∪ wr;</li>
 *   <li>SI: PC, or Conflict: ∃t4. (t2, t4) ∈ pco* ∧ (t4, t) ∈ pco ∧ t4 and t write a common key;</li>
 *   <li>SER: (t2, t) ∈ pco.</li>
 * </ol>
 * O(rounds · (Σ_r |keys(r)| · |writers| + n³/64)).
 */
final class SqlSaturation {
    /**
     * The closed pco, whether it is cyclic, and (when explaining) the direct edges with their reasons and, for edges
     * an axiom forced, the reader whose axiom it was (the explanation names it, so the counterexample lists it).
     */
    record Pco(long[][] closed, boolean cyclic, Map<Long, Argument.Reason> why) {}

    private SqlSaturation() {}

    /** Nodes each read event's earlier reads in the same transaction read from, for RC. */
    static long[][] readBefore(SqlIndex ix) {
        long[][] out = new long[ix.reads.size()][];
        for (int t = 1; t < ix.n; t++) {
            long[] acc = Bits.row(ix.n);
            for (SqlIndex.Read r : ix.readsOf.get(t)) {
                out[r.index] = acc.clone();
                for (int w : r.wr) if (w >= 0) Bits.set(acc, w);
            }
        }
        return out;
    }

    /** soPred[t] ∪ (nodes some read of t reads from). */
    static long[][] soWrPred(SqlIndex ix) {
        long[][] s = Bits.copy(ix.soPred);
        for (SqlIndex.Read r : ix.reads) for (int w : r.wr) if (w >= 0) Bits.set(s[r.node], w);
        return s;
    }

    /** (so ∪ wr)+, closed. */
    static long[][] soWr(SqlIndex ix) {
        long[][] m = soWrPred(ix);
        long[][] t = Bits.matrix(ix.n);
        for (int b = 0; b < ix.n; b++) for (int a = 0; a < ix.n; a++) if (Bits.get(m[b], a)) Bits.set(t[a], b);
        Bits.close(t);
        return t;
    }

    static Pco run(SqlIndex ix, boolean explain) {
        return run(ix, explain, null);
    }

    /**
     * The fixpoint from {@code start} (a closed pco of a history with fewer wr edges, or null for (so ∪ wr)+): pco only
     * grows with wr, so the search over extensions can resume from the parent's pco instead of starting over.
     */
    static Pco run(SqlIndex ix, boolean explain, long[][] start) {
        int n = ix.n;
        Map<Long, Argument.Reason> why = explain ? new HashMap<>() : null;
        long[][] pred = soWrPred(ix);
        long[][] before = readBefore(ix);
        long[][] pco;
        if (start == null || explain) {
            pco = soWr(ix);
        } else {
            pco = Bits.copy(start);
            for (int b = 0; b < n; b++) for (int a = 0; a < n; a++) if (Bits.get(pred[b], a)) Bits.set(pco[a], b);
            Bits.close(pco);
        }
        if (explain) {
            for (int[] ses : ix.sessions) {
                why.put(edge(n, 0, ses[0]), new Argument.InitFirst());
                for (int i = 1; i < ses.length; i++) {
                    why.put(edge(n, ses[i - 1], ses[i]), new Argument.SessionOrder(ix.txn[ses[i]].session()));
                }
            }
            for (SqlIndex.Read r : ix.reads) {
                for (int j = 0; j < r.keys.length; j++) {
                    int w = r.wr[j];
                    if (w < 0) continue;
                    String k = ix.keyNames.get(r.keys[j]);
                    boolean returned = w == r.baseWr[j];
                    why.putIfAbsent(edge(n, w, r.node), new Argument.ReadFrom(ix.read(r.node, r.op), k, returned,
                            returned ? null : Predicate.row(ix.finalWrite(w, r.keys[j]).value())));
                }
            }
        }
        if (Bits.cyclic(pco)) return new Pco(pco, true, why);
        int ri = 0;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (ri = 0; ri < ix.reads.size(); ri++) {
                SqlIndex.Read r = ix.reads.get(ri);
                int u = r.node;
                IsolationLevel lv = ix.level[u];
                for (int j = 0; j < r.keys.length; j++) {
                    int w1 = r.wr[j];
                    if (w1 < 0) continue;
                    for (int t2 : ix.writersOf[r.keys[j]]) {
                        if (t2 == w1 || t2 == u || Bits.get(pco[t2], w1)) continue;
                        if (!visible(ix, lv, t2, u, pco, pred, before[ri])) continue;
                        Bits.set(pco[t2], w1);
                        changed = true;
                        if (explain) {
                            String k = ix.keyNames.get(r.keys[j]);
                            why.putIfAbsent(edge(n, t2, w1), new Argument.Visible(ix.read(u, r.op), k, ix.id(w1)));
                        }
                    }
                }
            }
            if (changed) {
                Bits.close(pco);
                if (Bits.cyclic(pco)) return new Pco(pco, true, why);
            }
        }
        return new Pco(pco, false, why);
    }

    static boolean visible(SqlIndex ix, IsolationLevel lv, int t2, int u, long[][] pco, long[][] soWrPred, long[] before) {
        switch (lv) {
            case READ_COMMITTED:
                return Bits.get(ix.soPred[u], t2) || Bits.get(before, t2);
            case READ_ATOMIC:
                return Bits.get(soWrPred[u], t2);
            case PREFIX:
                return Bits.get(soWrPred[u], t2) || Bits.intersects(pco[t2], soWrPred[u]);
            case SNAPSHOT_ISOLATION: {
                if (Bits.get(soWrPred[u], t2) || Bits.intersects(pco[t2], soWrPred[u])) return true;
                long[] ww = ix.wwShare[u];
                for (int t4 = 0; t4 < ix.n; t4++) {
                    if (Bits.get(ww, t4) && (t4 == t2 || Bits.get(pco[t2], t4)) && Bits.get(pco[t4], u)) return true;
                }
                return false;
            }
            case SERIALIZABLE:
                return Bits.get(pco[t2], u);
            default:
                throw new IllegalArgumentException("the SQL checker does not support " + lv);
        }
    }

    static long edge(int n, int a, int b) {
        return (long) a * n + b;
    }

    /** A shortest cycle through the direct edges in {@code why} (pco is their closure), as node ids. */
    static List<Integer> cycle(int n, Map<Long, ?> why) {
        List<List<Integer>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) adj.add(new ArrayList<>());
        for (long e : why.keySet()) adj.get((int) (e / n)).add((int) (e % n));
        List<Integer> best = null;
        for (int s = 0; s < n; s++) {
            int[] parent = new int[n];
            java.util.Arrays.fill(parent, -2);
            ArrayDeque<Integer> q = new ArrayDeque<>();
            q.add(s);
            parent[s] = -1;
            boolean found = false;
            int last = -1;
            while (!q.isEmpty() && !found) {
                int a = q.poll();
                for (int b : adj.get(a)) {
                    if (b == s) {
                        found = true;
                        last = a;
                        break;
                    }
                    if (parent[b] == -2) {
                        parent[b] = a;
                        q.add(b);
                    }
                }
            }
            if (!found) continue;
            List<Integer> c = new ArrayList<>();
            for (int v = last; v != -1; v = parent[v]) c.add(0, v);
            if (best == null || c.size() < best.size()) best = c;
        }
        return best;
    }
}
