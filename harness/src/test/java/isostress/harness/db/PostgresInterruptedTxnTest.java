package isostress.harness.db;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * {@link InterruptedTxnContract} on embedded PostgreSQL 16. A COMMIT is held in flight by synchronous replication
 * to a standby that never connects ({@code synchronous_standby_names = 'nobody'}; PostgreSQL documentation, 27.2.8
 * "Synchronous Replication"): the commit record is written locally, then the backend waits in wait event
 * {@code SyncRep}. {@code pg_terminate_backend} ends the session (PostgreSQL documentation, 9.28.2 "Server
 * Signaling Functions"); the server notes that "the transaction has already committed locally". A backend
 * waiting for a row lock is terminated the same way before COMMIT.
 */
class PostgresInterruptedTxnTest extends InterruptedTxnContract {
    @Override
    String campaignYaml() {
        return "name: pg-interrupted\n"
                + "database: {type: postgresql, provision: embedded, isolation: read-committed}\n"
                + "workload: {type: rw-register, sessions: 1, transactions: 1, keys: 10, seed: 1}\n";
    }

    @Override
    void holdCommits(Statement admin, boolean on) throws SQLException {
        admin.execute(on ? "ALTER SYSTEM SET synchronous_standby_names = 'nobody'"
                : "ALTER SYSTEM RESET synchronous_standby_names");
        admin.execute("SELECT pg_reload_conf()");
        // pg_reload_conf only signals the postmaster. Once this backend has the new value, the postmaster has re-read
        // the file and signalled every backend, and each applies it before it runs its next command.
        String want = on ? "nobody" : "";
        try {
            await(() -> want.equals(first(admin, "SHOW synchronous_standby_names")) ? want : null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted", e);
        }
    }

    @Override
    String waitingInCommit(Statement admin) throws SQLException {
        return first(admin, "SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep'");
    }

    @Override
    String waitingForLock(Statement admin) throws SQLException {
        return first(admin, "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'");
    }

    @Override
    void kill(Statement admin, String id) throws SQLException {
        admin.execute("SELECT pg_terminate_backend(" + id + ")");
    }

    private static String first(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
