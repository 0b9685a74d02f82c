package isostress.harness.db;

import isostress.checker.history.MicroOp;

import java.util.List;

/**
 * One session's link to the database: runs a transaction and commits it, or says why not. Not thread-safe; each
 * session has its own. Implementations decide outcomes from the database's own error codes or labels.
 */
public interface TxnClient extends AutoCloseable {
    /**
     * Runs {@code ops} as one transaction and commits it.
     *
     * @return the ops completed (reads with their values)
     * @throws TxnFailure the transaction aborted ({@link Failure#ABORTED}), its outcome is unknown
     *                    ({@link Failure#UNKNOWN}), or an unexpected error says the harness may be wrong
     *                    ({@link Failure#FATAL} before COMMIT, {@link Failure#FATAL_IN_DOUBT} at it)
     * @throws Unreachable no connection could be had: nothing was sent
     */
    List<MicroOp> run(List<MicroOp> ops, DatabaseAdapter.CasExpectations cas) throws TxnFailure, Unreachable;

    /**
     * The node the last {@link #run} went to, when the client picks one per transaction (read routing); null when
     * it always talks to the node it was opened on.
     */
    default String node() {
        return null;
    }

    /**
     * The history's process for a transaction of {@code ops} by the session now known as {@code process}: the same,
     * unless the client holds several connections (read routing), each a database session of its own that
     * promises nothing about the others, which are then processes of their own.
     */
    default long process(long process, List<MicroOp> ops) {
        return process;
    }

    /** Releases the connection or session. Never throws. */
    @Override
    void close();

    /** A transaction that did not commit, or may not have. */
    final class TxnFailure extends Exception {
        private final Failure failure;
        private final transient List<MicroOp> observed;
        private final String code;

        /**
         * @param observed the ops as far as they ran (reads with values), when the outcome is in doubt; else null
         * @param code     the database's code for the error (SQLState/vendor code, MongoDB label), for messages
         */
        public TxnFailure(Failure failure, String message, List<MicroOp> observed, String code, Throwable cause) {
            super(message, cause);
            this.failure = failure;
            this.observed = observed;
            this.code = code;
        }

        public Failure failure() {
            return failure;
        }

        public List<MicroOp> observed() {
            return observed;
        }

        public String code() {
            return code;
        }
    }

    /** No connection to the database could be opened: the transaction was never sent. */
    final class Unreachable extends Exception {
        public Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
