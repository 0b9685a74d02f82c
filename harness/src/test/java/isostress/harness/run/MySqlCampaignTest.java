package isostress.harness.run;

import isostress.checker.model.Verdict;
import isostress.harness.Services;
import isostress.harness.config.Campaign;
import isostress.harness.db.ClientFactory;
import isostress.harness.db.JdbcClientFactory;
import isostress.harness.db.DbNode;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static isostress.checker.model.IsolationLevel.SNAPSHOT_ISOLATION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code type: mysql} end to end: MySQL Connector/J against the local MariaDB 10.11 ({@code provision: local}), the
 * same campaigns as {@link MariaDbCampaignTest} with the same verdicts.
 */
class MySqlCampaignTest {
    @TempDir
    Path store;

    @BeforeEach
    void needsMariaDb() {
        Services.requireLocalMariaDb();
    }

    static String yaml(String name, String isolation, String levels) {
        return MariaDbCampaignTest.yaml(name, isolation, "OFF", levels).replace("type: mariadb", "type: mysql");
    }

    @Test
    void theClientsUseConnectorJ() throws Exception {
        Campaign c = Campaigns.parse(store, yaml("driver", "serializable", "[serializable]"));
        try (RunningDatabase db = Provisioner.of(c.database()).start(c.database(), store.resolve("logs"), 4)) {
            List<String> urls = db.nodes().stream().map(DbNode::url).toList();
            try (ClientFactory f = c.database().type().clients(c.database(), db, urls, java.util.Map.of(), 1);
                 Connection conn = ((JdbcClientFactory) f).connection(0)) {
                assertTrue(conn.isWrapperFor(com.mysql.cj.jdbc.JdbcConnection.class), conn.getClass().getName());
                assertEquals("MySQL Connector/J", conn.getMetaData().getDriverName());
            }
        }
    }

    @Test
    void repeatableReadLosesUpdatesWithoutSnapshotIsolation() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml("rr-off", "repeatable-read", "[snapshot-isolation]")));
        assertNull(o.error(), o.error());
        assertEquals(Verdict.INVALID, o.result().level(SNAPSHOT_ISOLATION).verdict());
        assertTrue(o.result().anomalyCounts().getOrDefault("lost-update", 0) > 0, o.result().anomalyCounts().toString());
    }

    /** The sql workload's statements (MariaDB's, read back by write id) through Connector/J record a sound history. */
    @Test
    void sqlWorkloadRecordsAWellFormedHistory() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, SqlWorkloadMariaDbTest.yaml("mysql-sql", "repeatable-read",
                ", isolation-mix: {repeatable-read: 1, read-committed: 1, serializable: 1}", "5ms", 3)
                .replace("type: mariadb", "type: mysql")));
        assertNull(o.error(), o.error());
        SqlHistoryAudit h = new SqlHistoryAudit(o.dir().history()).wellFormed();
        assertEquals(30, h.txns.size());
        assertEquals(java.util.Set.of("si", "rc", "ser"), h.levels.keySet(), "levels " + h.levels);
        assertTrue(h.rowsChecked >= 20, "only " + h.rowsChecked + " returned rows");
    }

    @Test
    void serializableIsClean() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml("ser", "serializable", "[serializable]")));
        assertNull(o.error(), o.error());
        assertEquals(Verdict.VALID, o.result().level(SERIALIZABLE).verdict());
        assertEquals(0, o.exitStatus());
    }
}
