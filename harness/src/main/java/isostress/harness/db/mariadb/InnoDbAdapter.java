package isostress.harness.db.mariadb;

import isostress.harness.db.Isolation;
import isostress.harness.db.SqlAdapter;

import java.sql.Connection;
import java.time.Duration;

/**
 * The statements and isolation levels of InnoDB, the same whichever Connector/J sends them: upserts by ON DUPLICATE
 * KEY UPDATE, appends by CONCAT, no snapshot level (repeatable read is InnoDB's). Subclasses name the database and
 * classify its driver's errors.
 */
public abstract class InnoDbAdapter extends SqlAdapter {
    protected InnoDbAdapter(boolean upsert, Duration opPause, int tables) {
        super(upsert, opPause, tables);
    }

    @Override
    protected final String appendUpsertSql(String table) {
        return "INSERT INTO " + table + " (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = CONCAT(v, ',', VALUES(v))";
    }

    @Override
    protected final String upsertSql(String table) {
        return "INSERT INTO " + table + " (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = VALUES(v)";
    }

    @Override
    protected final String appendSql(String table) {
        return "UPDATE " + table + " SET v = CONCAT(v, ',', ?) WHERE k = ?";
    }

    @Override
    public final int jdbcIsolation(Isolation i) {
        switch (i) {
            case READ_UNCOMMITTED: return Connection.TRANSACTION_READ_UNCOMMITTED;
            case READ_COMMITTED: return Connection.TRANSACTION_READ_COMMITTED;
            case REPEATABLE_READ: return Connection.TRANSACTION_REPEATABLE_READ;
            case SERIALIZABLE: return Connection.TRANSACTION_SERIALIZABLE;
            default: throw new IllegalArgumentException(name() + " has no " + i.yamlName() + " isolation level");
        }
    }
}
