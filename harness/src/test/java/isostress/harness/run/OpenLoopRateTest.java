package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code workload.rate} runs open loop, and latency counts from each transaction's intended start,
 * so a stall shows in p99 (no coordinated omission).
 *
 * <p>1,000 mini-transactions at 120/s over 6 sessions on embedded PostgreSQL: slots 0 .. 8.3 s. Once a few
 * transactions have committed, another connection holds an ACCESS EXCLUSIVE lock on the table for 2 s (every
 * statement of the workload waits for it). Why the bounds hold whatever the machine's speed:
 * <ul>
 *   <li>achieved rate at most 1.01x the target: the last slot is at 8.3 s, so the run lasts at least that long;
 *   at least 0.75x: the run may overrun its last slot by 2.8 s (the sessions catch up on the stall's 240
 *   backlogged transactions at 20/s each, a 50 ms transaction, on a loaded 2-core machine);</li>
 *   <li>intended-start p99 at least 1 s: the slots in the lock's first second (120 transactions, 12% of the run;
 *   the test checks they lie within the schedule) cannot finish before the lock is released, at least 1 s after
 *   their slot;</li>
 *   <li>service-time p99 below that: only a transaction already sent when the lock was taken waits in the
 *   database, at most one per session (6, 0.6% of the run), and the backlog starts when the lock is gone; below
 *   1 s too, unless a two-statement transaction takes a second without a stall.</li>
 * </ul>
 */
class OpenLoopRateTest {
    /** Transaction 999's slot at 120/s, in seconds. */
    private static final double LAST_SLOT = 999 / 120.0;
    @TempDir
    Path store;

    @Test
    void fixedRateAchievedAndAStallRaisesIntendedStartP99() throws Exception {
        var c = Campaigns.parse(store, "name: open-loop\n"
                + "database: {type: postgresql, provision: embedded, isolation: read-committed}\n"
                + "workload: {type: mini, sessions: 6, transactions: 1000, keys: 200, seed: 7, rate: 120/s}\n"
                + "check: {levels: [rc], streaming: false}\n");
        assertEquals(120.0, c.rate());
        AtomicLong locked = new AtomicLong(), released = new AtomicLong();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        StringWriter sw = new StringWriter();
        RunOutcome o = new CampaignRunner(c, new PrintWriter(sw), false).onDatabaseStarted(db -> {
            Thread t = new Thread(() -> {
                try (Connection conn = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                     Statement s = conn.createStatement()) {
                    awaitCommits(s, 20);
                    conn.setAutoCommit(false);
                    s.execute("LOCK TABLE isostress_kv IN ACCESS EXCLUSIVE MODE");
                    locked.set(System.nanoTime());
                    Thread.sleep(2000);
                    conn.commit();
                    released.set(System.nanoTime());
                } catch (Throwable e) {
                    failed.set(e);
                }
            }, "stall");
            t.setDaemon(true);
            t.start();
        }).run(0, c.workload().seed());
        System.out.print(sw);
        assertNull(failed.get(), () -> "the stall thread failed: " + failed.get());
        assertNull(o.error(), o.error());
        RunStats s = o.stats();
        assertEquals(1000, s.attempted());
        assertTrue(released.get() - locked.get() >= 2_000_000_000L);
        double lockAt = (locked.get() - s.startNanos()) / 1e9;
        assertTrue(lockAt >= 0 && lockAt + 1 <= LAST_SLOT, "the stall began at " + lockAt + " s, not inside the schedule");

        double achieved = s.attemptRate();
        assertTrue(achieved <= 1.01 * 120 && achieved >= 0.75 * 120, "achieved " + achieved + "/s of 120/s");
        Map<String, Double> latency = s.latencyMs(), service = s.serviceMs();
        assertTrue(latency.get("p99") >= 1000, "intended-start latency " + latency + ", service " + service);
        assertTrue(service.get("p99") < latency.get("p99") && service.get("p99") < 1000,
                "intended-start latency " + latency + ", service " + service);

        JsonNode stats = new ObjectMapper().readTree(o.dir().results().toFile()).path("stats");
        assertEquals(120.0, stats.path("target_rate_per_s").asDouble());
        assertEquals(latency.get("p99"), stats.path("latency_ms").path("p99").asDouble());
        assertEquals(service.get("p99"), stats.path("service_time_ms").path("p99").asDouble());
        assertTrue(stats.path("session_time_ms").path("schedule").asLong() > 0, stats.toString());
        String hlog = Files.readString(o.dir().latencyLog());
        assertTrue(hlog.contains("Tag=latency,") && hlog.contains("Tag=service,"), hlog);
        String report = Files.readString(o.dir().path().resolve("report.html"));
        assertTrue(report.contains("Latency from the intended start"), () -> "report.html has no intended-start "
                + "chart: " + report.substring(report.indexOf("<section id=\"timeline\">")));
    }

    /** Waits (bounded) until {@code n} keys hold a written value: the workload is under way. */
    private static void awaitCommits(Statement s, int n) throws SQLException, InterruptedException {
        for (int i = 0; i < 6000; i++) {
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM isostress_kv WHERE v <> 0")) {
                if (rs.next() && rs.getLong(1) >= n) return;
            } catch (SQLException e) {
                // the table is not created yet
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException("no " + n + " written keys after 60 s");
    }
}
