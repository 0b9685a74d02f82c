package isostress.harness.db.mariadb;

import isostress.harness.db.Failure;
import isostress.harness.db.SqlAdapter;

import java.sql.SQLException;
import java.util.Set;

/** MariaDB (MariaDB Connector/J). There is no snapshot level; repeatable read is InnoDB's. */
public final class MariaDbAdapter extends InnoDbAdapter {
    /** Writes as UPDATE, no pauses, one table. */
    public MariaDbAdapter() {
        this(false, java.time.Duration.ZERO, 1);
    }

    public MariaDbAdapter(boolean upsert, java.time.Duration opPause, int tables) {
        super(upsert, opPause, tables);
    }

    @Override
    public String name() {
        return "mariadb";
    }

    /**
     * What a vendor code says (MariaDB Error Code Reference,
     * https://mariadb.com/kb/en/mariadb-error-code-reference/), then {@link Failure#of} decides by place:
     * <ul>
     *   <li>abort: 1213 ER_LOCK_DEADLOCK (also Galera's certification failure, reported at COMMIT), 1020
     *   ER_CHECKREAD (record changed since last read: InnoDB's snapshot isolation, innodb_snapshot_isolation=ON,
     *   rolls the transaction back), 3101 ER_TRANSACTION_ROLLBACK_DURING_COMMIT (MySQL's server error reference:
     *   a plugin rolled the commit back).</li>
     *   <li>interrupted: 1205 ER_LOCK_WAIT_TIMEOUT (InnoDB rolls back only the statement; we roll back the rest),
     *   1927 ER_CONNECTION_KILLED (KILL), 1053 ER_SERVER_SHUTDOWN, 1317 ER_QUERY_INTERRUPTED (KILL QUERY), 1969
     *   ER_STATEMENT_TIMEOUT (max_statement_time), 1047 ER_UNKNOWN_COM_ERROR (Galera: node not in the primary
     *   component), 1180 ER_ERROR_DURING_COMMIT and 1181 ER_ERROR_DURING_ROLLBACK (Galera reports a node that lost
     *   the primary component during COMMIT so: "Error while appending streaming replication fragment (provider
     *   status: Not connected to Primary Component)", seen under GaleraClusterTest's partitions), the client's 2006
     *   CR_SERVER_GONE_ERROR and 2013 CR_SERVER_LOST; and the driver's own link and timeout failures
     *   ({@link SqlAdapter#interrupted}: SQLState 08, Connector/J's SQLTimeoutException for SQLState 70100).</li>
     *   <li>anything else is unexpected.</li>
     * </ul>
     */
    @Override
    public Failure classify(SQLException e, boolean committing) {
        return Failure.of(cause(e), committing);
    }

    /** Vendor codes of a rolled-back transaction. */
    static final Set<Integer> ABORTS = Set.of(1213, 1020, 3101);

    /** Vendor codes of a session or statement ended from outside, a lost server or a timeout. */
    static final Set<Integer> INTERRUPTS = Set.of(1205, 1927, 1053, 1317, 1969, 1047, 1180, 1181, 2006, 2013);

    static Failure.Cause cause(SQLException e) {
        if (e instanceof CasMismatch) return Failure.Cause.ABORT;
        if (ABORTS.contains(e.getErrorCode())) return Failure.Cause.ABORT;
        if (INTERRUPTS.contains(e.getErrorCode()) || interrupted(e)) return Failure.Cause.INTERRUPTED;
        return Failure.Cause.UNEXPECTED;
    }
}
