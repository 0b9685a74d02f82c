package isostress.harness.db;

import isostress.harness.config.Campaign;

import java.sql.Connection;
import java.sql.SQLException;

/** MariaDB and MySQL (MariaDB Connector/J). There is no snapshot level; repeatable read is InnoDB's. */
public final class MariaDbAdapter extends SqlAdapter {
    /** Writes as UPDATE, no pauses, one table. */
    public MariaDbAdapter() {
        this(false, java.time.Duration.ZERO, 1);
    }

    public MariaDbAdapter(boolean upsert, java.time.Duration opPause, int tables) {
        super(upsert, opPause, tables);
    }

    @Override
    String appendUpsertSql(String table) {
        return "INSERT INTO " + table + " (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = CONCAT(v, ',', VALUES(v))";
    }

    @Override
    String upsertSql(String table) {
        return "INSERT INTO " + table + " (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = VALUES(v)";
    }

    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    public int jdbcIsolation(Campaign.Isolation i) {
        switch (i) {
            case READ_UNCOMMITTED: return Connection.TRANSACTION_READ_UNCOMMITTED;
            case READ_COMMITTED: return Connection.TRANSACTION_READ_COMMITTED;
            case REPEATABLE_READ: return Connection.TRANSACTION_REPEATABLE_READ;
            case SERIALIZABLE: return Connection.TRANSACTION_SERIALIZABLE;
            default: throw new IllegalArgumentException("MariaDB has no " + i.yamlName() + " isolation level");
        }
    }

    @Override
    String appendSql(String table) {
        return "UPDATE " + table + " SET v = CONCAT(v, ',', ?) WHERE k = ?";
    }

    /**
     * Vendor codes 1213 (deadlock), 1205 (lock wait timeout) and 1020 (record changed since last read: InnoDB's
     * snapshot isolation, innodb_snapshot_isolation=ON) abort the transaction; 1180/1181 (commit/rollback failed),
     * lost connections (SQLState 08, 2013 lost during query, 2006 gone away, 1927 connection killed) and timeouts
     * during COMMIT leave the outcome unknown, and abort before COMMIT. Galera's 1047 (node not ready) aborts.
     */
    @Override
    public Failure classify(SQLException e, boolean committing) {
        if (e instanceof CasMismatch) return Failure.ABORTED;
        int code = e.getErrorCode();
        if (code == 1213 || code == 1205 || code == 1020 || code == 1047 || code == 3101) return Failure.ABORTED;
        if (code == 1180 || code == 1181 || code == 2013 || code == 2006 || code == 1927 || code == 1053
                || connectionLost(e)) {
            return committing ? Failure.UNKNOWN : Failure.ABORTED;
        }
        return Failure.FATAL;
    }
}
