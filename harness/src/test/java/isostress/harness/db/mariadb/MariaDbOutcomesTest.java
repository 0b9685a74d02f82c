package isostress.harness.db.mariadb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mariadb.jdbc.Configuration;
import org.mariadb.jdbc.HostAddress;
import org.mariadb.jdbc.export.ExceptionFactory;

import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Failure;

import static isostress.harness.db.Failure.ABORTED;
import static isostress.harness.db.Failure.FATAL;
import static isostress.harness.db.Failure.FATAL_IN_DOUBT;
import static isostress.harness.db.Failure.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MariaDbAdapter.classify, one row per vendor code it knows and per driver failure, before COMMIT and at COMMIT, on
 * the exceptions MariaDB Connector/J itself makes from a server's error packet (its ExceptionFactory picks the
 * SQLException subclass from the SQLSTATE: 08 SQLNonTransientConnectionException, 40 SQLTransactionRollbackException,
 * 70100 SQLTimeoutException, ...). Codes and SQLSTATEs: MariaDB Error Code Reference
 * (https://mariadb.com/kb/en/mariadb-error-code-reference/); 3101 from MySQL's server error reference; 2006 and 2013
 * are the client library's (CR_SERVER_GONE_ERROR, CR_SERVER_LOST, errmsg.h).
 */
class MariaDbOutcomesTest {
    private static final MariaDbAdapter MARIA = new MariaDbAdapter();
    private static final ExceptionFactory DRIVER;

    static {
        try {
            DRIVER = new ExceptionFactory(Configuration.parse("jdbc:mariadb://db1.example:3306/isostress"),
                    HostAddress.from("db1.example", 3306));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A server error packet (errno, SQLSTATE, message) as the driver turns it into an exception. */
    static SQLException server(int code, String sqlState, String message) {
        return DRIVER.create(message, sqlState, code);
    }

    static Stream<Arguments> table() {
        return Stream.of(
                // Documented aborts.
                row("1213 ER_LOCK_DEADLOCK", server(1213, "40001", "Deadlock found when trying to get lock; try "
                        + "restarting transaction"), ABORTED, ABORTED),
                row("1020 ER_CHECKREAD", server(1020, "HY000", "Record has changed since last read in table "
                        + "'isostress_kv'"), ABORTED, ABORTED),
                row("3101 ER_TRANSACTION_ROLLBACK_DURING_COMMIT", server(3101, "40000", "Plugin instructed the "
                        + "server to rollback the current transaction."), ABORTED, ABORTED),
                row("compare-and-set mismatch", new DatabaseAdapter.CasMismatch(1, 2), ABORTED, ABORTED),
                // Ended from outside, a lost server or a timeout: aborts before COMMIT, unknown at it.
                row("1205 ER_LOCK_WAIT_TIMEOUT", server(1205, "HY000", "Lock wait timeout exceeded; try restarting "
                        + "transaction"), ABORTED, UNKNOWN),
                row("1927 ER_CONNECTION_KILLED", server(1927, "70100", "Connection was killed"), ABORTED, UNKNOWN),
                row("1053 ER_SERVER_SHUTDOWN", server(1053, "08S01", "Server shutdown in progress"), ABORTED, UNKNOWN),
                row("1317 ER_QUERY_INTERRUPTED", server(1317, "70100", "Query execution was interrupted"), ABORTED,
                        UNKNOWN),
                row("1969 ER_STATEMENT_TIMEOUT", server(1969, "70100", "Query execution was interrupted "
                        + "(max_statement_time exceeded)"), ABORTED, UNKNOWN),
                row("1047 ER_UNKNOWN_COM_ERROR (Galera: node not ready)", server(1047, "08S01", "WSREP has not yet "
                        + "prepared node for application use"), ABORTED, UNKNOWN),
                row("1180 ER_ERROR_DURING_COMMIT (Galera lost the primary component)", server(1180, "HY000",
                        "Error while appending streaming replication fragment(provider status: Not connected to "
                        + "Primary Component)"), ABORTED, UNKNOWN),
                row("1181 ER_ERROR_DURING_ROLLBACK", server(1181, "HY000", "Got error 1 during ROLLBACK"), ABORTED,
                        UNKNOWN),
                row("2006 CR_SERVER_GONE_ERROR", server(2006, "HY000", "MySQL server has gone away"), ABORTED, UNKNOWN),
                row("2013 CR_SERVER_LOST", server(2013, "HY000", "Lost connection to server during query"), ABORTED,
                        UNKNOWN),
                // The driver's own link failures.
                row("08000 socket error, connection reset", DRIVER.create("Socket error", "08000",
                        new SocketException("Connection reset")), ABORTED, UNKNOWN),
                row("08000 socket error, read timed out", DRIVER.create("Socket error", "08000",
                        new SocketTimeoutException("Read timed out")), ABORTED, UNKNOWN),
                row("SQLTransientConnectionException (HikariCP)", new SQLTransientConnectionException(
                        "isostress-n1 - Connection is not available, request timed out after 5000ms."), ABORTED, UNKNOWN),
                // Anything else: the run stops; fail before COMMIT, info at it.
                row("1146 ER_NO_SUCH_TABLE", server(1146, "42S02", "Table 'isostress.isostress_kv' doesn't exist"),
                        FATAL, FATAL_IN_DOUBT),
                row("1062 ER_DUP_ENTRY", server(1062, "23000", "Duplicate entry '1' for key 'PRIMARY'"), FATAL,
                        FATAL_IN_DOUBT),
                row("1021 ER_DISK_FULL", server(1021, "HY000", "Disk full (/var/lib/mysql); waiting for someone to "
                        + "free some space..."), FATAL, FATAL_IN_DOUBT),
                row("4999 a code no one knows", server(4999, "HY000", "new in MariaDB 99"), FATAL, FATAL_IN_DOUBT));
    }

    static Arguments row(String name, SQLException e, Failure beforeCommit, Failure atCommit) {
        return Arguments.of(name, e, beforeCommit, atCommit);
    }

    @ParameterizedTest(name = "{0}: {2} before COMMIT, {3} at COMMIT")
    @MethodSource("table")
    void classify(String name, SQLException e, Failure beforeCommit, Failure atCommit) {
        assertEquals(beforeCommit, MARIA.classify(e, false), "before COMMIT");
        assertEquals(atCommit, MARIA.classify(e, true), "at COMMIT");
    }

    @Test
    void theTableHasEveryCodeTheClassifierKnows() {
        Set<Integer> inTable = new HashSet<>();
        table().forEach(a -> inTable.add(((SQLException) a.get()[1]).getErrorCode()));
        Set<Integer> known = new HashSet<>(MariaDbAdapter.ABORTS);
        known.addAll(MariaDbAdapter.INTERRUPTS);
        known.removeAll(inTable);
        assertTrue(known.isEmpty(), "codes without a row: " + known);
    }
}
