package isostress.harness.run;

import isostress.harness.Services;
import isostress.harness.provision.Provisioner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code workload.type: sql} against a local MariaDB 10.11 (issue 7). MariaDB has no UPDATE ... RETURNING, so the
 * recorder reads written rows back by write id; the audit's "no write read itself" and "every writer wrote that
 * key" checks would fail if {@code SET prev_wid = wid, wid = ?} did not copy the old write id first.
 */
class SqlWorkloadMariaDbTest {
    @TempDir
    Path store;

    @BeforeEach
    void needsMariaDb() {
        Services.require(Provisioner.mariaDbInstalled(), "a local MariaDB server (mariadbd)",
                "apt-get install -y mariadb-server");
    }

    static String yaml(String name, String isolation, String extra, int txns, long seed) {
        return "name: " + name + "\n"
                + "database: {type: mariadb, provision: local, isolation: " + isolation + ", op-pause: 5ms, "
                + "settings: {innodb_snapshot_isolation: \"OFF\"}}\n"
                + "workload: {type: sql, sessions: 3, transactions: " + txns + ", keys: 4, groups: 2, seed: " + seed
                + extra + "}\n";
    }

    @Test
    void recordsAWellFormedHistory() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml("maria-sql", "repeatable-read",
                ", isolation-mix: {repeatable-read: 1, read-committed: 1, serializable: 1}", 45, 3)));
        assertNull(o.error(), o.error());
        SqlHistoryAudit h = new SqlHistoryAudit(o.dir().history()).wellFormed();
        assertEquals(45, h.txns.size());
        assertEquals(Set.of("si", "rc", "ser"), h.levels.keySet(), "levels " + h.levels);
        assertTrue(h.outcomes.getOrDefault("ok", 0) >= 20, "outcomes " + h.outcomes);
        assertTrue(h.rowsChecked >= 20, "only " + h.rowsChecked + " returned rows");
    }
}
