package isostress.harness.db.postgresql;

import isostress.harness.db.Failure;
import isostress.harness.db.Isolation;
import isostress.harness.db.SqlAdapter;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

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
    protected String appendUpsertSql(String table) {
        return "INSERT INTO " + table + " AS t (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = t.v || ',' || EXCLUDED.v";
    }

    @Override
    protected String upsertSql(String table) {
        return "INSERT INTO " + table + " (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v";
    }

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public int jdbcIsolation(Isolation i) {
        switch (i) {
            case READ_UNCOMMITTED: return Connection.TRANSACTION_READ_UNCOMMITTED;
            case READ_COMMITTED: return Connection.TRANSACTION_READ_COMMITTED;
            case REPEATABLE_READ:
            case SNAPSHOT: return Connection.TRANSACTION_REPEATABLE_READ;
            default: return Connection.TRANSACTION_SERIALIZABLE;
        }
    }

    @Override
    protected String appendSql(String table) {
        return "UPDATE " + table + " SET v = v || ',' || ? WHERE k = ?";
    }

    /**
     * What a SQLSTATE says (PostgreSQL documentation, Appendix A "PostgreSQL Error Codes",
     * https://www.postgresql.org/docs/16/errcodes-appendix.html), then {@link Failure#of} decides by place:
     * <ul>
     *   <li>abort: 40001 serialization_failure and 40P01 deadlock_detected. Both roll the transaction back, also when
     *   COMMIT reports them (SSI can fail at commit; chapter 13.4 "Serializable Isolation Level" and 13.6
     *   "Serialization Failure Handling" tell applications to retry them).</li>
     *   <li>interrupted: class 08 (connection exception), 57P01 admin_shutdown (pg_terminate_backend, smart/fast
     *   shutdown), 57P02 crash_shutdown, 57P03 cannot_connect_now, 57P05 idle_session_timeout, 25P03
     *   idle_in_transaction_session_timeout, 57014 query_canceled (statement_timeout, pg_cancel_backend), 55P03
     *   lock_not_available (lock_timeout), 40003 statement_completion_unknown; and the driver's own link and timeout
     *   failures ({@link SqlAdapter#interrupted}).</li>
     *   <li>anything else (25P02 in_failed_sql_transaction at COMMIT too: it means an error went unnoticed) is
     *   unexpected.</li>
     * </ul>
     */
    @Override
    public Failure classify(SQLException e, boolean committing) {
        return Failure.of(cause(e), committing);
    }

    /** SQLSTATEs of a rolled-back transaction. */
    static final Set<String> ABORTS = Set.of("40001", "40P01");

    /** SQLSTATEs of a session or statement ended from outside: a shutdown, a termination, a timeout. */
    static final Set<String> INTERRUPTS = Set.of("57P01", "57P02", "57P03", "57P05", "25P03", "57014", "55P03",
            "40003");

    static Failure.Cause cause(SQLException e) {
        if (e instanceof CasMismatch) return Failure.Cause.ABORT;
        String st = e.getSQLState() == null ? "" : e.getSQLState(); // Set.of(..).contains(null) throws
        if (ABORTS.contains(st)) return Failure.Cause.ABORT;
        if (INTERRUPTS.contains(st) || interrupted(e)) return Failure.Cause.INTERRUPTED;
        return Failure.Cause.UNEXPECTED;
    }
}
