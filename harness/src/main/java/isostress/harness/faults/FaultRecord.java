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
 * @param newPrimaryMillis on such a cluster, ms from the fault's start until the history's leader events name a
 *                         member other than leaderBefore; -1 when none did during the fault or within 60 s after
 *                         it; null (left out) elsewhere ({@link FaultFigures})
 * @param noCommitMillis   on such a cluster, the longest stretch in ms without any acknowledged commit that overlaps
 *                         the fault; -1 when the sessions had stopped before it began; null elsewhere
 */
public record FaultRecord(String kind, String node, long start, long end, long healMillis, String error,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String leaderBefore,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String leaderAfter,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Long newPrimaryMillis,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Long noCommitMillis) {
    public FaultRecord {
        error = isostress.harness.db.Secrets.mask(error); // it quotes commands and drivers
    }

    /** A fault on a database without a failover manager. */
    public FaultRecord(String kind, String node, long start, long end, long healMillis, String error) {
        this(kind, node, start, end, healMillis, error, null, null);
    }

    /** A fault as the nemesis records it, before the run's history gives its figures. */
    public FaultRecord(String kind, String node, long start, long end, long healMillis, String error,
                       String leaderBefore, String leaderAfter) {
        this(kind, node, start, end, healMillis, error, leaderBefore, leaderAfter, null, null);
    }

    /** This fault with the figures the history gives it. */
    public FaultRecord withFigures(long newPrimaryMillis, long noCommitMillis) {
        return new FaultRecord(kind, node, start, end, healMillis, error, leaderBefore, leaderAfter,
                newPrimaryMillis, noCommitMillis);
    }
}
