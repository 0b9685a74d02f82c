package isostress.harness.run;

import isostress.checker.model.IsolationLevel;
import isostress.harness.config.Campaign;
import isostress.harness.db.Provision;
import isostress.harness.db.RunningDatabase;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The shipped known-bug campaigns (configs/known-bugs/) do what their comments say, one shortened run each:
 * PostgreSQL 12.3 SERIALIZABLE shows G2-item, 12.6 with the same campaign and seed does not. (The MariaDB pair is
 * MariaDbCampaignTest's; the 10-run figures are in the issue notes, measured with `isostress run` on the files.)
 * The 12.3 campaign also runs unchanged in Docker ({@code --provision docker}), on an image built here from
 * the same zonky binaries.
 */
class KnownBugsTest {
    private static final Path KNOWN = Path.of("..", "configs", "known-bugs");

    @TempDir
    Path store;

    /**
     * The shipped campaign with one run and its own seed, stored in the test's directory, with {@code from} in its
     * text replaced by {@code to} (the shipped runs last 60 s).
     */
    private RunOutcome runShipped(String file, String from, String to) throws Exception {
        return runShipped(file, from, to, null, db -> { });
    }

    /**
     * {@link #runShipped(String, String, String)} with {@code database.provision} replaced as {@code isostress run
     * --provision} replaces it (null: as shipped), and {@code started} called with the database before the workload.
     */
    private RunOutcome runShipped(String file, String from, String to, Provision provision,
                                  Consumer<RunningDatabase> started) throws Exception {
        String yaml = Files.readString(KNOWN.resolve(file)).replaceAll("(?m)^runs: \\d+$", "runs: 1");
        assertTrue(yaml.contains(from), file + " has " + from);
        Campaign c = Campaigns.parse(store, yaml.replace(from, to), provision);
        return new CampaignRunner(c, new java.io.PrintWriter(System.out, true), false).onDatabaseStarted(started)
                .run(0, c.workload().seed());
    }

    /** What postgres-12.3-serializable.yaml says it shows: serializable invalid, through write skew. */
    private static void assertWriteSkew(RunOutcome bug) {
        assertNull(bug.error(), bug.error());
        assertEquals(Verdict.INVALID, bug.result().level(IsolationLevel.SERIALIZABLE).verdict());
        assertTrue(bug.result().anomalyCounts().keySet().stream().anyMatch(t -> t.startsWith("G2-item")),
                "write skew expected: " + bug.result().anomalyCounts());
    }

    /**
     * 12.3 shows write skew within seconds (measured: 10 of 10 one-minute runs, median 1.3 s, about 2,000
     * transactions). 12.6 has the fix, but PostgreSQL's SSI still lets a rare G2-item through on this workload
     * (docs/findings/postgres-12.6-serializable-g2-item.md: 1 violation in 10 one-minute runs, at 58 s after 128,000
     * transactions, so about one per 1.3 million transactions). The fixed server runs 8,000 transactions (a count, not
     * a duration, so a loaded machine runs the same test; about 4,000 commit, twice what 12.3 needs to fail) once,
     * never again until it passes: a violation fails the test with a message naming that finding and the run
     * directory kept under target/kept-runs/. Measured flake rate of exactly this run ({@code isostress run
     * --runs=1} on the shipped file with {@code transactions: 8000}, repeated on a shared 2-core machine): 0
     * violations in 40 runs (and 0 in 30 runs of 5 s); the one-minute figure puts it near 8,000 / 1.3 million,
     * about 0.6%.
     */
    @Test
    void postgres123SerializableShowsWriteSkewAnd126DoesNot() throws Exception {
        assertWriteSkew(runShipped("postgres-12.3-serializable.yaml", "duration: 60s", "duration: 40s"));

        RunOutcome fixed = runShipped("postgres-12.6-serializable.yaml", "transactions: 1000000", "transactions: 8000");
        assertNull(fixed.error(), fixed.error());
        if (fixed.result().level(IsolationLevel.SERIALIZABLE).verdict() != Verdict.VALID) {
            fail(Campaigns.possiblyKnownFinding(fixed, "PostgreSQL 12.6 SERIALIZABLE after "
                    + fixed.stats().attempted() + " transactions", "docs/findings/postgres-12.6-serializable-g2-item.md"));
        }
        assertEquals(8000, fixed.stats().attempted(), "the run was not cut short");
        // Not valid for want of trying: about half of these transactions commit (SSI aborts the others).
        assertTrue(fixed.stats().committed() > 3_000, "committed: " + fixed.stats().committed());
    }

    /**
     * The 12.3 campaign, unchanged but for {@code --provision docker}, once: the same rule and the same shortened run
     * as the embedded one above (where 12.3 shows write skew in every one-minute run, median 1.3 s), on PostgreSQL
     * 12.3 in a container of {@code isostress/postgres-zonky:12.3.0}, built from zonky's binaries on the local Debian
     * base unless already here (or the official {@code postgres:12.3}, should the engine have it). Afterwards no
     * container of this JVM's is left.
     */
    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void postgres123SerializableShowsWriteSkewInDocker() throws Exception {
        DockerCli.requireImage(DockerCli.DEBIAN_BASE); // what the image is built on
        AtomicReference<String> version = new AtomicReference<>();
        RunOutcome bug = runShipped("postgres-12.3-serializable.yaml", "duration: 60s", "duration: 40s",
                Provision.DOCKER, db -> version.set(serverVersion(db)));
        System.out.println("docker: " + bug.database());
        assertTrue(bug.database().startsWith("docker PostgreSQL"), bug.database());
        assertEquals("12.3", version.get(), "the campaign's version runs in the container");
        assertWriteSkew(bug);
        assertEquals(List.of(), DockerCli.ownedBy(ProcessHandle.current().pid()), "containers left after the run");
    }

    private static String serverVersion(RunningDatabase db) {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW server_version")) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException("asking the started server its version: " + e.getMessage(), e);
        }
    }
}
