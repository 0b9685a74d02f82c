package isostress.checker.general;

/** Counters of {@link PolygraphSolver}, for reports and benchmarks. */
final class SolverStats {
    int rounds, constraints, forced, frontierEdges, openAfterPruning, satIterations, learnedCycles;
    long pruneMs, satMs;
    /** Decided by {@link HintWitness}: the hinted version order has no cycle (nothing was pruned). */
    boolean witness;
    /** Time inside the SAT solver itself (the rest of the SAT phase is building graphs and finding cycles). */
    long solverNanos;

    @Override
    public String toString() {
        return "witness=" + witness + " rounds=" + rounds + " constraints=" + constraints + " forced=" + forced + " frontier_edges="
                + frontierEdges + " open=" + openAfterPruning + " sat_iterations=" + satIterations;
    }
}
