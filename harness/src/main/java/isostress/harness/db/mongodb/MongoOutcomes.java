package isostress.harness.db.mongodb;

import com.mongodb.MongoConnectionPoolClearedException;
import com.mongodb.MongoException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoNodeIsRecoveringException;
import com.mongodb.MongoNotPrimaryException;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoServerException;
import com.mongodb.MongoServerUnavailableException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoSocketOpenException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.MongoWriteConcernException;
import isostress.harness.db.Failure;

import java.util.Set;
import java.util.TreeSet;

/**
 * What a MongoDB error means for the transaction that got it: the database's own error labels first, then codes and
 * the driver's exception types for errors that carry no label.
 *
 * <p>The rules, after MongoDB's documentation on transactions in applications ("Transaction Error Handling",
 * <a href="https://www.mongodb.com/docs/manual/core/transactions-in-applications/">transactions in applications</a>)
 * and the drivers' transactions specification (<a
 * href="https://github.com/mongodb/specifications/blob/master/source/transactions/transactions.md">specifications:
 * transactions.md</a>, "Error Reporting and Retrying Transactions"):
 * <ol>
 *   <li>{@code UnknownTransactionCommitResult} is attached by the driver to a commitTransaction that failed with a
 *   network error, a server selection error, a retryable write error, MaxTimeMSExpired or a write concern error: the
 *   commit may or may not have happened. That is {@link Failure#UNKNOWN}, the history's {@code info}. MongoDB's
 *   advice is to retry the commit; we never do: the history records what the commit told the client, and a fault
 *   that hit a commit must show as {@code info} (which the checker reasons about both ways), not be retried away.</li>
 *   <li>{@code TransientTransactionError} (the server's on write conflicts, 112, and NoSuchTransaction, 251; the
 *   driver's on a network error inside a transaction) says the whole transaction can be retried from the start:
 *   nothing of it committed, so {@link Failure#ABORTED}, before or at commit.</li>
 *   <li>Without a label, the same split by code and type: aborting codes are ABORTED; a lost primary, a dead link or
 *   a timeout aborts before commit and leaves a commit in doubt; any other error means the harness sent something
 *   wrong (a bad command, missing rights) and stops the run: {@link Failure#FATAL} before commit,
 *   {@link Failure#FATAL_IN_DOUBT} ({@code info}) at commit, where nothing proves the commit did not happen.</li>
 * </ol>
 * A label outranks a code, and at commit UnknownTransactionCommitResult outranks TransientTransactionError: calling
 * a commit that happened an abort would make the checker blame the database for our mistake.
 */
final class MongoOutcomes {
    private MongoOutcomes() {
    }

    /**
     * The server ended the transaction without committing it: LockTimeout 24, WriteConflict 112, TransactionTooOld
     * 225, SnapshotTooOld 239, SnapshotUnavailable 246, NoSuchTransaction 251 (codes from the server's
     * {@code src/mongo/base/error_codes.yml}).
     */
    static final Set<Integer> ABORTS = Set.of(24, 112, 225, 239, 246, 251);

    /**
     * The node lost its primary role, shut down, lost a link or ran out of time while working on the request: before
     * commit the transaction is gone; at commit it may have committed. HostUnreachable 6, HostNotFound 7,
     * MaxTimeMSExpired 50, WriteConcernTimeout 64, NetworkTimeout 89, ShutdownInProgress 91, PrimarySteppedDown 189,
     * ExceededTimeLimit 262, TransactionExceededLifetimeLimitSeconds 290 (may interrupt a commit that already
     * happened: MongoDB's DRIVERS-2535), SocketException 9001, NotWritablePrimary 10107, InterruptedAtShutdown 11600,
     * InterruptedDueToReplStateChange 11602, NotPrimaryNoSecondaryOk 13435, NotPrimaryOrSecondary 13436.
     */
    static final Set<Integer> IN_DOUBT = Set.of(6, 7, 50, 64, 89, 91, 189, 262, 290, 9001, 10107, 11600,
            11602, 13435, 13436);

    /**
     * What {@code e} means for its transaction: {@link #cause}, then the one rule of {@link Failure#of}.
     *
     * @param committing true when {@code e} came from commitTransaction, false when from an operation before it
     */
    static Failure classify(MongoException e, boolean committing) {
        return Failure.of(cause(e), committing);
    }

    /**
     * What {@code e} says, wherever it came: UnknownTransactionCommitResult is {@link Failure.Cause#INTERRUPTED}
     * (and outranks TransientTransactionError, which the server may add to the same commit error);
     * TransientTransactionError or an aborting code is {@link Failure.Cause#ABORT}; a lost link or primary, a
     * timeout, a write concern error or an interrupted operation is INTERRUPTED; anything else is unexpected.
     */
    static Failure.Cause cause(MongoException e) {
        if (e.hasErrorLabel(MongoException.UNKNOWN_TRANSACTION_COMMIT_RESULT_LABEL)) return Failure.Cause.INTERRUPTED;
        if (e.hasErrorLabel(MongoException.TRANSIENT_TRANSACTION_ERROR_LABEL) || ABORTS.contains(e.getCode())) {
            return Failure.Cause.ABORT;
        }
        if (lostLink(e) || IN_DOUBT.contains(e.getCode()) || e instanceof MongoWriteConcernException
                || e instanceof MongoExecutionTimeoutException || e instanceof MongoInterruptedException) {
            return Failure.Cause.INTERRUPTED;
        }
        return Failure.Cause.UNEXPECTED;
    }

    /**
     * True when {@code e} says no request of the transaction ever left the client: no server could be selected, no
     * connection checked out or opened, and nothing had been sent before ({@code sentBefore} false). A
     * {@link MongoOperationTimeoutException} (client-side operation timeout, {@code timeoutMS}) is not one: it may
     * have fired while a reply was awaited.
     */
    static boolean unreachable(MongoException e, boolean sentBefore) {
        if (sentBefore) return false;
        MongoException cause = unwrapSecurity(e);
        return (cause instanceof MongoTimeoutException && !(cause instanceof MongoOperationTimeoutException))
                || cause instanceof MongoSocketOpenException;
    }

    /** The labels, code and code name of {@code e}, for messages and the history's error text. */
    static String code(MongoException e) {
        StringBuilder sb = new StringBuilder();
        Set<String> labels = new TreeSet<>(e.getErrorLabels());
        if (!labels.isEmpty()) sb.append("labels ").append(labels).append(", ");
        sb.append("code ").append(e.getCode());
        if (e instanceof MongoServerException) {
            String name = ((MongoServerException) e).getErrorCodeName();
            if (name != null && !name.isEmpty()) sb.append(" (").append(name).append(')');
        }
        return sb.append(", ").append(e.getClass().getSimpleName()).toString();
    }

    /** The link to the server failed or the server stopped being (or could not be found as) the primary. */
    private static boolean lostLink(MongoException e) {
        MongoException c = unwrapSecurity(e);
        return c instanceof MongoSocketException || c instanceof MongoTimeoutException
                || c instanceof MongoConnectionPoolClearedException || c instanceof MongoServerUnavailableException
                || c instanceof MongoNotPrimaryException || c instanceof MongoNodeIsRecoveringException;
    }

    /**
     * The network error inside a failed authentication handshake (the driver wraps it in MongoSecurityException and
     * retries on it just the same), else {@code e}. Bad credentials stay a MongoSecurityException, hence FATAL.
     */
    private static MongoException unwrapSecurity(MongoException e) {
        if (e instanceof MongoSecurityException) {
            Throwable c = e.getCause();
            if (c instanceof MongoSocketException || c instanceof MongoTimeoutException) return (MongoException) c;
        }
        return e;
    }
}
