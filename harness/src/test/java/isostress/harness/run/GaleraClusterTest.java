package isostress.harness.run;

import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.Verdict;
import isostress.harness.Services;
import isostress.harness.faults.FaultRecord;
import isostress.harness.faults.Iptables;
import isostress.harness.db.mariadb.LocalMariaDbProvisioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static isostress.checker.model.IsolationLevel.READ_COMMITTED;
import static isostress.checker.model.IsolationLevel.SNAPSHOT_ISOLATION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A local 3-node Galera cluster: healthy with writes on every node, and under kill, pause and partition. */
class GaleraClusterTest {
    @TempDir
    Path store;

    private static void requireGalera() {
        Services.require(LocalMariaDbProvisioner.galeraAvailable(), "a local MariaDB Galera cluster",
                "apt-get install -y mariadb-server galera-4 rsync");
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void healthyClusterRunsOnEveryNodeAndIsChecked() throws Exception {
        requireGalera();
        RunOutcome o = Campaigns.run(Campaigns.parse(store, "name: galera\n"
                + "database: {type: mariadb, provision: local, nodes: 3, isolation: repeatable-read,"
                + " settings: {wsrep_sync_wait: 1, innodb_flush_log_at_trx_commit: 0}}\n"
                + "workload: {type: mini, sessions: 6, transactions: 6000, keys: 20, distribution: zipfian, seed: 2}\n"
                + "check: {levels: [read-committed, snapshot-isolation]}\n"));
        assertNull(o.error(), o.error());
        assertTrue(o.database().contains("3 nodes") && o.database().contains("synced in"), o.database());
        History h = HistoryFormat.JSONL.read(o.dir().history());
        Set<String> nodes = new HashSet<>();
        for (int t = 0; t < h.size(); t++) nodes.add(h.node(t));
        assertEquals(Set.of("n1", "n2", "n3"), nodes);
        assertTrue(o.stats().committed() > 3000, "committed " + o.stats().committed());
        assertEquals(Verdict.VALID, o.result().level(READ_COMMITTED).verdict());
        // Snapshot isolation is decided (exact for mini-transactions); Galera has lost updates across nodes.
        Verdict si = o.result().level(SNAPSHOT_ISOLATION).verdict();
        assertNotEquals(Verdict.UNKNOWN, si);
        System.out.println("galera healthy: SI " + si + " " + o.result().anomalyCounts());
        for (String n : new String[] {"n1", "n2", "n3"}) {
            assertTrue(o.dir().logs().resolve(n + "-error.log").toFile().length() > 0, n + " log");
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void clusterUnderKillPauseAndPartitionCompletes() throws Exception {
        requireGalera();
        Services.require(Iptables.available(), "iptables (as root)", "apt-get install -y iptables, run as root");
        RunOutcome o = Campaigns.run(Campaigns.parse(store, "name: galera-faults\n"
                + "database: {type: mariadb, provision: local, nodes: 3, isolation: repeatable-read, timeout: 3s}\n"
                + "workload: {type: mini, sessions: 6, transactions: 1000000, keys: 50, seed: 3, duration: 50s}\n"
                + "nemesis: {faults: [kill, pause, partition], interval: 3s, duration: 5s, targets: [2, 3], seed: 4}\n"
                + "check: {levels: [read-committed]}\n"));
        assertNull(o.error(), o.error());
        assertTrue(o.faults().size() >= 3, o.faults().toString());
        Set<String> kinds = new HashSet<>();
        for (FaultRecord f : o.faults()) {
            kinds.add(f.kind());
            assertNull(f.error(), f.error());
            assertTrue(f.node().equals("n2") || f.node().equals("n3"), f.node());
            if (f.kind().equals("kill")) System.out.println("galera restart after kill: " + f.healMillis() + " ms");
        }
        System.out.println("galera faults: " + kinds + ", nodes " + o.nodes());
        assertTrue(kinds.size() >= 2, "fault kinds " + kinds);
        Map<?, ?> all = (Map<?, ?>) o.nodes().get("all");
        assertTrue(((Number) all.get("untouched_determinate_ratio")).doubleValue() >= 0.95, all.toString());
        assertTrue(o.stats().committed() > 1000, "committed " + o.stats().committed());
        assertNotEquals(Verdict.UNKNOWN, o.result().level(READ_COMMITTED).verdict());
        assertTrue(!Iptables.list().contains(Iptables.CHAIN), "iptables rules left");
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void clusterUnderLatencyAndDroppedConnectionsCompletes() throws Exception {
        requireGalera();
        RunOutcome o = Campaigns.run(Campaigns.parse(store, "name: galera-link-faults\n"
                + "database: {type: mariadb, provision: local, nodes: 3, isolation: repeatable-read, timeout: 3s}\n"
                + "workload: {type: mini, sessions: 6, transactions: 1000000, keys: 50, seed: 5, duration: 20s}\n"
                + "nemesis: {faults: [latency, drop], interval: 2s, duration: 2s, latency: 50ms, seed: 3}\n"
                + "check: {levels: [read-committed]}\n"));
        assertNull(o.error(), o.error());
        Set<String> kinds = new HashSet<>();
        for (FaultRecord f : o.faults()) {
            kinds.add(f.kind());
            assertNull(f.error(), f.error());
        }
        assertEquals(Set.of("latency", "drop"), kinds, o.faults().toString());
        Map<?, ?> all = (Map<?, ?>) o.nodes().get("all");
        assertTrue(((Number) all.get("untouched_determinate_ratio")).doubleValue() >= 0.95, all.toString());
        assertEquals(Verdict.VALID, o.result().level(READ_COMMITTED).verdict(), o.result().anomalyCounts().toString());
    }
}
