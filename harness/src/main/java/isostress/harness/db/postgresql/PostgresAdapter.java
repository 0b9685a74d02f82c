package isostress.harness.db.postgresql;

import isostress.checker.history.MicroOp;
import isostress.harness.db.Failure;
import isostress.harness.db.Isolation;
import isostress.harness.db.SqlAdapter;
import isostress.harness.db.Statements;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** PostgreSQL (pgjdbc). Repeatable read is snapshot isolation there; snapshot maps to it. */
public final class PostgresAdapter extends SqlAdapter {
    /**
     * The server setting that turns on {@link #SNAPSHOT_SQL} ({@code database.settings}); PostgreSQL accepts any
     * name with a dot as a custom setting, so the server starts with it and a session could read it.
     */
    public static final String LOG_SNAPSHOTS = "isostress.log_snapshots";

    /**
     * Each transaction's first statement when {@link #LOG_SNAPSHOTS} is on: the server writes the transaction's
     * snapshot ({@code xmin:xmax:xip}) into its own log, where {@code log_line_prefix}'s {@code %v} and {@code %x}
     * tie it to the transaction's statements and xid. Being the first statement, it is where a SERIALIZABLE or
     * REPEATABLE READ transaction takes its snapshot, so the line shows the snapshot every later read used, and a
     * reader's snapshot can be held against the writers' xids in the commit log (witness.jsonl's txid).
     * {@code txid_current_snapshot()} rather than {@code pg_current_snapshot()}: the same value, and it exists on
     * 9.x-12 too.
     */
    static final String SNAPSHOT_SQL = "DO $$BEGIN RAISE LOG 'isostress snapshot %', txid_current_snapshot(); END$$";

    private final boolean logSnapshots;

    /** Writes as UPDATE, no pauses, one table. */
    public PostgresAdapter() {
        this(false, java.time.Duration.ZERO, 1);
    }

    public PostgresAdapter(boolean upsert, java.time.Duration opPause, int tables) {
        this(upsert, opPause, tables, false);
    }

    /** @param logSnapshots each transaction first logs its snapshot on the server ({@link #SNAPSHOT_SQL}) */
    public PostgresAdapter(boolean upsert, java.time.Duration opPause, int tables, boolean logSnapshots) {
        super(upsert, opPause, tables);
        this.logSnapshots = logSnapshots;
    }

    /** pgjdbc's connection knows which of a multi-host URL's servers it reached. */
    @Override
    public String serverAddress(Connection c) {
        try {
            org.postgresql.util.HostSpec h = c.unwrap(org.postgresql.core.BaseConnection.class).getQueryExecutor()
                    .getHostSpec();
            return h.getHost() + ":" + h.getPort();
        } catch (SQLException e) {
            return null; // not pgjdbc's connection
        }
    }

    /** Whether the campaign's server settings turn {@link #LOG_SNAPSHOTS} on (the loader refused other values). */
    static boolean logSnapshots(Map<String, String> settings) {
        String v = settings.get(LOG_SNAPSHOTS);
        return v != null && Boolean.TRUE.equals(booleanValue(v));
    }

    /** A boolean setting's value as PostgreSQL spells them (on/off, true/false, yes/no, 1/0), or null for another. */
    static Boolean booleanValue(String v) {
        String s = v.trim().toLowerCase(java.util.Locale.ROOT);
        if (Set.of("on", "true", "yes", "1").contains(s)) return true;
        if (Set.of("off", "false", "no", "0").contains(s)) return false;
        return null;
    }

    @Override
    public List<MicroOp> execute(Statements st, List<MicroOp> ops, CasExpectations casExpected) throws SQLException {
        if (logSnapshots) st.get(SNAPSHOT_SQL).execute();
        return super.execute(st, ops, casExpected);
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
