package isostress.checker.general;

/** Counters of {@link PolygraphSolver}, for reports and benchmarks. */
final class SolverStats {
    int rounds, constraints, forced, frontierEdges, openAfterPruning, satIterations, learnedCycles;
    long pruneMs, satMs;
    /**
     * Where the pruning time went, per phase (summed over rounds): the hinted witness, reachability, the orders it
     * forces (frontier), listing the open pairs, pruning them, and the search for a cycle of the derived graph.
     */
    long witnessMs, reachMs, frontierMs, enumerateMs, resolveMs, cycleMs;
    /** Decided by {@link HintWitness}: the hinted version order has no cycle (nothing was pruned). */
    boolean witness;
    /**
     * The violation is a cycle of the known edges and of the version orders reachability forces, found before any
     * open pair was listed (no pruning, no search).
     */
    boolean definite;
    /** Time inside the SAT solver itself (the rest of the SAT phase is building graphs and finding cycles). */
    long solverNanos;

    @Override
    public String toString() {
        return "witness=" + witness + " rounds=" + rounds + " constraints=" + constraints + " forced=" + forced + " frontier_edges="
                + frontierEdges + " open=" + openAfterPruning + " sat_iterations=" + satIterations;
    }
}
