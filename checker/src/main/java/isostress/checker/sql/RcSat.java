package isostress.checker.sql;

import isostress.checker.model.IsolationLevel;
import isostress.checker.sql.ExtensionSearch.Conflict;
import org.sat4j.core.VecInt;
import org.sat4j.minisat.SolverFactory;
import org.sat4j.specs.ContradictionException;
import org.sat4j.specs.ISolver;
import org.sat4j.specs.TimeoutException;

import java.util.ArrayList;
import java.util.List;

/**
 * Alg. 3 of Bouajjani, Enea, Román-Calvo, CAV 2025 (§4) for histories whose readers are all RC or RA (the saturable
 * levels: visibility does not mention co), as one SAT problem instead of a search over extensions × orders.
 *
 * <p>Variables: one per pair a &lt; b of nodes ("a commits before b"), with the two 3-cycle clauses per triple, so a
 * model is a strict total order (a commit order); and one per conflict (r, x) and version z of x in its 0-set ("r saw
 * z"). Clauses, each an instance of Eq. 1 (Fig. 3) or of wr ⊆ co:
 * <ol>
 *   <li>every pair in the saturated pco (so, wr, and the axioms of the returned rows, which Alg. 1 already decided
 *       because both levels are saturable) is a unit;</li>
 *   <li>each conflict sees at least one of its versions z, and then z commits before the reader (wr ⊆ co);</li>
 *   <li>the axiom, for a read r of u with version w1 of x (returned, or a chosen z): every writer t2 ≠ w1, u of x
 *       visible to r commits before w1. RC: t2 is visible when so-before u or read by an earlier statement of u; RA:
 *       when so-before u or read by any statement of u. Returned reads make t2 visible unconditionally (a unit, or
 *       "¬(r saw z) ∨ t2 &lt; z"); a chosen one only with its variable ("¬(r saw z) ∨ ¬(r′ saw t2) ∨ t2 &lt; z").</li>
 * </ol>
 * Every clause has a negative choice literal or none, so a model stays one after dropping all but one true choice
 * per conflict: a model is a conflict-free extension h′ ∈ X_h plus a commit order satisfying every axiom of h′, and
 * every such pair is a model. So it is satisfiable iff Alg. 3 answers true (Thm. 5), without enumerating X_h.
 */
final class RcSat {
    enum Outcome { SAT, UNSAT, TIMEOUT }

    private final SqlIndex ix;
    private final int n;

    private RcSat(SqlIndex ix) {
        this.ix = ix;
        this.n = ix.n;
    }

    /**
     * Largest history (nodes, init included) encoded: the transitivity clauses grow as n³/3 (about 1.4 million at 160
     * nodes); larger histories keep the extension search.
     */
    static final int MAX_NODES = 160;

    /** Whether {@link #solve} applies: RC and RA readers only, and at most {@link #MAX_NODES} nodes. */
    static boolean applies(SqlIndex ix) {
        if (ix.n > MAX_NODES) return false;
        for (int v = 1; v < ix.n; v++) {
            if (ix.level[v] != IsolationLevel.READ_COMMITTED && ix.level[v] != IsolationLevel.READ_ATOMIC) return false;
        }
        return true;
    }

    static Outcome solve(SqlIndex ix, long[][] pco, List<Conflict> conflicts, long deadlineNanos) {
        return new RcSat(ix).run(pco, conflicts, deadlineNanos);
    }

    /** The literal "a commits before b" (a ≠ b). */
    private int before(int a, int b) {
        return a < b ? 1 + a * n + b : -(1 + b * n + a);
    }

    private Outcome run(long[][] pco, List<Conflict> conflicts, long deadlineNanos) {
        ISolver s = SolverFactory.newDefault();
        int[][] cand = new int[conflicts.size()][];
        int[][] var = new int[conflicts.size()][];
        int next = n * n + 1;
        Conflict[][] byRead = new Conflict[ix.reads.size()][];
        int[][] idxByRead = new int[ix.reads.size()][];
        for (int ci = 0; ci < conflicts.size(); ci++) {
            Conflict c = conflicts.get(ci);
            int u = c.read().node;
            if (ix.level[u] != IsolationLevel.READ_COMMITTED && ix.level[u] != IsolationLevel.READ_ATOMIC) {
                throw new IllegalArgumentException("not an RC or RA conflict");
            }
            List<Integer> zs = new ArrayList<>();
            for (int z : c.zeros()) if (z != u && !Bits.get(pco[u], z)) zs.add(z);
            cand[ci] = zs.stream().mapToInt(Integer::intValue).toArray();
            var[ci] = new int[cand[ci].length];
            for (int i = 0; i < var[ci].length; i++) var[ci][i] = next++;
            int ri = c.read().index;
            if (byRead[ri] == null) {
                byRead[ri] = new Conflict[c.read().keys.length];
                idxByRead[ri] = new int[c.read().keys.length];
            }
            byRead[ri][c.j()] = c;
            idxByRead[ri][c.j()] = ci;
        }
        s.newVar(next);
        long secs = Math.max(1, (deadlineNanos - System.nanoTime() + 999_999_999L) / 1_000_000_000L);
        s.setTimeout((int) Math.min(Integer.MAX_VALUE, secs));
        long[][] readBefore = SqlSaturation.readBefore(ix);
        try {
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) if (a != b && Bits.get(pco[a], b)) s.addClause(new VecInt(new int[]{before(a, b)}));
            }
            for (int a = 0; a < n; a++) {
                for (int b = a + 1; b < n; b++) {
                    boolean fab = Bits.get(pco[a], b) || Bits.get(pco[b], a);
                    for (int c = b + 1; c < n; c++) {
                        boolean fbc = Bits.get(pco[b], c) || Bits.get(pco[c], b);
                        boolean fac = Bits.get(pco[a], c) || Bits.get(pco[c], a);
                        if (fab && fbc && fac) continue; // pco is closed and acyclic: already a consistent triple
                        s.addClause(new VecInt(new int[]{-before(a, b), -before(b, c), before(a, c)}));
                        s.addClause(new VecInt(new int[]{-before(a, c), before(b, c), before(a, b)}));
                    }
                }
            }
            long[][] soWrPred = SqlSaturation.soWrPred(ix);
            for (int u = 1; u < n; u++) {
                if (ix.level[u] == IsolationLevel.READ_ATOMIC) {
                    readAtomic(s, u, soWrPred[u], byRead, idxByRead, cand, var);
                    continue;
                }
                // src.get(t2): the choice variables of earlier statements of u that saw t2 (make t2 visible).
                List<List<Integer>> src = new ArrayList<>();
                for (int i = 0; i < n; i++) src.add(new ArrayList<>());
                for (SqlIndex.Read r : ix.readsOf.get(u)) {
                    int ri = r.index;
                    // RC: visible to this statement if so-before u or read by an earlier statement of u.
                    long[] soBefore = ix.soPred[u], readEarlier = readBefore[ri];
                    statementClauses(s, u, r, t2 -> Bits.get(soBefore, t2) || Bits.get(readEarlier, t2), src,
                            byRead, idxByRead, cand, var);
                    if (byRead[ri] != null) {
                        for (int j = 0; j < r.keys.length; j++) {
                            if (byRead[ri][j] == null) continue;
                            int ci = idxByRead[ri][j];
                            for (int i = 0; i < cand[ci].length; i++) src.get(cand[ci][i]).add(var[ci][i]);
                        }
                    }
                }
            }
            return s.isSatisfiable() ? Outcome.SAT : Outcome.UNSAT;
        } catch (ContradictionException e) {
            return Outcome.UNSAT;
        } catch (TimeoutException e) {
            return Outcome.TIMEOUT;
        }
    }

    /**
     * RA reader u: t2 is visible to every statement of u when so-before u or read by any statement of u (returned:
     * {@code fixedVis}, already in pco for returned rows; chosen: the choice variables that saw t2).
     */
    private void readAtomic(ISolver s, int u, long[] fixedVis, Conflict[][] byRead, int[][] idxByRead, int[][] cand,
                            int[][] var) throws ContradictionException {
        List<List<Integer>> src = new ArrayList<>();
        for (int i = 0; i < n; i++) src.add(new ArrayList<>());
        for (SqlIndex.Read r : ix.readsOf.get(u)) {
            if (byRead[r.index] == null) continue;
            for (int j = 0; j < r.keys.length; j++) {
                if (byRead[r.index][j] == null) continue;
                int ci = idxByRead[r.index][j];
                for (int i = 0; i < cand[ci].length; i++) src.get(cand[ci][i]).add(var[ci][i]);
            }
        }
        for (SqlIndex.Read r : ix.readsOf.get(u)) {
            statementClauses(s, u, r, t2 -> Bits.get(fixedVis, t2), src, byRead, idxByRead, cand, var);
        }
    }

    /**
     * The clauses of statement r of reader u: each returned row's axiom (every writer of the key visible through a
     * chosen version, {@code src}, commits before the row's writer), and for each of its conflicts the choice of one
     * candidate version z, which commits before u and after every writer of the key visible to r ({@code fixedVisible}:
     * the ones visible whatever is chosen; {@code src}: through a choice variable).
     */
    private void statementClauses(ISolver s, int u, SqlIndex.Read r, java.util.function.IntPredicate fixedVisible,
                                  List<List<Integer>> src, Conflict[][] byRead, int[][] idxByRead, int[][] cand,
                                  int[][] var) throws ContradictionException {
        for (int j = 0; j < r.keys.length; j++) {
            if (r.local[j]) continue;
            int k = r.keys[j];
            int w1 = r.wr[j];
            if (w1 >= 0) {
                for (int t2 : ix.writersOf[k]) {
                    if (t2 == w1 || t2 == u) continue;
                    for (int c : src.get(t2)) s.addClause(new VecInt(new int[]{-c, before(t2, w1)}));
                }
            } else if (byRead[r.index] != null && byRead[r.index][j] != null) {
                int ci = idxByRead[r.index][j];
                if (cand[ci].length == 0) throw new ContradictionException("no version left");
                s.addClause(new VecInt(var[ci].clone()));
                for (int i = 0; i < cand[ci].length; i++) {
                    int z = cand[ci][i], cz = var[ci][i];
                    s.addClause(new VecInt(new int[]{-cz, before(z, u)}));
                    for (int t2 : ix.writersOf[k]) {
                        if (t2 == z || t2 == u) continue;
                        if (fixedVisible.test(t2)) s.addClause(new VecInt(new int[]{-cz, before(t2, z)}));
                        for (int c : src.get(t2)) {
                            if (c != cz) s.addClause(new VecInt(new int[]{-cz, -c, before(t2, z)}));
                        }
                    }
                }
            }
        }
    }
}
