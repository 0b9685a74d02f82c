package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.checker.model.Verdict;
import isostress.harness.db.RunningDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static isostress.checker.model.IsolationLevel.SNAPSHOT_ISOLATION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A backend terminated while its COMMIT is in flight leaves the outcome unknown, and the history says
 * {@code info}, not {@code fail}. Against embedded PostgreSQL 16, through the whole run (CampaignRunner,
 * SessionWorker, JdbcTxnClient, PostgresAdapter).
 *
 * <p>"In flight" is made deterministic with synchronous replication to a standby that never connects: with
 * {@code synchronous_standby_names = 'nobody'} (and synchronous_commit on, as the provisioner sets it), every COMMIT
 * of a writing transaction writes its commit record locally and then waits, in wait event {@code SyncRep}, for a
 * standby that does not exist (PostgreSQL documentation, 27.2.8 "Synchronous Replication"). Terminating such a
 * backend with {@code pg_terminate_backend} ends the wait: "The transaction has already committed locally, but might
 * not have been replicated to the standby" (the server's warning, src/backend/replication/syncrep.c), and the
 * client only sees its connection close. That is exactly the unknown case, and {@code txid_status} tells us which way
 * it went: committed. Recording it {@code fail} would turn every later read of its writes into a G1a.
 */
class PostgresCommitInDoubtTest {
    @TempDir
    Path store;

    @Test
    void terminatedBackendDuringCommitIsRecordedInfoAndHadCommitted() throws Exception {
        // Repeatable read is snapshot isolation in PostgreSQL, without SSI's rare G2-item: the verdict is the
        // recording's alone.
        var c = Campaigns.parse(store, "name: pg-commit-in-doubt\n"
                + "database: {type: postgresql, provision: embedded, isolation: repeatable-read}\n"
                + "workload: {type: mini, sessions: 4, transactions: 6000, keys: 10, distribution: zipfian, seed: 5}\n"
                + "check: {levels: [snapshot-isolation]}\n");
        Terminator terminator = new Terminator();
        StringWriter sw = new StringWriter();
        RunOutcome o = new CampaignRunner(c, new PrintWriter(sw), false).onDatabaseStarted(db -> {
            terminator.db = db;
            Thread t = new Thread(terminator, "pg-terminator");
            t.setDaemon(true);
            t.start();
        }).run(0, 5);
        System.out.print(sw);
        assertNull(terminator.failed, () -> "the terminator failed: " + terminator.failed);
        assertEquals("committed", terminator.status, "the terminated transaction " + terminator.xid
                + " committed locally before its COMMIT returned");
        assertNull(o.error(), o.error());
        List<JsonNode> info = completions(o.dir().history(), "info");
        assertEquals(1, info.size(), "exactly the terminated transaction is info: " + info);
        assertEquals(1, o.stats().unknown());
        assertTrue(completions(o.dir().history(), "fail").stream()
                .noneMatch(n -> n.path("error").asText().contains("I/O error")), "no lost link is a fail");
        assertEquals(Verdict.VALID, o.result().level(SNAPSHOT_ISOLATION).verdict(),
                o.result().level(SNAPSHOT_ISOLATION).reason());
    }

    /**
     * An error no rule explains, raised by COMMIT itself (a deferred constraint trigger fires at commit, PostgreSQL
     * documentation, CREATE TRIGGER "constraint trigger"; it raises 53100 disk_full): the transaction is recorded
     * {@code info}, since nothing the harness knows proves that such a COMMIT did not happen, and the run stops with
     * exit status 2 for a person to look.
     */
    @Test
    void unexpectedErrorAtCommitIsRecordedInfoAndStopsTheRun() throws Exception {
        var c = Campaigns.parse(store, "name: pg-commit-unexpected\n"
                + "database: {type: postgresql, provision: embedded, isolation: repeatable-read}\n"
                + "workload: {type: mini, sessions: 4, transactions: 100000, keys: 10, distribution: zipfian, seed: 5}\n"
                + "check: {levels: [snapshot-isolation]}\n");
        RunOutcome o = runWithFullDiskAtCommit(c, "isostress_kv", "SELECT count(*) FROM isostress_kv WHERE v <> 0");
        assertEquals(2, o.exitStatus(), "an unexpected error stops the run");
        assertTrue(o.error().contains("53100") && o.error().contains("at COMMIT, recorded as info"), o.error());
        List<JsonNode> info = completions(o.dir().history(), "info");
        assertTrue(!info.isEmpty() && info.stream().allMatch(n -> n.path("error").asText().contains("disk full")),
                "the COMMITs that failed are info: " + info);
        assertTrue(completions(o.dir().history(), "fail").stream()
                .noneMatch(n -> n.path("error").asText().contains("disk full")), "none is fail");
    }

    /** The same through the sql workload's sessions (SqlSession), which record SQL histories. */
    @Test
    void sqlWorkloadRecordsAnUnexpectedErrorAtCommitAsInfoAndStops() throws Exception {
        var c = Campaigns.parse(store, "name: pg-sql-commit-unexpected\n"
                + "database: {type: postgresql, provision: embedded, isolation: repeatable-read, op-pause: 1ms}\n"
                + "workload: {type: sql, sessions: 3, transactions: 20000, keys: 4, groups: 2, seed: 5}\n");
        RunOutcome o = runWithFullDiskAtCommit(c, "acct", "SELECT count(*) FROM acct");
        assertEquals(2, o.exitStatus(), "an unexpected error stops the run");
        assertTrue(o.error().contains("53100") && o.error().contains("at COMMIT, recorded as info"), o.error());
        SqlHistoryAudit h = new SqlHistoryAudit(o.dir().history());
        assertTrue(h.outcomes.getOrDefault("info", 0) >= 1, "outcomes " + h.outcomes);
    }

    /**
     * Runs {@code c}; once {@code ready} counts rows, a deferred constraint trigger on {@code table} makes every
     * writing COMMIT fail with 53100 disk_full (constraint triggers fire at COMMIT: PostgreSQL documentation,
     * CREATE TRIGGER).
     */
    private static RunOutcome runWithFullDiskAtCommit(isostress.harness.config.Campaign c, String table, String ready)
            throws Exception {
        Throwable[] failed = new Throwable[1];
        StringWriter sw = new StringWriter();
        RunOutcome o = new CampaignRunner(c, new PrintWriter(sw), false).onDatabaseStarted(db -> {
            Thread t = new Thread(() -> {
                try (Connection conn = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                     Statement s = conn.createStatement()) {
                    Terminator.await(s, ready);
                    s.execute("CREATE FUNCTION isostress_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                            + "RAISE EXCEPTION 'disk full (test)' USING ERRCODE = '53100'; END $$");
                    s.execute("CREATE CONSTRAINT TRIGGER isostress_full AFTER INSERT OR UPDATE OR DELETE ON " + table
                            + " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION isostress_full()");
                } catch (Throwable e) {
                    failed[0] = e;
                }
            }, "pg-trigger");
            t.setDaemon(true);
            t.start();
        }).run(0, 5);
        System.out.print(sw);
        assertNull(failed[0], () -> "installing the trigger failed: " + failed[0]);
        return o;
    }

    static List<JsonNode> completions(Path history, String type) throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(history)) {
            JsonNode n = json.readTree(line);
            if (type.equals(n.path("type").asText())) out.add(n);
        }
        return out;
    }

    /**
     * Once the workload commits, makes COMMITs wait for a standby that never comes, terminates the first backend seen
     * waiting (remembering its transaction id), asks the server whether that transaction committed, and lets the
     * other COMMITs go.
     */
    static final class Terminator implements Runnable {
        volatile RunningDatabase db;
        volatile Throwable failed;
        volatile String xid;
        volatile String status;

        @Override
        public void run() {
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                 Statement s = c.createStatement()) {
                try {
                    await(s, "SELECT count(*) FROM isostress_kv WHERE v <> 0");
                    s.execute("ALTER SYSTEM SET synchronous_standby_names = 'nobody'");
                    s.execute("SELECT pg_reload_conf()");
                    String pid = await(s, "SELECT pid, backend_xid FROM pg_stat_activity WHERE wait_event = 'SyncRep'"
                            + " AND backend_xid IS NOT NULL ORDER BY pid LIMIT 1");
                    try (ResultSet rs = s.executeQuery("SELECT backend_xid FROM pg_stat_activity WHERE pid = " + pid)) {
                        rs.next();
                        xid = rs.getString(1);
                    }
                    s.execute("SELECT pg_terminate_backend(" + pid + ")");
                    awaitGone(s, pid);
                    // A fresh cluster is in epoch 0, so the 32-bit xid is the 64-bit txid.
                    try (ResultSet rs = s.executeQuery("SELECT txid_status(" + xid + ")")) {
                        rs.next();
                        status = rs.getString(1);
                    }
                } finally {
                    s.execute("ALTER SYSTEM RESET synchronous_standby_names");
                    s.execute("SELECT pg_reload_conf()");
                }
            } catch (Throwable e) {
                failed = e;
            }
        }

        /** Polls {@code sql} until its first column is a non-zero count or any row; returns that value. */
        static String await(Statement s, String sql) throws InterruptedException {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = s.executeQuery(sql)) {
                    if (rs.next() && !"0".equals(rs.getString(1))) return rs.getString(1);
                } catch (SQLException e) {
                    // the table is not there yet
                }
                Thread.sleep(20);
            }
            throw new IllegalStateException("nothing after 60 s: " + sql);
        }

        private static void awaitGone(Statement s, String pid) throws SQLException, InterruptedException {
            for (int i = 0; i < 3000; i++) {
                try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_stat_activity WHERE pid = " + pid)) {
                    if (!rs.next()) return;
                }
                Thread.sleep(10);
            }
            throw new IllegalStateException("backend " + pid + " still there 30 s after pg_terminate_backend");
        }
    }
}
