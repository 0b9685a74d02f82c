package isostress.checker.general;

/** Counters of {@link PolygraphSolver}, for reports and benchmarks. */
final class SolverStats {
    int rounds, constraints, forced, frontierEdges, openAfterPruning, satIterations, learnedCycles;
    long pruneMs, satMs;
    /** Time inside the SAT solver itself (the rest of the SAT phase is building graphs and finding cycles). */
    long solverNanos;

    @Override
    public String toString() {
        return "rounds=" + rounds + " constraints=" + constraints + " forced=" + forced + " frontier_edges="
                + frontierEdges + " open=" + openAfterPruning + " sat_iterations=" + satIterations;
    }
}
