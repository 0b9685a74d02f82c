package isostress.harness.db;

/**
 * What a database error means for the transaction that got it (DESIGN.md: an unknown outcome is {@code info},
 * never {@code fail}).
 */
public enum Failure {
    /** Certainly not committed: serialization failure, deadlock, lock timeout, a statement error before COMMIT. */
    ABORTED,
    /** Maybe committed: the connection broke or timed out while COMMIT was in flight. */
    UNKNOWN,
    /** Not the transaction's fault: the harness or the schema is wrong; the run stops (exit 2). */
    FATAL
}
