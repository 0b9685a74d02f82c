package isostress.harness.db;

import isostress.harness.config.Campaign;

import java.sql.Connection;
import java.sql.SQLException;

/** PostgreSQL (pgjdbc). Repeatable read is snapshot isolation there; snapshot maps to it. */
public final class PostgresAdapter extends SqlAdapter {
    /** Writes as UPDATE, no pauses, one table. */
    public PostgresAdapter() {
        this(false, java.time.Duration.ZERO, 1);
    }

    public PostgresAdapter(boolean upsert, java.time.Duration opPause, int tables) {
        super(upsert, opPause, tables);
    }

    @Override
    String appendUpsertSql(String table) {
        return "INSERT INTO " + table + " AS t (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = t.v || ',' || EXCLUDED.v";
    }

    @Override
    String upsertSql(String table) {
        return "INSERT INTO " + table + " (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v";
    }

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public int jdbcIsolation(Campaign.Isolation i) {
        switch (i) {
            case READ_UNCOMMITTED: return Connection.TRANSACTION_READ_UNCOMMITTED;
            case READ_COMMITTED: return Connection.TRANSACTION_READ_COMMITTED;
            case REPEATABLE_READ:
            case SNAPSHOT: return Connection.TRANSACTION_REPEATABLE_READ;
            default: return Connection.TRANSACTION_SERIALIZABLE;
        }
    }

    @Override
    String appendSql(String table) {
        return "UPDATE " + table + " SET v = v || ',' || ? WHERE k = ?";
    }

    /**
     * 40001 serialization_failure and 40P01 deadlock_detected abort the transaction (also when COMMIT reports
     * them: PostgreSQL's SSI can fail at commit); class 08 or a timeout during COMMIT leaves the outcome unknown, and
     * before COMMIT it aborts. 57014 query_canceled (statement timeout) aborts a statement. Class 25 (invalid
     * transaction state) and anything else means the harness is wrong.
     */
    @Override
    public Failure classify(SQLException e, boolean committing) {
        if (e instanceof CasMismatch) return Failure.ABORTED;
        String st = e.getSQLState();
        if ("40001".equals(st) || "40P01".equals(st) || "57014".equals(st) || "55P03".equals(st)) {
            return Failure.ABORTED;
        }
        if (connectionLost(e) || "57P01".equals(st) || "57P02".equals(st) || "57P03".equals(st)) {
            return committing ? Failure.UNKNOWN : Failure.ABORTED;
        }
        return Failure.FATAL;
    }
}
