package isostress.harness.faults;

/**
 * One fault as it happened, for results.json: times are the history's (nanoseconds since the run started).
 *
 * @param kind    kill, pause, partition, latency or drop
 * @param node    the node it hit
 * @param start   when it began
 * @param end     when it was healed (for kill: when the node served clients again); -1 while active
 * @param healMillis how long healing took (kill: the restart), or 0
 * @param error   why injecting or healing it failed, or null
 */
public record FaultRecord(String kind, String node, long start, long end, long healMillis, String error) {
    public FaultRecord {
        error = isostress.harness.db.Secrets.mask(error); // it quotes commands and drivers
    }
}
