package isostress.checker.model;

/**
 * Limits for a check. Searches that hit a limit answer {@code unknown} with the reason, never a guess
 * (as Elle's {@code :cycle-search-timeout}, Porcupine's {@code CheckOperationsTimeout}).
 *
 * @param anomaliesPerType    counterexamples listed per anomaly name; the rest are counted
 * @param cycleSearchBudget   edge visits spent looking for the shortest cycle of one strongly connected component
 * @param reachabilityBudget  edge visits for the causal-consistency reachability checks, over the whole history
 * @param searchBudget        states the prefix search (Biswas &amp; Enea §4) may visit
 * @param solverTimeoutMillis time the general checker's polygraph pruning and SAT search may take per level
 * @param maxOpenPairs        pairs of writes of one key that reachability leaves unordered, at most (memory bound)
 * @param polygraphPruning    prune the polygraph before the SAT search (PolySI §4.3); off is an ablation, exact but
 *                            slower, used by tests to exercise the SAT search on small histories
 * @param weakerLevels        when a requested level is violated, also examine the weaker ones to name the weakest
 *                            violated; off answers only the requested levels (a check that only needs "is it
 *                            violated?", like the harness's check while running, saves the weaker levels' searches)
 */
public record CheckOptions(int anomaliesPerType, long cycleSearchBudget, long reachabilityBudget, long searchBudget,
                           long solverTimeoutMillis, long maxOpenPairs, boolean polygraphPruning,
                           boolean weakerLevels) {

    public static final CheckOptions DEFAULTS = new CheckOptions(10, 2_000_000, 200_000_000, 2_000_000, 300_000,
            50_000_000, true, true);

    public CheckOptions withWeakerLevels(boolean on) {
        return new CheckOptions(anomaliesPerType, cycleSearchBudget, reachabilityBudget, searchBudget,
                solverTimeoutMillis, maxOpenPairs, polygraphPruning, on);
    }

    public CheckOptions withPolygraphPruning(boolean on) {
        return new CheckOptions(anomaliesPerType, cycleSearchBudget, reachabilityBudget, searchBudget,
                solverTimeoutMillis, maxOpenPairs, on, weakerLevels);
    }

    public CheckOptions withSearchBudget(long states) {
        return new CheckOptions(anomaliesPerType, cycleSearchBudget, reachabilityBudget, states, solverTimeoutMillis,
                maxOpenPairs, polygraphPruning, weakerLevels);
    }

    public CheckOptions withAnomaliesPerType(int n) {
        return new CheckOptions(n, cycleSearchBudget, reachabilityBudget, searchBudget, solverTimeoutMillis,
                maxOpenPairs, polygraphPruning, weakerLevels);
    }

    public CheckOptions withSolverTimeoutMillis(long millis) {
        return new CheckOptions(anomaliesPerType, cycleSearchBudget, reachabilityBudget, searchBudget, millis,
                maxOpenPairs, polygraphPruning, weakerLevels);
    }

    public CheckOptions withMaxOpenPairs(long pairs) {
        return new CheckOptions(anomaliesPerType, cycleSearchBudget, reachabilityBudget, searchBudget,
                solverTimeoutMillis, pairs, polygraphPruning, weakerLevels);
    }
}
