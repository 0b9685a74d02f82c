package isostress.harness.db.mongodb;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoConnectionPoolClearedException;
import com.mongodb.MongoCredential;
import com.mongodb.MongoException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoNotPrimaryException;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoSocketOpenException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoSocketReadTimeoutException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.MongoWriteException;
import com.mongodb.ServerAddress;
import com.mongodb.WriteError;
import com.mongodb.bulk.WriteConcernError;
import com.mongodb.connection.ClusterId;
import com.mongodb.connection.ServerId;
import isostress.harness.db.Failure;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static com.mongodb.MongoException.TRANSIENT_TRANSACTION_ERROR_LABEL;
import static com.mongodb.MongoException.UNKNOWN_TRANSACTION_COMMIT_RESULT_LABEL;
import static isostress.harness.db.Failure.ABORTED;
import static isostress.harness.db.Failure.FATAL;
import static isostress.harness.db.Failure.FATAL_IN_DOUBT;
import static isostress.harness.db.Failure.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The error → outcome mapping on the driver's own exception objects, built as the driver builds them from a server
 * reply ({@code {ok: 0, code, codeName, errmsg, errorLabels}}) or from a socket failure, before commit and at commit.
 * Labels: MongoDB's drivers transactions specification, "Error Reporting and Retrying Transactions". No server
 * needed.
 */
class MongoOutcomesTest {
    static final ServerAddress ADDRESS = new ServerAddress("db1.example", 27017);

    /** A failed command reply as the server sends it. */
    static MongoCommandException reply(int code, String codeName, String... labels) {
        BsonDocument d = new BsonDocument("ok", new BsonDouble(0))
                .append("errmsg", new BsonString(codeName + " in test"))
                .append("code", new BsonInt32(code))
                .append("codeName", new BsonString(codeName));
        if (labels.length > 0) {
            BsonArray a = new BsonArray();
            for (String l : labels) a.add(new BsonString(l));
            d.append("errorLabels", a);
        }
        return new MongoCommandException(d, ADDRESS);
    }

    /** {@code e} with {@code label} added, as the driver labels errors after the fact. */
    static <E extends MongoException> E labelled(E e, String label) {
        e.addLabel(label);
        return e;
    }

    static void assertOutcome(Failure before, Failure atCommit, MongoException e) {
        assertEquals(before, MongoOutcomes.classify(e, false), () -> "before commit: " + e);
        assertEquals(atCommit, MongoOutcomes.classify(e, true), () -> "at commit: " + e);
    }

    @Test
    void transientTransactionErrorIsAnAbortBeforeAndAtCommit() {
        assertOutcome(ABORTED, ABORTED, reply(112, "WriteConflict", TRANSIENT_TRANSACTION_ERROR_LABEL));
        assertOutcome(ABORTED, ABORTED, reply(251, "NoSuchTransaction", TRANSIENT_TRANSACTION_ERROR_LABEL));
        // The label alone decides, whatever the code: the server says the whole transaction may be retried.
        assertOutcome(ABORTED, ABORTED, reply(8000, "SomeFutureCode", TRANSIENT_TRANSACTION_ERROR_LABEL));
    }

    @Test
    void writeConflictAndNoSuchTransactionAbortWithoutALabel() {
        assertOutcome(ABORTED, ABORTED, reply(112, "WriteConflict"));
        assertOutcome(ABORTED, ABORTED, reply(251, "NoSuchTransaction"));
        assertOutcome(ABORTED, ABORTED, reply(24, "LockTimeout"));
        assertOutcome(ABORTED, ABORTED, reply(246, "SnapshotUnavailable"));
        // A write error (updateOne's writeErrors) carries the code the same way.
        MongoWriteException we = new MongoWriteException(new WriteError(112, "WriteConflict", new BsonDocument()),
                ADDRESS, Set.of());
        assertOutcome(ABORTED, ABORTED, we);
    }

    @Test
    void unknownTransactionCommitResultAtCommitIsUnknown() {
        // What the driver raises when the link breaks during commitTransaction (CommitTransactionOperation labels it).
        assertEquals(UNKNOWN, MongoOutcomes.classify(labelled(new MongoSocketReadException("Prematurely reached end "
                + "of stream", ADDRESS), UNKNOWN_TRANSACTION_COMMIT_RESULT_LABEL), true));
        assertEquals(UNKNOWN, MongoOutcomes.classify(reply(189, "PrimarySteppedDown",
                UNKNOWN_TRANSACTION_COMMIT_RESULT_LABEL), true));
        // Both labels: never call a commit that may have happened an abort.
        assertEquals(UNKNOWN, MongoOutcomes.classify(reply(112, "WriteConflict", TRANSIENT_TRANSACTION_ERROR_LABEL,
                UNKNOWN_TRANSACTION_COMMIT_RESULT_LABEL), true));
    }

    @Test
    void networkErrorsAndTimeoutsAbortBeforeCommitAndLeaveACommitInDoubt() {
        assertOutcome(ABORTED, UNKNOWN, new MongoSocketReadException("Prematurely reached end of stream", ADDRESS));
        assertOutcome(ABORTED, UNKNOWN, new MongoSocketReadTimeoutException("Timeout while receiving message",
                ADDRESS, new SocketTimeoutException("Read timed out")));
        assertOutcome(ABORTED, UNKNOWN, new MongoTimeoutException("Timed out while waiting for a server"));
        assertOutcome(ABORTED, UNKNOWN, new MongoOperationTimeoutException("The operation exceeded the timeout limit"));
        assertOutcome(ABORTED, UNKNOWN, new MongoExecutionTimeoutException(50, "operation exceeded time limit"));
        assertOutcome(ABORTED, UNKNOWN, new MongoConnectionPoolClearedException(
                new ServerId(new ClusterId(), ADDRESS), new MongoSocketReadException("closed", ADDRESS)));
        BsonDocument notPrimary = new BsonDocument("ok", new BsonDouble(0)).append("code", new BsonInt32(10107))
                .append("codeName", new BsonString("NotWritablePrimary"))
                .append("errmsg", new BsonString("not primary"));
        assertOutcome(ABORTED, UNKNOWN, new MongoNotPrimaryException(notPrimary, ADDRESS));
        // A commit interrupted by the lifetime limit may have committed already (MongoDB DRIVERS-2535).
        assertOutcome(ABORTED, UNKNOWN, reply(290, "TransactionExceededLifetimeLimitSeconds"));
        assertOutcome(ABORTED, UNKNOWN, reply(91, "ShutdownInProgress"));
    }

    @Test
    void writeConcernErrorAtCommitIsUnknown() {
        // The commit was applied on the primary, but not (yet) by a majority: it may be rolled back.
        MongoWriteConcernException e = new MongoWriteConcernException(new WriteConcernError(64,
                "WriteConcernTimeout", "waiting for replication timed out", new BsonDocument()), null, ADDRESS,
                List.of());
        assertEquals(UNKNOWN, MongoOutcomes.classify(e, true));
    }

    @Test
    void badCommandsAreTheHarnessesFaultButAtCommitMayHaveCommitted() {
        assertOutcome(FATAL, FATAL_IN_DOUBT, reply(2, "BadValue"));
        assertOutcome(FATAL, FATAL_IN_DOUBT, reply(9, "FailedToParse"));
        assertOutcome(FATAL, FATAL_IN_DOUBT, reply(13, "Unauthorized"));
        assertOutcome(FATAL, FATAL_IN_DOUBT, reply(263, "OperationNotSupportedInTransaction"));
        assertOutcome(FATAL, FATAL_IN_DOUBT, new MongoWriteException(new WriteError(11000, "E11000 duplicate key error",
                new BsonDocument()), ADDRESS, Set.of()));
        MongoCredential cred = MongoCredential.createCredential("u", "admin", "p".toCharArray());
        assertOutcome(FATAL, FATAL_IN_DOUBT, new MongoSecurityException(cred, "Exception authenticating"));
        // ... unless authentication failed because the link did.
        assertOutcome(ABORTED, UNKNOWN, new MongoSecurityException(cred, "Exception authenticating",
                new MongoSocketReadException("Prematurely reached end of stream", ADDRESS)));
    }

    /**
     * Every server code the classifier knows, as a labelless command error, before commit and at commit, and a code
     * it does not know. Names: the server's {@code src/mongo/base/error_codes.yml}.
     */
    static Stream<Arguments> codes() {
        return Stream.of(
                Arguments.of(24, "LockTimeout", ABORTED, ABORTED),
                Arguments.of(112, "WriteConflict", ABORTED, ABORTED),
                Arguments.of(225, "TransactionTooOld", ABORTED, ABORTED),
                Arguments.of(239, "SnapshotTooOld", ABORTED, ABORTED),
                Arguments.of(246, "SnapshotUnavailable", ABORTED, ABORTED),
                Arguments.of(251, "NoSuchTransaction", ABORTED, ABORTED),
                Arguments.of(6, "HostUnreachable", ABORTED, UNKNOWN),
                Arguments.of(7, "HostNotFound", ABORTED, UNKNOWN),
                Arguments.of(50, "MaxTimeMSExpired", ABORTED, UNKNOWN),
                Arguments.of(64, "WriteConcernTimeout", ABORTED, UNKNOWN),
                Arguments.of(89, "NetworkTimeout", ABORTED, UNKNOWN),
                Arguments.of(91, "ShutdownInProgress", ABORTED, UNKNOWN),
                Arguments.of(189, "PrimarySteppedDown", ABORTED, UNKNOWN),
                Arguments.of(262, "ExceededTimeLimit", ABORTED, UNKNOWN),
                Arguments.of(290, "TransactionExceededLifetimeLimitSeconds", ABORTED, UNKNOWN),
                Arguments.of(9001, "SocketException", ABORTED, UNKNOWN),
                Arguments.of(10107, "NotWritablePrimary", ABORTED, UNKNOWN),
                Arguments.of(11600, "InterruptedAtShutdown", ABORTED, UNKNOWN),
                Arguments.of(11602, "InterruptedDueToReplStateChange", ABORTED, UNKNOWN),
                Arguments.of(13435, "NotPrimaryNoSecondaryOk", ABORTED, UNKNOWN),
                Arguments.of(13436, "NotPrimaryOrSecondary", ABORTED, UNKNOWN),
                Arguments.of(8000, "AtlasError", FATAL, FATAL_IN_DOUBT),
                Arguments.of(99999, "NoSuchCodeYet", FATAL, FATAL_IN_DOUBT));
    }

    @ParameterizedTest(name = "{0} {1}: {2} before commit, {3} at commit")
    @MethodSource("codes")
    void everyCodeBeforeAndAtCommit(int code, String name, Failure before, Failure atCommit) {
        assertOutcome(before, atCommit, reply(code, name));
    }

    /** Each label wins over any code, at each place; at commit UnknownTransactionCommitResult wins over both. */
    @ParameterizedTest(name = "code {0} with labels")
    @MethodSource("codes")
    void labelsOutrankCodes(int code, String name, Failure withoutLabelBefore, Failure withoutLabelAtCommit) {
        assertOutcome(ABORTED, ABORTED, reply(code, name, TRANSIENT_TRANSACTION_ERROR_LABEL));
        assertOutcome(ABORTED, UNKNOWN, reply(code, name, UNKNOWN_TRANSACTION_COMMIT_RESULT_LABEL));
        assertOutcome(ABORTED, UNKNOWN, reply(code, name, TRANSIENT_TRANSACTION_ERROR_LABEL,
                UNKNOWN_TRANSACTION_COMMIT_RESULT_LABEL));
    }

    @Test
    void theTableHasEveryCodeTheClassifierKnows() {
        Set<Integer> known = new java.util.HashSet<>(MongoOutcomes.ABORTS);
        known.addAll(MongoOutcomes.IN_DOUBT);
        codes().forEach(a -> known.remove((Integer) a.get()[0]));
        assertTrue(known.isEmpty(), "codes without a row: " + known);
    }

    @Test
    void unreachableOnlyWhenNothingWasSent() {
        MongoTimeoutException selection = new MongoTimeoutException("Timed out after 250 ms while waiting for a "
                + "server that matches ReadPreferenceServerSelector{readPreference=primary}");
        MongoSocketOpenException refused = new MongoSocketOpenException("Exception opening socket", ADDRESS,
                new java.net.ConnectException("Connection refused"));
        assertTrue(MongoOutcomes.unreachable(selection, false));
        assertTrue(MongoOutcomes.unreachable(refused, false));
        assertTrue(MongoOutcomes.unreachable(new MongoSecurityException(
                MongoCredential.createCredential("u", "admin", "p".toCharArray()), "auth", refused), false));
        assertFalse(MongoOutcomes.unreachable(selection, true), "an earlier op of the transaction was sent");
        assertFalse(MongoOutcomes.unreachable(refused, true));
        assertFalse(MongoOutcomes.unreachable(new MongoSocketReadException("end of stream", ADDRESS), false),
                "a read failed: the request was sent");
        assertFalse(MongoOutcomes.unreachable(new MongoOperationTimeoutException("timeoutMS expired"), false),
                "a client-side operation timeout may fire while a reply is awaited");
        assertFalse(MongoOutcomes.unreachable(reply(112, "WriteConflict", TRANSIENT_TRANSACTION_ERROR_LABEL), false));
    }

    @Test
    void codeNamesLabelsCodeAndType() {
        String s = MongoOutcomes.code(reply(112, "WriteConflict", TRANSIENT_TRANSACTION_ERROR_LABEL));
        assertEquals("labels [TransientTransactionError], code 112 (WriteConflict), MongoCommandException", s);
        assertEquals("code -2, MongoSocketReadException",
                MongoOutcomes.code(new MongoSocketReadException("end of stream", ADDRESS)));
    }
}
