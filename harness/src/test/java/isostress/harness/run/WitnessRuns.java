package isostress.harness.run;

import isostress.checker.history.History;
import isostress.checker.history.Outcome;
import isostress.checker.model.WitnessFinding;
import isostress.checker.model.WitnessReport;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.RunningDatabase;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the tests of runs with a captured commit log ask of a history and its witness, whatever the database. */
final class WitnessRuns {
    private WitnessRuns() {
    }

    /** Transactions of the history that wrote something, with outcome {@code o}. */
    static long writers(History h, Outcome o) {
        long n = 0;
        for (int t = 0; t < h.size(); t++) {
            if (h.outcome(t) != o) continue;
            for (int op = h.firstOp(t); op < h.endOp(t); op++) {
                if (h.opKind(op) != History.READ && h.opKind(op) != History.LIST_READ) {
                    n++;
                    break;
                }
            }
        }
        return n;
    }

    /** The initial rows (every key = the initial value) were written before the capture began: none is in the log. */
    static void assertNoInitialRow(Path witness) throws Exception {
        for (String line : Files.readAllLines(witness)) {
            assertFalse(line.matches(".*\\[\"w\",-?\\d+," + DatabaseAdapter.INITIAL + "\\].*"), line);
        }
    }

    /** A key no workload of the tests uses (their keys are below a thousand). */
    static final long DELETED_KEY = 1_000_000;

    /**
     * Runs {@code c} while another client, once the workload has committed (so the capture has begun), inserts a row
     * of the workload's table ({@code isostress_lists} when {@code lists}, else {@code isostress_kv}) at
     * {@link #DELETED_KEY} with the initial value and deletes it, in one transaction: a delete the history does not
     * hold, as another client, a trigger or a bug would make. Then checks that the run's verdict is invalid with
     * exactly one unrecorded-write finding, the delete, and returns the outcome.
     */
    static RunOutcome runWithSideDelete(isostress.harness.config.Campaign c, boolean lists) throws Exception {
        Throwable[] failed = new Throwable[1];
        StringWriter sw = new StringWriter();
        RunOutcome o = new CampaignRunner(c, new PrintWriter(sw), false).onDatabaseStarted(db -> {
            Thread t = new Thread(() -> {
                try {
                    sideDelete(db, lists);
                } catch (Throwable e) {
                    failed[0] = e;
                }
            }, "side-delete");
            t.setDaemon(true);
            t.start();
        }).run(0, c.workload().seed());
        System.out.print(sw);
        assertNull(failed[0], () -> "the side delete failed: " + failed[0]);
        assertNull(o.error(), o.error());
        WitnessReport w = o.result().witness();
        assertEquals(1, w.unrecordedWrite(), w.summary());
        assertEquals(1, w.findingCount(), w.summary());
        WitnessFinding f = w.findings().get(0);
        assertEquals(WitnessFinding.Kind.UNRECORDED_WRITE, f.kind());
        assertEquals(java.util.List.of(new isostress.checker.history.MicroOp.Delete(DELETED_KEY)), f.writes(),
                "only the delete: the insert wrote the initial value");
        assertEquals(1, o.exitStatus(), "a witness finding makes the verdict invalid");
        String results = Files.readString(o.dir().results());
        assertTrue(results.contains("deleted key " + DELETED_KEY), "results.json explains the delete");
        assertTrue(results.contains("[ \"delete\", " + DELETED_KEY + " ]")
                || results.contains("[\"delete\"," + DELETED_KEY + "]"), "results.json lists the delete");
        assertTrue(Files.readString(o.dir().witness()).contains("[\"delete\"," + DELETED_KEY + "]"),
                "witness.jsonl holds the delete");
        return o;
    }

    private static void sideDelete(RunningDatabase db, boolean lists) throws SQLException, InterruptedException {
        String table = lists ? "isostress_lists" : "isostress_kv";
        String initial = lists ? "''" : Long.toString(DatabaseAdapter.INITIAL);
        try (Connection conn = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement s = conn.createStatement()) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (true) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table + " WHERE v <> " + initial)) {
                    if (rs.next() && rs.getLong(1) > 0) break;
                } catch (SQLException e) {
                    // the table is not there yet
                }
                if (System.nanoTime() > deadline) throw new IllegalStateException("the workload wrote nothing in 60 s");
                Thread.sleep(20);
            }
            conn.setAutoCommit(false);
            s.executeUpdate("INSERT INTO " + table + " (k, v) VALUES (" + DELETED_KEY + ", " + initial + ")");
            s.executeUpdate("DELETE FROM " + table + " WHERE k = " + DELETED_KEY);
            conn.commit();
        }
    }
}
