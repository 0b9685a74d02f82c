package isostress.harness.db;

import isostress.checker.history.MicroOp;
import isostress.generator.workload.WorkloadType;
import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Per database: a session ended by the server (an administrator's kill) is {@code fail} when it was
 * waiting before COMMIT and {@code info} when its COMMIT was in flight, through the real client
 * ({@link Database#clients} → {@link JdbcTxnClient} → the adapter's classify). Each database says how to hold a
 * COMMIT in flight deterministically, how to find the waiting session and how to kill it; the database is then asked
 * which way the transaction went, so the recorded outcome is checked against the truth, not against a table.
 */
abstract class InterruptedTxnContract {
    @TempDir
    Path dir;

    private RunningDatabase db;
    private ClientFactory clients;
    private Connection admin;
    private Connection locker;
    /** Runs the transaction that is to wait (not the common pool, which has one thread on a 2-core machine). */
    private final ExecutorService thread = Executors.newSingleThreadExecutor();

    /** The campaign whose database is started (only its database section matters). */
    abstract String campaignYaml();

    /** Makes every writing COMMIT wait (on) or lets them go (off). */
    abstract void holdCommits(Statement admin, boolean on) throws SQLException;

    /** The id of a session whose COMMIT waits, or null. */
    abstract String waitingInCommit(Statement admin) throws SQLException;

    /** The id of the session waiting for the row lock of key 3 (its UPDATE writes 33), or null. */
    abstract String waitingForLock(Statement admin) throws SQLException;

    /** Ends session {@code id} the way an administrator does. */
    abstract void kill(Statement admin, String id) throws SQLException;

    @BeforeEach
    void start() throws Exception {
        Campaign c = CampaignLoader.parse(Path.of("test.yaml"), campaignYaml() + "\nstore: " + dir + "\n");
        db = Provisioner.of(c.database()).start(c.database(), dir.resolve("logs"), 4);
        clients = c.database().type().clients(c.database(), db, List.of(db.nodes().get(0).url()), java.util.Map.of(), 1);
        clients.createSchema(WorkloadType.RW_REGISTER, 9);
        admin = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        locker = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
    }

    @AfterEach
    void stop() throws SQLException {
        thread.shutdownNow();
        if (locker != null) locker.close();
        if (admin != null) admin.close();
        if (clients != null) clients.close();
        if (db != null) db.close();
    }

    @Test
    void killedWhileCommitIsInFlightIsUnknownAndDidCommit() throws Exception {
        TxnClient client = clients.open(0, 0);
        List<MicroOp> ops = List.of(new MicroOp.Read(1, null), new MicroOp.Write(1, 42), new MicroOp.Write(2, 43));
        try (Statement s = admin.createStatement()) {
            holdCommits(s, true);
            try {
                CompletableFuture<List<MicroOp>> txn = CompletableFuture.supplyAsync(() -> run(client, ops), thread);
                kill(s, await(() -> waitingInCommit(s), txn));
                TxnClient.TxnFailure f = failure(txn);
                assertEquals(Failure.UNKNOWN, f.failure(), f.code() + ": " + f.getMessage());
                assertEquals(List.of(new MicroOp.Read(1, 0L), new MicroOp.Write(1, 42), new MicroOp.Write(2, 43)),
                        f.observed(), "an unknown outcome keeps what was read");
            } finally {
                holdCommits(s, false);
            }
            assertEquals(42, value(s, 1), "the COMMIT took effect although its client never heard so");
            assertEquals(43, value(s, 2));
        }
        // The session goes on, on a fresh connection.
        assertEquals(List.of(new MicroOp.Read(1, 42L)), client.run(List.of(new MicroOp.Read(1, null)), k -> 0));
        client.close();
    }

    @Test
    void killedBeforeCommitIsAnAbortAndTookNoEffect() throws Exception {
        TxnClient client = clients.open(0, 0);
        try (Statement s = admin.createStatement(); Statement l = locker.createStatement()) {
            locker.setAutoCommit(false);
            try (ResultSet rs = l.executeQuery("SELECT v FROM isostress_kv WHERE k = 3 FOR UPDATE")) {
                rs.next();
            }
            CompletableFuture<List<MicroOp>> txn = CompletableFuture.supplyAsync(() -> run(client,
                    List.of(new MicroOp.Write(4, 44), new MicroOp.Write(3, 33))), thread);
            kill(s, await(() -> waitingForLock(s), txn));
            TxnClient.TxnFailure f = failure(txn);
            assertEquals(Failure.ABORTED, f.failure(), f.code() + ": " + f.getMessage());
            assertNull(f.observed(), "an abort records the ops as invoked");
            locker.rollback();
            assertEquals(0, value(s, 3));
            assertEquals(0, value(s, 4), "the write before the wait was rolled back with the session");
        }
        client.close();
    }

    private static List<MicroOp> run(TxnClient client, List<MicroOp> ops) {
        try {
            return client.run(ops, k -> 0);
        } catch (TxnClient.TxnFailure | TxnClient.Unreachable e) {
            throw new java.util.concurrent.CompletionException(e);
        }
    }

    private static TxnClient.TxnFailure failure(CompletableFuture<List<MicroOp>> txn) throws Exception {
        try {
            List<MicroOp> done = txn.get(60, TimeUnit.SECONDS);
            throw new AssertionError("the killed transaction completed: " + done);
        } catch (ExecutionException e) {
            return assertInstanceOf(TxnClient.TxnFailure.class, e.getCause());
        }
    }

    private static long value(Statement s, long key) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT v FROM isostress_kv WHERE k = " + key)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    interface Probe {
        String get() throws SQLException;
    }

    /** Polls {@code probe} every 10 ms until it names a session (60 s at most). */
    static String await(Probe probe) throws SQLException, InterruptedException {
        return await(probe, null);
    }

    /** The same, failing at once when {@code txn} (the transaction that should wait) ended instead. */
    static String await(Probe probe, CompletableFuture<?> txn) throws SQLException, InterruptedException {
        for (int i = 0; i < 6000; i++) {
            String id = probe.get();
            if (id != null) return id;
            if (txn != null && txn.isDone()) {
                throw new AssertionError("the transaction ended before it waited: " + txn.handle((r, e) -> e == null
                        ? "completed " + r : e.getCause() + " " + (e.getCause() instanceof TxnClient.TxnFailure
                        ? ((TxnClient.TxnFailure) e.getCause()).code() : "")).join());
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no session waited within 60 s");
    }
}
