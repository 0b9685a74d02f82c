package isostress.checker.sql;

import java.util.List;

/**
 * The loop over conflict-free extensions of Bouajjani, Enea, Román-Calvo, CAV 2025, §4, Alg. 3 (lines 9-11), as a
 * backtracking search instead of the plain mixed-radix enumeration, because random predicates over mutable columns
 * give tens of conflicts (10^10 extensions) where the enumeration times out.
 *
 * <p>Why it is still exact: [1] adding wr edges only grows the saturated pco (every visibility is monotone in wr and
 * co), so a partial choice whose pco is cyclic has no consistent completion and its subtree is cut; [2] a version
 * pco-after the reader can never be the one it saw, so it is not tried; [3] a conflict whose matching writers have
 * all become pco-after the reader needs no choice any more (the §4 argument for non-conflicts: the co-latest visible
 * writer is then non-matching and adding that edge adds no visibility); [4] a conflict with matching writers left but
 * no non-matching version left cuts the branch. The next conflict is the one with the fewest versions left
 * (first-fail). Leaves run {@link SqlPrefixSearch} (Alg. 4).
 */
final class ExtensionSearch {
    enum Outcome { FOUND, NONE, BUDGET, RESTART }

    /** Nodes of the first run before a restart; each restart doubles it, so the last run is complete. */
    private static final long FIRST_LIMIT = 200;

    /** A read r and the index j of key x in it, with the writers whose x matches WHERE(r) and those whose does not. */
    record Conflict(SqlIndex.Read read, int j, int[] zeros, int[] ones) {}

    private final SqlIndex ix;
    private final List<Conflict> conflicts;
    private final SqlChecker.Budget budget;
    private final boolean[] assigned;
    long leaves;
    long nodes;
    int depth;
    int maxDepth;
    int restarts;
    private long limit;
    private long runNodes;
    private final java.util.Random random = new java.util.Random(1);

    private final List<Conflict> serConflicts;
    private final List<Conflict> rcConflicts;

    /**
     * @param conflicts    the conflicts whose versions this search chooses
     * @param serConflicts the conflicts of SER readers, left to {@link SqlPrefixSearch} (the commit order decides them)
     */
    ExtensionSearch(SqlIndex ix, List<Conflict> conflicts, List<Conflict> serConflicts, SqlChecker.Budget budget) {
        this(ix, conflicts, serConflicts, List.of(), budget);
    }

    /** @param rcConflicts RC conflicts for {@link SqlPrefixSearch} to resolve greedily (a fast path: NONE is not final) */
    ExtensionSearch(SqlIndex ix, List<Conflict> conflicts, List<Conflict> serConflicts, List<Conflict> rcConflicts,
                    SqlChecker.Budget budget) {
        this.rcConflicts = rcConflicts;
        this.ix = ix;
        this.conflicts = conflicts;
        this.serConflicts = serConflicts;
        this.budget = budget;
        this.assigned = new boolean[conflicts.size()];
    }

    /**
     * Runs the search with restarts: a run that visits more than its node limit starts over with random tie-breaks
     * and twice the limit (Luby et al.'s remedy for heavy-tailed backtracking). Each run is a complete backtracking
     * search up to its limit, and the limit grows without bound, so NONE still means no extension works.
     */
    Outcome run(long[][] pco) {
        try {
            limit = FIRST_LIMIT;
            while (true) {
                runNodes = 0;
                Outcome o = extend(pco);
                if (o != Outcome.RESTART) return o;
                restarts++;
                limit *= 2;
            }
        } finally {
            for (Conflict c : conflicts) c.read().wr[c.j()] = -1;
        }
    }

    /**
     * The versions still possible for c, most likely first: a reader sees the co-latest visible version, so versions
     * already pco-before the reader come first, later ones (more pco-predecessors) before earlier ones.
     */
    private int[] order(Conflict c, long[][] pco) {
        int u = c.read().node;
        List<int[]> cand = new java.util.ArrayList<>();
        for (int z : c.zeros()) {
            if (Bits.get(pco[u], z)) continue;
            int preds = 0;
            for (int a = 0; a < ix.n; a++) if (Bits.get(pco[a], z)) preds++;
            cand.add(new int[]{z, Bits.get(pco[z], u) ? 1 : 0, preds});
        }
        if (restarts > 0) for (int[] x : cand) x[2] += random.nextInt(1 + restarts);
        if (ix.level[u] == isostress.checker.model.IsolationLevel.READ_COMMITTED) {
            // RC: the earliest version after the visible writers constrains least (it only joins the visible set
            // of the later statements, where an earlier writer is easier to place), so earliest first.
            cand.sort((x, y) -> x[2] - y[2]);
        } else {
            cand.sort((x, y) -> x[1] != y[1] ? y[1] - x[1] : y[2] - x[2]);
        }
        int[] out = new int[cand.size()];
        for (int i = 0; i < out.length; i++) out[i] = cand.get(i)[0];
        return out;
    }

    private Outcome extend(long[][] pco) {
        if (budget.timeUp()) return Outcome.BUDGET;
        nodes++;
        if (++runNodes > limit) return Outcome.RESTART;
        maxDepth = Math.max(maxDepth, depth);
        int best = -1, bestLeft = Integer.MAX_VALUE;
        for (int ci = 0; ci < conflicts.size(); ci++) {
            if (assigned[ci]) continue;
            Conflict c = conflicts.get(ci);
            long[] after = pco[c.read().node];
            boolean live = false;
            for (int t : c.ones()) live |= !Bits.get(after, t);
            if (!live) continue;
            int left = 0;
            for (int t : c.zeros()) if (!Bits.get(after, t)) left++;
            if (left == 0) return Outcome.NONE;
            if (left < bestLeft || (left == bestLeft && restarts > 0 && random.nextInt(4) == 0)) {
                best = ci;
                bestLeft = left;
            }
        }
        if (best < 0) {
            leaves++;
            SqlPrefixSearch.Outcome o = new SqlPrefixSearch(ix, pco, budget, serConflicts, rcConflicts).run();
            return o == SqlPrefixSearch.Outcome.FOUND ? Outcome.FOUND : o == SqlPrefixSearch.Outcome.BUDGET ? Outcome.BUDGET : Outcome.NONE;
        }
        Conflict c = conflicts.get(best);
        assigned[best] = true;
        depth++;
        try {
            for (int z : order(c, pco)) {
                c.read().wr[c.j()] = z;
                SqlSaturation.Pco p = SqlSaturation.run(ix, false, pco);
                Outcome o = p.cyclic() ? Outcome.NONE : extend(p.closed());
                if (o != Outcome.NONE) return o;
            }
            return Outcome.NONE;
        } finally {
            c.read().wr[c.j()] = -1;
            assigned[best] = false;
            depth--;
        }
    }
}
