package isostress.harness.db;

import isostress.harness.Services;
import org.junit.jupiter.api.BeforeEach;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * {@link InterruptedTxnContract} on a local MariaDB 10.11. A COMMIT is held in flight by semi-synchronous
 * replication with no replica (MariaDB documentation, "Semisynchronous Replication"): with
 * {@code rpl_semi_sync_master_enabled}, {@code rpl_semi_sync_master_wait_no_slave=ON} and a long
 * {@code rpl_semi_sync_master_timeout}, a writing COMMIT is written to the binary log and InnoDB, then waits for a
 * replica's acknowledgement (process list state "Waiting for semi-sync ACK from slave", wait point AFTER_COMMIT by
 * default). {@code KILL <id>} ends the session (MariaDB documentation, "KILL [CONNECTION | QUERY]").
 */
class MariaDbInterruptedTxnTest extends InterruptedTxnContract {
    @BeforeEach
    void needsMariaDb() {
        Services.requireLocalMariaDb();
    }

    @Override
    String campaignYaml() {
        return "name: maria-interrupted\n"
                + "database: {type: mariadb, provision: local, isolation: read-committed,"
                + " settings: {log_bin: isostress-bin, server_id: \"1\"}}\n"
                + "workload: {type: rw-register, sessions: 1, transactions: 1, keys: 10, seed: 1}\n";
    }

    @Override
    void holdCommits(Statement admin, boolean on) throws SQLException {
        if (on) {
            admin.execute("SET GLOBAL rpl_semi_sync_master_wait_no_slave = ON");
            admin.execute("SET GLOBAL rpl_semi_sync_master_timeout = 600000"); // ms: longer than the test
        }
        admin.execute("SET GLOBAL rpl_semi_sync_master_enabled = " + (on ? "ON" : "OFF"));
    }

    @Override
    String waitingInCommit(Statement admin) throws SQLException {
        return first(admin, "SELECT ID FROM information_schema.PROCESSLIST WHERE STATE LIKE '%semi-sync ACK%'");
    }

    /**
     * The session running the contract's blocked UPDATE (key 3 := 33; Connector/J sends it as text, parameters
     * inlined), which can only be running while it waits for the row lock. Not INNODB_TRX's 'LOCK WAIT': InnoDB
     * refreshes that table's cache only when it was not read for 100 ms (trx0i_s.cc, CACHE_MIN_IDLE_TIME_US), so a
     * poll every 10 ms can read the state from before the wait forever.
     */
    @Override
    String waitingForLock(Statement admin) throws SQLException {
        return first(admin, "SELECT ID FROM information_schema.PROCESSLIST"
                + " WHERE INFO = 'UPDATE isostress_kv SET v = 33 WHERE k = 3'");
    }

    @Override
    void kill(Statement admin, String id) throws SQLException {
        admin.execute("KILL " + id);
    }

    private static String first(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
