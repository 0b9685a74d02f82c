package isostress.harness.db.mongodb;

import com.mongodb.MongoException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoTimeoutException;
import isostress.checker.history.MicroOp;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Failure;
import isostress.harness.db.TxnClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static isostress.harness.db.mongodb.MongoOutcomesTest.ADDRESS;
import static isostress.harness.db.mongodb.MongoOutcomesTest.labelled;
import static isostress.harness.db.mongodb.MongoOutcomesTest.reply;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link MongoTxnClient}'s control flow on a {@link FakeMongo}: what it records for each kind of failure, that it
 * aborts after a failure before commit, never retries a commit, and starts a fresh session after a driver error.
 */
class MongoTxnClientTest {
    static final DatabaseAdapter.CasExpectations NO_READS = key -> DatabaseAdapter.INITIAL;

    FakeMongo db;
    MongoTxnClient client;

    @BeforeEach
    void setUp() {
        db = new FakeMongo();
        for (long k = 0; k < 5; k++) {
            db.data.get(MongoClientFactory.REGISTERS).put(k, 0L);
            db.data.get(MongoClientFactory.LISTS).put(k, List.of());
        }
        client = new MongoTxnClient(db.client(), MongoClientFactory.transactionOptions(Duration.ofSeconds(1)));
    }

    TxnClient.TxnFailure failure(List<MicroOp> ops) {
        return assertThrows(TxnClient.TxnFailure.class, () -> client.run(ops, NO_READS));
    }

    @Test
    void everyOpKindRoundTrips() throws Exception {
        List<MicroOp> done = client.run(List.of(new MicroOp.Write(1, 5), new MicroOp.Read(1, null),
                new MicroOp.Append(2, 7), new MicroOp.Append(2, 8), new MicroOp.ListRead(2, null),
                new MicroOp.Cas(3, null, 9), new MicroOp.Read(3, null)), NO_READS);
        assertEquals(List.of(new MicroOp.Write(1, 5), new MicroOp.Read(1, 5L), new MicroOp.Append(2, 7),
                new MicroOp.Append(2, 8), new MicroOp.ListRead(2, List.of(7L, 8L)), new MicroOp.Cas(3, 0L, 9),
                new MicroOp.Read(3, 9L)), done);
        assertEquals(1, db.commits);
        assertEquals(0, db.aborts);
    }

    @Test
    void casMismatchAbortsAndKeepsTheSession() throws Exception {
        db.data.get(MongoClientFactory.REGISTERS).put(4L, 3L);
        TxnClient.TxnFailure f = failure(List.of(new MicroOp.Write(1, 5), new MicroOp.Cas(4, null, 6)));
        assertEquals(Failure.ABORTED, f.failure());
        assertEquals("cas mismatch", f.code());
        assertNull(f.observed());
        assertEquals(1, db.aborts);
        assertEquals(0, db.commits);
        client.run(List.of(new MicroOp.Read(0, null)), NO_READS);
        assertEquals(1, db.sessionsStarted, "a clean abort keeps the session");
    }

    @Test
    void writeConflictAbortsTheTransactionAndReplacesTheSession() throws Exception {
        db.failNext("updateOne", reply(112, "WriteConflict", MongoException.TRANSIENT_TRANSACTION_ERROR_LABEL));
        TxnClient.TxnFailure f = failure(List.of(new MicroOp.Read(0, null), new MicroOp.Write(0, 1)));
        assertEquals(Failure.ABORTED, f.failure());
        assertEquals("labels [TransientTransactionError], code 112 (WriteConflict), MongoCommandException", f.code());
        assertEquals(1, db.aborts);
        assertEquals(0, db.commits);
        assertEquals(1, db.sessionsClosed);
        client.run(List.of(new MicroOp.Read(0, null)), NO_READS);
        assertEquals(2, db.sessionsStarted);
    }

    @Test
    void linkLostDuringCommitIsUnknownWithTheObservedReadsAndIsNotRetried() {
        db.data.get(MongoClientFactory.REGISTERS).put(2L, 42L);
        db.failNext("commitTransaction", labelled(new MongoSocketReadException("Prematurely reached end of stream",
                ADDRESS), MongoException.UNKNOWN_TRANSACTION_COMMIT_RESULT_LABEL));
        TxnClient.TxnFailure f = failure(List.of(new MicroOp.Read(2, null), new MicroOp.Write(2, 43)));
        assertEquals(Failure.UNKNOWN, f.failure());
        assertEquals(List.of(new MicroOp.Read(2, 42L), new MicroOp.Write(2, 43)), f.observed());
        assertEquals(1, db.commits, "the commit is tried once");
        assertEquals(0, db.aborts, "no abort after a commit was sent");
    }

    @Test
    void unexpectedErrorAtCommitIsInDoubtWithTheObservedReads() {
        db.data.get(MongoClientFactory.REGISTERS).put(2L, 42L);
        db.failNext("commitTransaction", reply(2, "BadValue"));
        TxnClient.TxnFailure f = failure(List.of(new MicroOp.Read(2, null), new MicroOp.Write(2, 43)));
        assertEquals(Failure.FATAL_IN_DOUBT, f.failure(), "nothing proves the commit did not happen");
        assertEquals(List.of(new MicroOp.Read(2, 42L), new MicroOp.Write(2, 43)), f.observed());
    }

    @Test
    void noSuchTransactionAtCommitIsAnAbort() {
        db.failNext("commitTransaction", reply(251, "NoSuchTransaction",
                MongoException.TRANSIENT_TRANSACTION_ERROR_LABEL));
        TxnClient.TxnFailure f = failure(List.of(new MicroOp.Write(1, 1)));
        assertEquals(Failure.ABORTED, f.failure());
        assertNull(f.observed());
        assertEquals(1, db.commits);
    }

    @Test
    void noServerForTheFirstOpIsUnreachableButForALaterOneAnAbort() {
        MongoTimeoutException selection = new MongoTimeoutException("Timed out after 250 ms while waiting for a "
                + "server that matches ReadPreferenceServerSelector{readPreference=primary}");
        db.failNext("find", selection);
        assertThrows(TxnClient.Unreachable.class, () -> client.run(List.of(new MicroOp.Read(0, null)), NO_READS));
        assertEquals(1, db.aborts, "the transaction was started, so it is ended");

        db.failNext("updateOne", new MongoTimeoutException("Timed out after 250 ms while waiting for a server"));
        TxnClient.TxnFailure f = failure(List.of(new MicroOp.Read(0, null), new MicroOp.Write(0, 1)));
        assertEquals(Failure.ABORTED, f.failure(), "the read was sent: the transaction was tried and aborted");
    }

    @Test
    void badCommandIsFatal() {
        db.failNext("find", reply(2, "BadValue"));
        assertEquals(Failure.FATAL, failure(List.of(new MicroOp.Read(0, null))).failure());
        assertEquals(1, db.aborts);
    }

    @Test
    void missingKeyIsFatal() {
        TxnClient.TxnFailure f = failure(List.of(new MicroOp.Write(99, 1)));
        assertEquals(Failure.FATAL, f.failure());
        assertEquals("missing key", f.code());
        f = failure(List.of(new MicroOp.ListRead(99, null)));
        assertEquals(Failure.FATAL, f.failure());
    }

    @Test
    void closeAbortsNothingWhenIdleAndClosesTheSession() throws Exception {
        client.run(List.of(new MicroOp.Read(0, null)), NO_READS);
        client.close();
        assertEquals(0, db.aborts);
        assertEquals(1, db.sessionsClosed);
        client.close(); // twice is fine
        assertEquals(1, db.sessionsClosed);
    }
}
