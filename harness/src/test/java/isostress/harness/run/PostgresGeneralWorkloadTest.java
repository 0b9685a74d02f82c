package isostress.harness.run;

import isostress.checker.Checker;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Verdict;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static isostress.checker.model.IsolationLevel.READ_COMMITTED;
import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static isostress.checker.model.IsolationLevel.SNAPSHOT_ISOLATION;
import static isostress.checker.model.IsolationLevel.STRICT_SERIALIZABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The general workloads end to end against embedded PostgreSQL 16, checked by the general checker: under
 * READ COMMITTED each statement reads its own snapshot, so rw-register and list-append histories violate snapshot
 * isolation; under SERIALIZABLE (SSI) they are snapshot isolation and, but for PostgreSQL's rare G2-item, serializable.
 */
class PostgresGeneralWorkloadTest {
    @TempDir
    Path store;

    static String yaml(String type, String isolation, int txns, int keys, String levels) {
        return "name: pg-" + type + "-" + isolation + "\n"
                + "database: {type: postgresql, provision: embedded, isolation: " + isolation + "}\n"
                + "workload: {type: " + type + ", sessions: 8, transactions: " + txns + ", keys: " + keys
                + ", distribution: zipfian, min-ops: 2, max-ops: 6, read-ratio: 0.5, rotate-after: 40, seed: 11}\n"
                + "check: {levels: " + levels + "}\n";
    }

    static Verdict verdict(RunOutcome o, IsolationLevel l) {
        return o.result().level(l).verdict();
    }

    @ParameterizedTest
    @ValueSource(strings = {"rw-register", "list-append"})
    void readCommittedViolatesSnapshotIsolation(String type) throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml(type, "read-committed", 3000, 10,
                "[read-committed, snapshot-isolation]")));
        assertNull(o.error(), o.error());
        assertEquals(type.equals("rw-register") ? Checker.RW_REGISTER : Checker.LIST_APPEND, o.result().shape());
        assertEquals(Verdict.VALID, verdict(o, READ_COMMITTED), o.result().level(READ_COMMITTED).reason());
        assertEquals(Verdict.INVALID, verdict(o, SNAPSHOT_ISOLATION));
        assertTrue(!o.result().anomalies().isEmpty(), "a counterexample is listed");
        assertEquals(1, o.exitStatus());
    }

    /**
     * Under SERIALIZABLE the history is snapshot isolation, always (SSI is SI plus aborts), and serializable in
     * practice. PostgreSQL's SSI is not quite serializable, though: on 16.15 we saw a G2-item (a read-only
     * transaction, two rw edges and a wr edge; docs/findings/postgres-16.15-serializable-g2-item.md) in 1 of 6 runs
     * of 16 sessions x 40,000 rw-register transactions and once in CI on this test's campaign. The test runs the
     * campaign once, never again until it passes: a violation fails it, with a message naming that finding and the
     * run directory kept under target/kept-runs/.
     *
     * <p>Measured flake rate of this campaign as it stands (8 sessions x 4,000 transactions, 50 keys, seed 11), on
     * embedded 16.15 on a shared 2-core machine: 0 violations in 49 runs of rw-register and 0 in 50 of
     * list-append ({@code isostress run --runs=1 <the same YAML>}, repeated; one more rw-register run crashed before
     * it started), after 0 in 80 rw-register runs for the finding: the one CI failure is the only violation seen
     * (0 in 129 puts a 95% upper bound of about 2.3% per run).
     */
    @ParameterizedTest
    @ValueSource(strings = {"rw-register", "list-append"})
    void serializableIsClean(String type) throws Exception {
        String yaml = yaml(type, "serializable", 4000, 50, "[snapshot-isolation, serializable, strict-serializable]");
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml));
        assertNull(o.error(), o.error());
        assertTrue(o.stats().committed() >= 2000, "committed " + o.stats().committed());
        assertEquals(Verdict.VALID, verdict(o, SNAPSHOT_ISOLATION), o.result().level(SNAPSHOT_ISOLATION).reason());
        if (verdict(o, SERIALIZABLE) != Verdict.VALID || verdict(o, STRICT_SERIALIZABLE) != Verdict.VALID) {
            fail(Campaigns.possiblyKnownFinding(o, "PostgreSQL 16 SERIALIZABLE",
                    "docs/findings/postgres-16.15-serializable-g2-item.md"));
        }
        assertEquals(0, o.exitStatus());
    }
}
