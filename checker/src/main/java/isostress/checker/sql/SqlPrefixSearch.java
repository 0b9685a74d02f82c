package isostress.checker.sql;

import isostress.checker.model.IsolationLevel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * EXPLORECONSISTENTPREFIXES: Bouajjani, Enea, Román-Calvo, CAV 2025, §4, Alg. 4 (generalising Biswas &amp; Enea's
 * commit-order search for SER), on one conflict-free extension h′ with its saturated pco.
 *
 * <p>A prefix P is so-downward closed, held as a per-session frontier; for SI also M_P, the last writer added per
 * key. Adding t (so co = P &lt; t &lt; the rest) is a consistent extension (Def. 10) when [1] every pco-predecessor
 * of t is in P, and [2] t overwrites nothing a later reader u ∉ P ∪ {t} still needs: no read r of u reading key x
 * from t1 ∈ P with t writing x and t visible to r under u's level in that co —
 * RC/RA: t ∈ (so ∪ wr)-predecessors of u (of r for RC); PC and SI's Prefix: some t4 ∉ P is an (so ∪ wr)-predecessor
 * of u (t4 = t or later, hence co*-after t); SER: always. SI's Conflict: if t writes a key u writes, then every key u
 * reads from a t1 ∈ P ∪ {t} must have t1 = M_{P∪{t}}(x). Failed prefixes are memoised under ≡_iso(h): the frontier,
 * plus M_P when some transaction is SI (Alg. 4, "seen"); O(|h|^width · width^|Keys|) states.
 */
final class SqlPrefixSearch {
    enum Outcome { FOUND, NONE, BUDGET }

    /** A memo key: the frontier, then M_P when needed. */
    private record State(int[] v) {
        @Override
        public boolean equals(Object o) {
            return o instanceof State s && Arrays.equals(v, s.v);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(v);
        }
    }

    private final SqlIndex ix;
    private final long[][] pcoPred;
    private final long[][] soWrPred;
    private final long[][] before;
    private final SqlChecker.Budget budget;
    private final long[] inP;
    private final int[] frontier;
    private final int[] last;
    private final Set<State> seen = new HashSet<>();
    /** Per node, its SER readers' unresolved conflicts (see {@link #seesNoMatch}). */
    private final List<List<ExtensionSearch.Conflict>> lazy = new ArrayList<>();
    /** M_P is needed for SI's Conflict axiom and for the SER conflicts resolved here; then it is in the memo key. */
    private final boolean trackLast;

    /** Per read index, the keys whose RC conflicts are resolved greedily here (null: none); see {@link #rcReads}. */
    private final boolean[][] rcLazy;
    private final boolean[] rcNode;
    /** Position of each node in the commit order being built (init = 0). */
    private final int[] pos;
    private int placed;

    SqlPrefixSearch(SqlIndex ix, long[][] pco, SqlChecker.Budget budget, List<ExtensionSearch.Conflict> serConflicts) {
        this(ix, pco, budget, serConflicts, List.of());
    }

    /**
     * @param rcConflicts RC readers' conflicts to resolve greedily when their transaction is placed. Then the memo key
     *                    is not enough (the greedy choice depends on the order inside P), so NONE is only "not found":
     *                    {@link SqlChecker} uses this as a fast path and falls back to choosing them in
     *                    {@link ExtensionSearch}. FOUND stays sound: the order and the chosen versions are a witness.
     */
    SqlPrefixSearch(SqlIndex ix, long[][] pco, SqlChecker.Budget budget, List<ExtensionSearch.Conflict> serConflicts,
                 List<ExtensionSearch.Conflict> rcConflicts) {
        this.ix = ix;
        rcLazy = new boolean[ix.reads.size()][];
        rcNode = new boolean[ix.n];
        for (ExtensionSearch.Conflict c : rcConflicts) {
            SqlIndex.Read r = c.read();
            if (rcLazy[r.index] == null) rcLazy[r.index] = new boolean[r.keys.length];
            rcLazy[r.index][c.j()] = true;
            rcNode[r.node] = true;
        }
        pos = new int[ix.n];
        this.budget = budget;
        for (int i = 0; i < ix.n; i++) lazy.add(new ArrayList<>());
        for (ExtensionSearch.Conflict c : serConflicts) lazy.get(c.read().node).add(c);
        trackLast = ix.anySi || !serConflicts.isEmpty();
        int n = ix.n;
        pcoPred = Bits.matrix(n);
        for (int a = 0; a < n; a++) for (int b = 0; b < n; b++) if (Bits.get(pco[a], b)) Bits.set(pcoPred[b], a);
        soWrPred = SqlSaturation.soWrPred(ix);
        before = SqlSaturation.readBefore(ix);
        inP = Bits.row(n);
        Bits.set(inP, 0);
        frontier = new int[ix.sessions.length];
        last = new int[ix.keyNames.size()];
    }

    Outcome run() {
        return explore(ix.n - 1);
    }

    private Outcome explore(int remaining) {
        if (remaining == 0) return Outcome.FOUND;
        for (int s = 0; s < frontier.length; s++) {
            if (frontier[s] == ix.sessions[s].length) continue;
            int t = ix.sessions[s][frontier[s]];
            if (!Bits.subset(pcoPred[t], inP) || !safe(t) || !seesNoMatch(t)) continue;
            if (rcNode[t] && !rcReads(t)) continue;
            if (!budget.spend()) return Outcome.BUDGET;
            pos[t] = ++placed;
            int[] saved = null;
            Bits.set(inP, t);
            frontier[s]++;
            if (trackLast) {
                saved = last.clone();
                for (int k : ix.writes.get(t).keySet()) last[k] = t;
            }
            State st = key();
            Outcome o = seen.contains(st) ? Outcome.NONE : explore(remaining - 1);
            if (o == Outcome.NONE) seen.add(st);
            Bits.clear(inP, t);
            frontier[s]--;
            placed--;
            if (saved != null) System.arraycopy(saved, 0, last, 0, last.length);
            if (o != Outcome.NONE) return o;
        }
        return Outcome.NONE;
    }

    private State key() {
        int[] v = trackLast ? Arrays.copyOf(frontier, frontier.length + last.length) : frontier.clone();
        if (trackLast) System.arraycopy(last, 0, v, frontier.length, last.length);
        return new State(v);
    }

    /**
     * A SER reader t added after P sees, for a key x its statement did not return, the co-latest writer before it:
     * M_P(x) (every transaction committed before t is visible under SER). That version must not match the WHERE
     * clause. Resolving SER conflicts here, instead of choosing their versions in {@link ExtensionSearch}, is exact:
     * the version is determined by the commit order, and a SER reader's wr edges matter to no axiom but its own
     * (SER visibility does not use wr).
     */
    private boolean seesNoMatch(int t) {
        for (ExtensionSearch.Conflict c : lazy.get(t)) {
            int k = c.read().keys[c.j()];
            if (c.read().where().test(ix.finalWrite(last[k], k).value())) return false;
        }
        return true;
    }

    /**
     * Places RC reader t after P (whose order is {@link #pos}) and checks all its reads against RC's axiom, choosing
     * for each lazily resolved conflict the earliest non-matching version of the key that is not older than the
     * latest writer visible to the statement (so-before t, or read by an earlier statement of t, any key). The
     * earliest choice dominates: the chosen version only joins the visible set of t's later statements, where an
     * earlier writer satisfies every "must commit before" at least as easily.
     */
    private boolean rcReads(int t) {
        long[] vis = ix.soPred[t].clone();
        for (SqlIndex.Read r : ix.readsOf.get(t)) {
            int[] seen = new int[r.keys.length];
            for (int j = 0; j < r.keys.length; j++) {
                seen[j] = -1;
                if (r.local[j]) continue;
                int k = r.keys[j];
                int lb = 0;
                for (int w : ix.writersOf[k]) if (Bits.get(vis, w) && pos[w] > lb) lb = pos[w];
                int t1 = r.wr[j];
                if (t1 >= 0) {
                    for (int w : ix.writersOf[k]) if (w != t1 && Bits.get(vis, w) && pos[w] > pos[t1]) return false;
                    seen[j] = t1;
                } else if (rcLazy[r.index] != null && rcLazy[r.index][j]) {
                    int best = -1;
                    for (int w : ix.writersOf[k]) {
                        if (w == t || !Bits.get(inP, w) || pos[w] < lb) continue;
                        if (r.where().test(ix.finalWrite(w, k).value())) continue;
                        if (best < 0 || pos[w] < pos[best]) best = w;
                    }
                    if (best < 0) return false;
                    seen[j] = best;
                }
            }
            for (int w : seen) if (w >= 0) Bits.set(vis, w);
        }
        return true;
    }

    /** Def. 10 condition 2 for adding t after P. */
    private boolean safe(int t) {
        for (int ri = 0; ri < ix.reads.size(); ri++) {
            SqlIndex.Read r = ix.reads.get(ri);
            int u = r.node;
            if (u == t || Bits.get(inP, u)) continue;
            IsolationLevel lv = ix.level[u];
            boolean conflict = lv == IsolationLevel.SNAPSHOT_ISOLATION && Bits.get(ix.wwShare[u], t);
            for (int j = 0; j < r.keys.length; j++) {
                int w1 = r.wr[j];
                if (w1 < 0) continue;
                int k = r.keys[j];
                boolean tWrites = ix.writes(t, k);
                if (conflict && (w1 == t || Bits.get(inP, w1)) && (tWrites ? t : last[k]) != w1) return false;
                if (w1 == t || !tWrites || !Bits.get(inP, w1)) continue;
                if (visible(lv, t, u, ri)) return false;
            }
        }
        return true;
    }

    private boolean visible(IsolationLevel lv, int t, int u, int ri) {
        switch (lv) {
            case READ_COMMITTED:
                return Bits.get(ix.soPred[u], t) || Bits.get(before[ri], t);
            case READ_ATOMIC:
                return Bits.get(soWrPred[u], t);
            case PREFIX:
            case SNAPSHOT_ISOLATION:
                return !Bits.subset(soWrPred[u], inP);
            default:
                return true;
        }
    }
}
