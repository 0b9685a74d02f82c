package isostress.checker.history;

import java.util.List;

/**
 * One transaction of a history: its invocation and completion paired up.
 *
 * @param id            dense position in its {@link History}, from 0
 * @param process       the client session (Jepsen process); a session that ends in {@code info} continues under a
 *                      new process id
 * @param outcome       ok, fail or info
 * @param ops           the completion's micro-ops (the invocation's for a transaction that never completed)
 * @param invokeIndex   global event index of the invocation; real-time order is derived from indices, not clocks
 * @param completeIndex global event index of the completion, or {@link History#PENDING} when it never completed
 * @param invokeTime    ns since the run started, or -1 when the history has no times
 * @param completeTime  ns since the run started, or -1
 * @param line          1-based line of the completion (or invocation) in the source file, 0 when built in memory
 * @param node          the database node that served it, or null
 * @param isolation     the isolation level it ran at (mixed-level histories), or null
 */
public record Txn(int id, long process, Outcome outcome, List<MicroOp> ops,
                  long invokeIndex, long completeIndex, long invokeTime, long completeTime,
                  int line, String node, String isolation) {

    public Txn {
        ops = List.copyOf(ops);
    }

    /** True when no completion event was ever recorded (the run ended or crashed first). */
    public boolean pending() {
        return completeIndex == History.PENDING;
    }

    /** A short label like {@code T12}, as used in counterexamples. */
    public String label() {
        return "T" + id;
    }
}
