package isostress.harness.db.mysql;

import com.mysql.cj.jdbc.exceptions.CommunicationsException;
import com.mysql.cj.jdbc.exceptions.MySQLTimeoutException;
import com.mysql.cj.jdbc.exceptions.MySQLTransactionRollbackException;
import com.mysql.cj.jdbc.exceptions.SQLError;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Failure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.EOFException;
import java.net.SocketException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

import static isostress.harness.db.Failure.ABORTED;
import static isostress.harness.db.Failure.FATAL;
import static isostress.harness.db.Failure.FATAL_IN_DOUBT;
import static isostress.harness.db.Failure.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MySqlAdapter.classify, one row per error number it knows and per driver failure, before COMMIT and at COMMIT, on
 * the exceptions MySQL Connector/J itself makes from a server's error packet ({@link SQLError#createSQLException}
 * picks the subclass from the SQLSTATE and error number: 40xxx MySQLTransactionRollbackException, 08xxx
 * SQLNonTransientConnectionException, 70100 MySQLQueryInterruptedException) and for a lost link
 * ({@link CommunicationsException}). Numbers and SQLSTATEs: MySQL 8.4 Server and Client Error Message References
 * (https://dev.mysql.com/doc/mysql-errors/8.4/en/).
 */
class MySqlOutcomesTest {
    private static final MySqlAdapter MYSQL = new MySqlAdapter(false, Duration.ZERO, 1);

    /** A server error packet (errno, SQLSTATE, message) as Connector/J turns it into an exception. */
    static SQLException server(int code, String sqlState, String message) {
        return SQLError.createSQLException(message, sqlState, code, null);
    }

    static Stream<Arguments> table() {
        return Stream.of(
                // Documented aborts.
                row("1213 ER_LOCK_DEADLOCK", server(1213, "40001", "Deadlock found when trying to get lock; try "
                        + "restarting transaction"), ABORTED, ABORTED),
                row("3101 ER_TRANSACTION_ROLLBACK_DURING_COMMIT", server(3101, "40000", "Plugin instructed the "
                        + "server to rollback the current transaction."), ABORTED, ABORTED),
                row("40001 with another number", server(3572, "40001", "Serialization failure"), ABORTED, ABORTED),
                row("compare-and-set mismatch", new DatabaseAdapter.CasMismatch(1, 2), ABORTED, ABORTED),
                // Ended from outside, a lost server or a timeout: aborts before COMMIT, unknown at it.
                row("1205 ER_LOCK_WAIT_TIMEOUT", server(1205, "HY000", "Lock wait timeout exceeded; try restarting "
                        + "transaction"), ABORTED, UNKNOWN),
                row("1053 ER_SERVER_SHUTDOWN", server(1053, "08S01", "Server shutdown in progress"), ABORTED, UNKNOWN),
                row("1317 ER_QUERY_INTERRUPTED", server(1317, "70100", "Query execution was interrupted"), ABORTED,
                        UNKNOWN),
                row("3024 ER_QUERY_TIMEOUT", server(3024, "HY000", "Query execution was interrupted, maximum "
                        + "statement execution time exceeded"), ABORTED, UNKNOWN),
                row("4031 ER_CLIENT_INTERACTION_TIMEOUT", server(4031, "HY000", "The client was disconnected by the "
                        + "server because of inactivity."), ABORTED, UNKNOWN),
                row("1927 ER_CONNECTION_KILLED (a MariaDB server)", server(1927, "70100", "Connection was killed"),
                        ABORTED, UNKNOWN),
                row("1969 ER_STATEMENT_TIMEOUT (a MariaDB server)", server(1969, "70100", "Query execution was "
                        + "interrupted (max_statement_time exceeded)"), ABORTED, UNKNOWN),
                row("2006 CR_SERVER_GONE_ERROR", server(2006, "HY000", "MySQL server has gone away"), ABORTED, UNKNOWN),
                row("2013 CR_SERVER_LOST", server(2013, "HY000", "Lost connection to MySQL server during query"),
                        ABORTED, UNKNOWN),
                // The driver's own link failures and timeouts.
                row("CommunicationsException, connection reset", new CommunicationsException("Communications link "
                        + "failure", new SocketException("Connection reset")), ABORTED, UNKNOWN),
                row("CommunicationsException, end of stream", new CommunicationsException("Communications link "
                        + "failure", new EOFException("Can not read response from server.")), ABORTED, UNKNOWN),
                row("MySQLTimeoutException (socketTimeout)", new MySQLTimeoutException("Statement cancelled due to "
                        + "timeout or client request"), ABORTED, UNKNOWN),
                row("SQLTransientConnectionException (HikariCP)", new SQLTransientConnectionException(
                        "isostress-n1 - Connection is not available, request timed out after 5000ms."), ABORTED, UNKNOWN),
                // Anything else: the run stops; fail before COMMIT, info at it.
                row("1020 ER_CHECKREAD (MariaDB's snapshot isolation; MySQL's InnoDB never raises it)",
                        server(1020, "HY000", "Record has changed since last read in table 'isostress_kv'"), FATAL,
                        FATAL_IN_DOUBT),
                row("1146 ER_NO_SUCH_TABLE", server(1146, "42S02", "Table 'isostress.isostress_kv' doesn't exist"),
                        FATAL, FATAL_IN_DOUBT),
                row("1062 ER_DUP_ENTRY", server(1062, "23000", "Duplicate entry '1' for key 'PRIMARY'"), FATAL,
                        FATAL_IN_DOUBT),
                row("1021 ER_DISK_FULL", server(1021, "HY000", "Disk full (/var/lib/mysql); waiting for someone to "
                        + "free some space..."), FATAL, FATAL_IN_DOUBT),
                row("4999 a number no one knows", server(4999, "HY000", "new in MySQL 99"), FATAL, FATAL_IN_DOUBT));
    }

    static Arguments row(String name, SQLException e, Failure beforeCommit, Failure atCommit) {
        return Arguments.of(name, e, beforeCommit, atCommit);
    }

    @ParameterizedTest(name = "{0}: {2} before COMMIT, {3} at COMMIT")
    @MethodSource("table")
    void classify(String name, SQLException e, Failure beforeCommit, Failure atCommit) {
        assertEquals(beforeCommit, MYSQL.classify(e, false), "before COMMIT");
        assertEquals(atCommit, MYSQL.classify(e, true), "at COMMIT");
    }

    /** The rows are the driver's real classes, not look-alikes: a deadlock is Connector/J's rollback exception. */
    @Test
    void theDriverMakesItsOwnExceptionClasses() {
        assertInstanceOf(MySQLTransactionRollbackException.class, server(1213, "40001", "Deadlock"));
        assertInstanceOf(java.sql.SQLNonTransientConnectionException.class, server(1053, "08S01", "shutdown"));
    }

    @Test
    void theTableHasEveryCodeTheClassifierKnows() {
        Set<Integer> inTable = new HashSet<>();
        table().forEach(a -> inTable.add(((SQLException) a.get()[1]).getErrorCode()));
        Set<Integer> known = new HashSet<>(MySqlAdapter.ABORTS);
        known.addAll(MySqlAdapter.INTERRUPTS);
        known.removeAll(inTable);
        assertTrue(known.isEmpty(), "codes without a row: " + known);
    }
}
