package isostress.checker.mini;

import isostress.checker.graph.Acyclicity;
import isostress.checker.graph.Csr;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Step;

import java.util.ArrayList;
import java.util.List;

/**
 * Snapshot isolation of a mini-transaction history: MTC's CheckSI (Wei et al., §IV-B, Alg. 1; Theorem 2), O(n).
 *
 * <p>First the Divergence pattern (line 2, {@link LostUpdates}); then acyclicity of the induced graph
 * G' = (SO ∪ WR ∪ WW) ; RW? (line 5; Def. 6, after Cerone &amp; Gotsman). Rather than materialise the composition,
 * whose size is the product of in- and out-degrees, the search runs on a two-layer graph: node (u,0) is "reached u by
 * a non-RW edge", (u,1) "reached u by an RW edge"; non-RW edges lead into layer 0 from both layers, RW edges only from
 * layer 0 into layer 1. A cycle of this graph is a cycle of the dependency graph with no two consecutive RW edges
 * (cyclically), i.e. a cycle of G'. It has 2n nodes and fewer than twice G's edges.
 */
final class SiChecker {
    static final String ALGORITHM = "MTC CheckSI (Wei et al. §IV-B Alg. 1, Theorem 2)";

    private SiChecker() {
    }

    /** Returns the number of cyclic components of the layered graph (each reported as an anomaly). */
    static int cycles(MiniContext ctx) {
        Csr g = ctx.g().main();
        // A cycle of the layered graph projects onto a cycle of the dependency graph, so an acyclic dependency graph
        // (checked by Kahn's algorithm, cheaply) settles SI without building the layered graph.
        if (Acyclicity.isAcyclic(g)) return 0;
        Csr layered = Csr.build(2 * g.n, sink -> {
            for (int u = 0; u < g.n; u++) {
                for (int p = g.off[u]; p < g.off[u + 1]; p++) {
                    int v = g.tgt[p];
                    if (ctx.g().kind(g.id(p)) == EdgeKind.RW) {
                        sink.edge(2 * u, 2 * v + 1, p);
                    } else {
                        sink.edge(2 * u, 2 * v, p);
                        sink.edge(2 * u + 1, 2 * v, p);
                    }
                }
            }
        });
        return SccCycles.report(layered, layered.n, ctx, (start, positions) -> {
            List<Step> steps = new ArrayList<>(positions.length);
            for (int pos : positions) {
                int p = layered.id(pos); // a position in g
                steps.add(ctx.reporter().best(g.source(p), g.tgt[p], g));
            }
            return steps;
        }, steps -> ctx.reporter().cycle(steps, IsolationLevel.SNAPSHOT_ISOLATION));
    }
}
