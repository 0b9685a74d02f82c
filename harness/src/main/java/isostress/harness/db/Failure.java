package isostress.harness.db;

import isostress.checker.history.Outcome;

/**
 * What a database error means for the transaction that got it, and whether the run can go on. One rule for every
 * client (JDBC, MongoDB, the sql workload): {@link #of}. docs/design-principles.md: an outcome that is not known is {@code info},
 * never {@code fail}; {@code fail} only when the transaction certainly took no effect, because a write recorded as
 * failed that did commit makes the checker report G1a (aborted read) or a lost update the database never had.
 */
public enum Failure {
    /** Certainly not committed: a documented abort, or any recoverable error before COMMIT (then rolled back). */
    ABORTED(Outcome.FAIL, false),
    /** Maybe committed: the link broke, the server shut down or a timeout struck while COMMIT was in flight. */
    UNKNOWN(Outcome.INFO, false),
    /**
     * An error no rule explains, before COMMIT: the transaction never committed (it is rolled back or its connection
     * discarded, and COMMIT was never sent), but the harness or the schema is likely wrong; the run stops (exit 2).
     */
    FATAL(Outcome.FAIL, true),
    /**
     * An error no rule explains, at COMMIT: the commit may have happened, so the transaction is {@code info}; the run
     * stops (exit 2) as for {@link #FATAL}, since nothing says the next transactions would fare better (a full disk,
     * a broken setting) and a person should look. A lost link or a timeout is {@link #UNKNOWN} instead: faults cause
     * those by design and the run goes on.
     */
    FATAL_IN_DOUBT(Outcome.INFO, true);

    private final Outcome outcome;
    private final boolean stopsRun;

    Failure(Outcome outcome, boolean stopsRun) {
        this.outcome = outcome;
        this.stopsRun = stopsRun;
    }

    /** What the history records: {@code fail} or {@code info}. */
    public Outcome outcome() {
        return outcome;
    }

    /** True when the run must stop after recording the transaction. */
    public boolean stopsRun() {
        return stopsRun;
    }

    /** True when the transaction may have committed: the session continues under a new process id. */
    public boolean inDoubt() {
        return outcome == Outcome.INFO;
    }

    /** What a database's code says about an error, wherever in the transaction it came. */
    public enum Cause {
        /** The database documents that it rolled the transaction back (serialization failure, deadlock, ...). */
        ABORT,
        /**
         * The database did not answer: the connection broke, the server or an administrator ended the session, or a
         * timeout fired. Before COMMIT the transaction cannot commit any more; at COMMIT it may already have.
         */
        INTERRUPTED,
        /** Anything else: not a documented abort, not a lost answer. */
        UNEXPECTED
    }

    /**
     * The one rule. Before COMMIT every error ends in a rollback (or a discarded connection) and COMMIT is never
     * sent, so nothing took effect: {@link #ABORTED}, or {@link #FATAL} when the error is unexpected. At COMMIT only
     * a documented abort proves that nothing took effect; anything else may have committed.
     *
     * @param committing true when the error came from COMMIT (or later), false when from a statement before it
     */
    public static Failure of(Cause cause, boolean committing) {
        switch (cause) {
            case ABORT: return ABORTED;
            case INTERRUPTED: return committing ? UNKNOWN : ABORTED;
            default: return committing ? FATAL_IN_DOUBT : FATAL;
        }
    }
}
