package isostress.harness.run;

import isostress.checker.model.Verdict;
import isostress.harness.Services;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static isostress.checker.model.IsolationLevel.SNAPSHOT_ISOLATION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** End to end against a local MariaDB 10.11 (Debian's mariadb-server). */
class MariaDbCampaignTest {
    @TempDir
    Path store;

    @BeforeEach
    void needsMariaDb() {
        Services.requireLocalMariaDb();
    }

    static String yaml(String name, String isolation, String snapshot, String levels) {
        return "name: " + name + "\n"
                + "database: {type: mariadb, provision: local, isolation: " + isolation
                + ", settings: {innodb_snapshot_isolation: \"" + snapshot + "\"}}\n"
                + "workload: {type: mini, sessions: 8, transactions: 3000, keys: 10, distribution: zipfian, seed: 3}\n"
                + "check: {levels: " + levels + "}\n";
    }

    @Test
    void repeatableReadLosesUpdatesWithoutSnapshotIsolation() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml("rr-off", "repeatable-read", "OFF", "[snapshot-isolation]")));
        assertNull(o.error(), o.error());
        assertEquals(Verdict.INVALID, o.result().level(SNAPSHOT_ISOLATION).verdict());
        assertTrue(o.result().anomalyCounts().getOrDefault("lost-update", 0) > 0, o.result().anomalyCounts().toString());
    }

    @Test
    void repeatableReadWithSnapshotIsolationOnKeepsUpdates() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml("rr-on", "repeatable-read", "ON", "[snapshot-isolation]")));
        assertNull(o.error(), o.error());
        assertEquals(Verdict.VALID, o.result().level(SNAPSHOT_ISOLATION).verdict(),
                o.result().level(SNAPSHOT_ISOLATION).reason());
        assertTrue(o.stats().aborted() > 0, "first committer wins: error 1020 aborts some transactions");
    }

    @Test
    void serializableIsClean() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml("ser", "serializable", "OFF", "[serializable]")));
        assertNull(o.error(), o.error());
        assertEquals(Verdict.VALID, o.result().level(SERIALIZABLE).verdict());
        assertEquals(0, o.exitStatus());
    }
}
