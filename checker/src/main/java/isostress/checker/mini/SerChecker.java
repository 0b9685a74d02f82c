package isostress.checker.mini;

import isostress.checker.graph.Csr;
import isostress.checker.model.IsolationLevel;

/**
 * Serializability of a mini-transaction history: MTC's CheckSER (Wei et al., §IV-B, Alg. 1) on the optimised graph
 * of §IV-C (no transitive closure of WW; Theorem 1), in O(n).
 *
 * <p>The history is serializable iff it has no non-cycle anomaly, no lost update (Lemma 1: a Divergence is not even
 * SI) and its dependency graph is acyclic (Def. 5; the graph is unique once there is no Divergence, §IV-A).
 */
final class SerChecker {
    static final String ALGORITHM = "MTC CheckSER (Wei et al. §IV-B Alg. 1, §IV-C)";

    private SerChecker() {
    }

    /** Returns the number of cyclic strongly connected components found (each reported). */
    static int cycles(MiniContext ctx) {
        Csr csr = ctx.g().main();
        return SccCycles.report(csr, csr.n, ctx,
                (start, pos) -> ctx.reporter().steps(nodes(csr, start, pos), csr),
                steps -> ctx.reporter().cycle(steps, IsolationLevel.SERIALIZABLE));
    }

    /** The nodes a cycle visits, starting at {@code start}. */
    static int[] nodes(Csr csr, int start, int[] positions) {
        int[] nodes = new int[positions.length];
        nodes[0] = start;
        for (int i = 1; i < positions.length; i++) nodes[i] = csr.tgt[positions[i - 1]];
        return nodes;
    }
}
