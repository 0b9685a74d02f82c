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
 * Alg. 3 of Bouajjani, Enea, Román-Calvo, CAV 2025 (§4) for histories whose readers are all RC or RA (saturable
 * levels) and whose conflicts are all RC readers', as one SAT problem instead of a search over extensions × orders.
 *
 * <p>Variables: one per pair a &lt; b of nodes ("a commits before b"), with the two 3-cycle clauses per triple, so a
 * model is a strict total order (a commit order); and one per conflict (r, x) and version z of x in its 0-set ("r saw
 * z"). Clauses, each an instance of Eq. 1 for RC (Fig. 3) or of wr ⊆ co:
 * <ol>
 *   <li>every pair in the saturated pco (so, wr, and the RC/RA axioms of the returned rows, which Alg. 1 already
 *       decided because both levels are saturable) is a unit;</li>
 *   <li>each conflict sees at least one of its versions z, and then z commits before the reader (wr ⊆ co);</li>
 *   <li>RC axiom, for a read r of u with version w1 of x (returned, or a chosen z): every writer t2 ≠ w1, u of x
 *       visible to r commits before w1; t2 is visible when so-before u, read by an earlier statement of u
 *       (returned: a unit; chosen: "¬(earlier statement saw t2) ∨ t2 &lt; w1").</li>
 * </ol>
 * RA readers' visibility, (so ∪ wr) into their own transaction, does not change with the RC choices, so their axioms
 * are all in pco already. A model is a conflict-free extension h′ ∈ X_h plus a commit order satisfying every axiom of
 * h′, and every such pair is a model: satisfiable iff Alg. 3 answers true (Thm. 5), without enumerating X_h.
 */
final class RcSat {
    enum Outcome { SAT, UNSAT, TIMEOUT }

    private final SqlIndex ix;
    private final int n;

    private RcSat(SqlIndex ix) {
        this.ix = ix;
        this.n = ix.n;
    }

    /** Whether {@link #solve} applies: RC and RA readers only, and the given conflicts are all RC readers'. */
    static boolean applies(SqlIndex ix) {
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
            if (ix.level[u] != IsolationLevel.READ_COMMITTED) throw new IllegalArgumentException("not an RC conflict");
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
        long[][] readBefore = Saturation.readBefore(ix);
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
            for (int u = 1; u < n; u++) {
                if (ix.level[u] != IsolationLevel.READ_COMMITTED) continue;
                // src.get(t2): the choice variables of earlier statements of u that saw t2 (make t2 visible).
                List<List<Integer>> src = new ArrayList<>();
                for (int i = 0; i < n; i++) src.add(new ArrayList<>());
                for (SqlIndex.Read r : ix.readsOf.get(u)) {
                    int ri = r.index;
                    for (int j = 0; j < r.keys.length; j++) {
                        if (r.local[j]) continue;
                        int k = r.keys[j];
                        int w1 = r.wr[j];
                        if (w1 >= 0) {
                            for (int t2 : ix.writersOf[k]) {
                                if (t2 == w1 || t2 == u) continue;
                                for (int c : src.get(t2)) s.addClause(new VecInt(new int[]{-c, before(t2, w1)}));
                            }
                        } else if (byRead[ri] != null && byRead[ri][j] != null) {
                            int ci = idxByRead[ri][j];
                            if (cand[ci].length == 0) return Outcome.UNSAT;
                            s.addClause(new VecInt(var[ci].clone()));
                            for (int i = 0; i < cand[ci].length; i++) {
                                int z = cand[ci][i], cz = var[ci][i];
                                s.addClause(new VecInt(new int[]{-cz, before(z, u)}));
                                for (int t2 : ix.writersOf[k]) {
                                    if (t2 == z || t2 == u) continue;
                                    if (Bits.get(ix.soPred[u], t2) || Bits.get(readBefore[ri], t2)) {
                                        s.addClause(new VecInt(new int[]{-cz, before(t2, z)}));
                                    }
                                    for (int c : src.get(t2)) s.addClause(new VecInt(new int[]{-cz, -c, before(t2, z)}));
                                }
                            }
                        }
                    }
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
}
