package isostress.harness.faults;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One fault as it happened, for results.json: times are the history's (nanoseconds since the run started).
 *
 * @param kind    the fault's name (kill, pause, partition, latency, drop, crash-primary, ...)
 * @param node    the node it hit
 * @param start   when it began
 * @param end     when it was healed (for kill: when the node served clients again); -1 while active
 * @param healMillis how long healing took (kill: the restart), or 0
 * @param error   why injecting or healing it failed, or null
 * @param leaderBefore on a cluster with a failover manager, its primary when the fault began ("none" when there was
 *                     none); null (and left out of results.json) elsewhere
 * @param leaderAfter  likewise once the fault was healed and the cluster had a primary again (waited for, bounded)
 */
public record FaultRecord(String kind, String node, long start, long end, long healMillis, String error,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String leaderBefore,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String leaderAfter) {
    public FaultRecord {
        error = isostress.harness.db.Secrets.mask(error); // it quotes commands and drivers
    }

    /** A fault on a database without a failover manager. */
    public FaultRecord(String kind, String node, long start, long end, long healMillis, String error) {
        this(kind, node, start, end, healMillis, error, null, null);
    }
}
