package isostress.harness.run;

import isostress.checker.model.IsolationLevel;
import isostress.harness.config.Campaign;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 6: the shipped known-bug campaigns (configs/known-bugs/) do what their comments say, one shortened run each:
 * PostgreSQL 12.3 SERIALIZABLE shows G2-item, 12.6 with the same campaign and seed does not. (The MariaDB pair is
 * MariaDbCampaignTest's; the 10-run figures are in the issue notes, measured with `isostress run` on the files.)
 */
class KnownBugsTest {
    private static final Path KNOWN = Path.of("..", "configs", "known-bugs");

    @TempDir
    Path store;

    /** The shipped campaign with one run of {@code seconds} and seed + {@code seedOffset}, stored in the test's directory. */
    private RunOutcome runShipped(String file, int seconds, int seedOffset) throws Exception {
        String yaml = Files.readString(KNOWN.resolve(file))
                .replace("duration: 60s", "duration: " + seconds + "s")
                .replaceAll("(?m)^runs: \\d+$", "runs: 1");
        assertTrue(yaml.contains("duration: " + seconds + "s"), file + " has a 60 s duration to shorten");
        Campaign c = Campaigns.parse(store, yaml);
        RunOutcome o = new CampaignRunner(c, new java.io.PrintWriter(System.out, true), false)
                .run(0, c.workload().seed() + seedOffset);
        return o;
    }

    /**
     * 12.3 shows write skew within seconds (measured: 10 of 10 one-minute runs, median 1.3 s, about 2,000
     * transactions). 12.6 has the fix, but PostgreSQL's SSI still lets a rare G2-item through on this workload
     * (measured: 1 of 10 one-minute runs of 12.6, at 58 s after 128,000 transactions; docs/findings/): so the fixed
     * server must stay valid over 15 s, and if that rare cycle strikes, over 15 s of the next seed. The 12.3 bug
     * would fail both within a second.
     */
    @Test
    void postgres123SerializableShowsWriteSkewAnd126DoesNot() throws Exception {
        RunOutcome bug = runShipped("postgres-12.3-serializable.yaml", 40, 0);
        assertEquals(Verdict.INVALID, bug.result().level(IsolationLevel.SERIALIZABLE).verdict());
        assertTrue(bug.result().anomalyCounts().keySet().stream().anyMatch(t -> t.startsWith("G2-item")),
                "write skew expected: " + bug.result().anomalyCounts());

        RunOutcome fixed = runShipped("postgres-12.6-serializable.yaml", 15, 0);
        if (fixed.violation()) {
            System.out.println("PostgreSQL 12.6 let a G2-item through after " + fixed.stats().attempted()
                    + " transactions (rare: docs/findings/); running the next seed");
            fixed = runShipped("postgres-12.6-serializable.yaml", 15, 1);
        }
        assertEquals(Verdict.VALID, fixed.result().level(IsolationLevel.SERIALIZABLE).verdict());
        // Not valid for want of trying: the fixed server committed thousands of the same transactions.
        assertTrue(fixed.stats().committed() > 5_000, "committed: " + fixed.stats().committed());
    }
}
