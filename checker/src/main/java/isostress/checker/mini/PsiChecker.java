package isostress.checker.mini;

import isostress.checker.graph.Csr;
import isostress.checker.graph.PsiReachability;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Step;

import java.util.ArrayList;
import java.util.List;

/**
 * Parallel snapshot isolation of a mini-transaction history without lost updates (a lost update breaks
 * NOCONFLICT and is decided before: {@link LostUpdates}). Then the version order is the one the reads give (MTC
 * §IV-A: unique once there is no Divergence), and PSI holds iff ((SO ∪ WR ∪ WW)+ ; RW?) is irreflexive (Cerone &amp;
 * Gotsman, J.ACM 2018, §4), which {@link PsiReachability} decides in O(edges x sessions).
 *
 * <p>On such histories PSI coincides with causal consistency: every writer of a key read the previous version, so
 * conflicting writers are already ordered by visibility and NOCONFLICT adds nothing; the differential test against
 * the brute-force reference checks both. Counterexamples are G-single cycles (D path plus the rw edge), which the
 * reporter names as for the causal check.
 */
final class PsiChecker {
    static final String ALGORITHM = "no cycle with at most one rw edge, ((so ∪ wr ∪ ww)+ ; rw?) irreflexive "
            + "(Cerone & Gotsman, J.ACM 2018, §4), by per-session reachability vectors";
    /** What a violation is, for the verdict's reason. */
    static final String WHAT = "dependency cycle with at most one rw edge";

    private PsiChecker() {
    }

    /** The number of violations (dependency cycles without rw, or rw edges closing a cycle), each reported. */
    static int violations(MiniContext ctx) {
        MiniGraph mg = ctx.g();
        Csr main = mg.main();
        int n = main.n;
        // D = the non-rw edges of the graph and the rw edges apart: marked by position rather than copied (issue
        // 15: 100M transactions in 20 GB).
        boolean[] rw = new boolean[main.edgeCount()];
        for (int p = 0; p < rw.length; p++) rw[p] = mg.kind(main.id(p)) == EdgeKind.RW;
        int[] session = new int[n], pos = new int[n];
        int sessions = sessions(ctx, session, pos);
        List<int[]> witnesses = new ArrayList<>();
        int found = PsiReachability.check(main, rw, sessions, session, pos, ctx.options().anomaliesPerType(),
                (i, path) -> {
                    if (path != null) witnesses.add(cycle(i, path));
                });
        if (found < 0) {
            // A cycle without rw edges (G0/G1c): reported as the serializability check reports cycles.
            Csr dep = Csr.build(n, sink -> {
                for (int u = 0; u < n; u++) {
                    for (int p = main.off[u]; p < main.off[u + 1]; p++) if (!rw[p]) sink.edge(u, main.tgt[p], main.id(p));
                }
            });
            return SccCycles.report(dep, n, ctx,
                    (start, positions) -> ctx.reporter().steps(SerChecker.nodes(dep, start, positions), dep),
                    steps -> ctx.reporter().cycle(steps, IsolationLevel.PARALLEL_SNAPSHOT_ISOLATION));
        }
        rwIds(main, rw, witnesses);
        for (int[] w : witnesses) {
            List<Step> steps = new ArrayList<>(w.length);
            steps.add(ctx.reporter().step(w[0]));
            for (int i = 1; i < w.length; i++) {
                int p = w[i];
                steps.add(ctx.reporter().best(main.source(p), main.tgt[p], main));
            }
            ctx.anomalies().add(ctx.reporter().cycle(steps, IsolationLevel.PARALLEL_SNAPSHOT_ISOLATION));
        }
        return found;
    }

    /** Replaces each witness's rw edge number (its rank among the rw positions) by its edge id, in one pass. */
    private static void rwIds(Csr main, boolean[] rw, List<int[]> witnesses) {
        if (witnesses.isEmpty()) return;
        List<int[]> byRank = new ArrayList<>(witnesses);
        byRank.sort((x, y) -> Integer.compare(x[0], y[0]));
        int next = 0, rank = 0;
        for (int p = 0; p < rw.length && next < byRank.size(); p++) {
            if (!rw[p]) continue;
            while (next < byRank.size() && byRank.get(next)[0] == rank) byRank.get(next++)[0] = main.id(p);
            rank++;
        }
    }

    /** The rw edge (first its number among the rw edges, then its id), then the positions of the path back. */
    private static int[] cycle(int rwEdge, int[] path) {
        int[] out = new int[path.length + 1];
        out[0] = rwEdge;
        System.arraycopy(path, 0, out, 1, path.length);
        return out;
    }

    /** Sessions of the committed transactions (one per process) and positions in them; returns their number. */
    private static int sessions(MiniContext ctx, int[] session, int[] pos) {
        LongPairIntMap ids = new LongPairIntMap(64);
        int[] size = new int[16];
        int count = 0;
        for (int t = 0; t < session.length; t++) {
            if (!ctx.m().included[t]) {
                session[t] = -1;
                continue;
            }
            long p = ctx.m().h.process(t);
            int s = ids.get(p, 0);
            if (s == LongPairIntMap.MISSING) {
                s = count++;
                ids.put(p, 0, s);
                if (s == size.length) size = java.util.Arrays.copyOf(size, 2 * s);
            }
            session[t] = s;
            pos[t] = size[s]++;
        }
        return count;
    }
}
