package isostress.harness.db.mysql;

import isostress.harness.db.Failure;
import isostress.harness.db.SqlAdapter;
import isostress.harness.db.mariadb.InnoDbAdapter;

import java.sql.SQLException;
import java.util.Set;

/**
 * MySQL through MySQL Connector/J. The statements are MariaDB's (InnoDB, ON DUPLICATE KEY UPDATE, CONCAT); the
 * error codes are MySQL's own.
 */
public final class MySqlAdapter extends InnoDbAdapter {
    public MySqlAdapter(boolean upsert, java.time.Duration opPause, int tables) {
        super(upsert, opPause, tables);
    }

    @Override
    public String name() {
        return "mysql";
    }

    /**
     * What a MySQL error number says (MySQL 8.4 Server Error Message Reference,
     * https://dev.mysql.com/doc/mysql-errors/8.4/en/server-error-reference.html, and the Client Error Message
     * Reference), then {@link Failure#of} decides by place:
     * <ul>
     *   <li>abort: 1213 ER_LOCK_DEADLOCK (SQLSTATE 40001; Connector/J throws MySQLTransactionRollbackException),
     *   3101 ER_TRANSACTION_ROLLBACK_DURING_COMMIT (Group Replication's certification failure at COMMIT), and any
     *   other SQLSTATE 40001 serialization failure. MySQL's InnoDB has no first-committer-wins mode, so MariaDB's
     *   1020 ER_CHECKREAD is not an abort here.</li>
     *   <li>interrupted: 1205 ER_LOCK_WAIT_TIMEOUT (InnoDB rolls back only the statement; we roll back the rest),
     *   1053 ER_SERVER_SHUTDOWN, 1317 ER_QUERY_INTERRUPTED (KILL QUERY), 3024 ER_QUERY_TIMEOUT
     *   (max_execution_time), 4031 ER_CLIENT_INTERACTION_TIMEOUT (wait_timeout), the client's 2006
     *   CR_SERVER_GONE_ERROR and 2013 CR_SERVER_LOST; MariaDB's 1927 ER_CONNECTION_KILLED and 1969
     *   ER_STATEMENT_TIMEOUT, since {@code provision: local} runs a MariaDB server (MySQL has no error numbered
     *   either); and the driver's own link and timeout failures
     *   ({@link SqlAdapter#interrupted}: Connector/J's CommunicationsException is an SQLRecoverableException with
     *   SQLSTATE 08S01, its MySQLTimeoutException an SQLTimeoutException).</li>
     *   <li>anything else is unexpected.</li>
     * </ul>
     */
    @Override
    public Failure classify(SQLException e, boolean committing) {
        return Failure.of(cause(e), committing);
    }

    /** Error numbers of a rolled-back transaction. */
    static final Set<Integer> ABORTS = Set.of(1213, 3101);

    /** Error numbers of a session or statement ended from outside, a lost server or a timeout. */
    static final Set<Integer> INTERRUPTS = Set.of(1205, 1053, 1317, 3024, 4031, 2006, 2013, 1927, 1969);

    static Failure.Cause cause(SQLException e) {
        if (e instanceof CasMismatch) return Failure.Cause.ABORT;
        if (ABORTS.contains(e.getErrorCode())) return Failure.Cause.ABORT;
        // Before the SQLSTATE rule: Connector/J gives a lock wait timeout SQLSTATE 40001 too, and it is no abort.
        if (INTERRUPTS.contains(e.getErrorCode()) || interrupted(e)) return Failure.Cause.INTERRUPTED;
        if ("40001".equals(e.getSQLState())) return Failure.Cause.ABORT;
        return Failure.Cause.UNEXPECTED;
    }
}
