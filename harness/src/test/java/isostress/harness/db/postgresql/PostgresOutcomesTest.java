package isostress.harness.db.postgresql;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;
import org.postgresql.util.ServerErrorMessage;

import java.io.EOFException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
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
 * PostgresAdapter.classify, one row per SQLSTATE it knows and per driver failure, before COMMIT and at COMMIT, on
 * pgjdbc's own exceptions: a server error is parsed from the ErrorResponse fields the server sends (S severity,
 * C SQLSTATE, M message; PostgreSQL documentation 55.8 "Error and Notice Message Fields"), as pgjdbc does; driver
 * errors are built as pgjdbc builds them. Codes: PostgreSQL documentation, Appendix A "PostgreSQL Error Codes"
 * (https://www.postgresql.org/docs/16/errcodes-appendix.html).
 */
class PostgresOutcomesTest {
    private static final PostgresAdapter PG = new PostgresAdapter();

    /** A server error as pgjdbc receives it. */
    static PSQLException server(String severity, String sqlState, String message) {
        return new PSQLException(new ServerErrorMessage("S" + severity + "\0V" + severity + "\0C" + sqlState + "\0M"
                + message + "\0"));
    }

    static Stream<Arguments> table() {
        return Stream.of(
                // Documented aborts: the transaction is rolled back wherever they come (13.6 "Serialization Failure
                // Handling": retry 40001 and 40P01).
                row("40001 serialization_failure", server("ERROR", "40001", "could not serialize access due to "
                        + "read/write dependencies among transactions"), ABORTED, ABORTED),
                row("40P01 deadlock_detected", server("ERROR", "40P01", "deadlock detected"), ABORTED, ABORTED),
                row("compare-and-set mismatch", new DatabaseAdapter.CasMismatch(1, 2), ABORTED, ABORTED),
                // Ended from outside: aborts before COMMIT, unknown at it.
                row("57P01 admin_shutdown", server("FATAL", "57P01", "terminating connection due to administrator "
                        + "command"), ABORTED, UNKNOWN),
                row("57P02 crash_shutdown", server("FATAL", "57P02", "terminating connection because of crash of "
                        + "another server process"), ABORTED, UNKNOWN),
                row("57P03 cannot_connect_now", server("FATAL", "57P03", "the database system is shutting down"),
                        ABORTED, UNKNOWN),
                row("57P05 idle_session_timeout", server("FATAL", "57P05", "terminating connection due to idle-"
                        + "session timeout"), ABORTED, UNKNOWN),
                row("25P03 idle_in_transaction_session_timeout", server("FATAL", "25P03", "terminating connection "
                        + "due to idle-in-transaction timeout"), ABORTED, UNKNOWN),
                row("57014 query_canceled", server("ERROR", "57014", "canceling statement due to statement timeout"),
                        ABORTED, UNKNOWN),
                row("55P03 lock_not_available", server("ERROR", "55P03", "canceling statement due to lock timeout"),
                        ABORTED, UNKNOWN),
                row("40003 statement_completion_unknown", server("ERROR", "40003", "statement completion unknown"),
                        ABORTED, UNKNOWN),
                row("08P01 protocol_violation (class 08)", server("FATAL", "08P01", "invalid frontend message type"),
                        ABORTED, UNKNOWN),
                // pgjdbc's own link failures (PSQLState, class 08) and JDBC's connection and timeout types.
                row("08006 connection_failure: end of stream", new PSQLException("An I/O error occurred while "
                        + "sending to the backend.", PSQLState.CONNECTION_FAILURE, new EOFException()), ABORTED, UNKNOWN),
                row("08006 connection_failure: read timed out", new PSQLException("An I/O error occurred while "
                        + "sending to the backend.", PSQLState.CONNECTION_FAILURE,
                        new SocketTimeoutException("Read timed out")), ABORTED, UNKNOWN),
                row("08003 connection_does_not_exist", new PSQLException("This connection has been closed.",
                        PSQLState.CONNECTION_DOES_NOT_EXIST), ABORTED, UNKNOWN),
                row("no SQLSTATE, SocketTimeoutException cause", new PSQLException("Read timed out", null,
                        new SocketTimeoutException("Read timed out")), ABORTED, UNKNOWN),
                row("SQLTransientConnectionException (HikariCP)", new SQLTransientConnectionException(
                        "isostress-n1 - Connection is not available, request timed out after 5000ms."), ABORTED, UNKNOWN),
                row("SQLNonTransientConnectionException", new SQLNonTransientConnectionException("closed"), ABORTED,
                        UNKNOWN),
                row("SQLTimeoutException", new SQLTimeoutException("timed out"), ABORTED, UNKNOWN),
                row("SQLRecoverableException", new SQLRecoverableException("link lost"), ABORTED, UNKNOWN),
                // Anything else: the run stops; recorded fail before COMMIT, info at it (it may have committed).
                row("23505 unique_violation", server("ERROR", "23505", "duplicate key value violates unique "
                        + "constraint"), FATAL, FATAL_IN_DOUBT),
                row("42P01 undefined_table", server("ERROR", "42P01", "relation \"isostress_kv\" does not exist"),
                        FATAL, FATAL_IN_DOUBT),
                row("53100 disk_full", server("ERROR", "53100", "could not extend file: No space left on device"),
                        FATAL, FATAL_IN_DOUBT),
                row("XX000 internal_error", server("ERROR", "XX000", "internal error"), FATAL, FATAL_IN_DOUBT),
                row("25P02 in_failed_sql_transaction (pgjdbc: COMMIT answered ROLLBACK)", new PSQLException("The "
                        + "database returned ROLLBACK, so the transaction cannot be committed.",
                        PSQLState.IN_FAILED_SQL_TRANSACTION), FATAL, FATAL_IN_DOUBT),
                row("ZZ999 a code no one knows", server("ERROR", "ZZ999", "new in PostgreSQL 99"), FATAL,
                        FATAL_IN_DOUBT),
                row("no SQLSTATE, no cause", new SQLException("something"), FATAL, FATAL_IN_DOUBT));
    }

    static Arguments row(String name, SQLException e, Failure beforeCommit, Failure atCommit) {
        return Arguments.of(name, e, beforeCommit, atCommit);
    }

    @ParameterizedTest(name = "{0}: {2} before COMMIT, {3} at COMMIT")
    @MethodSource("table")
    void classify(String name, SQLException e, Failure beforeCommit, Failure atCommit) {
        assertEquals(beforeCommit, PG.classify(e, false), "before COMMIT");
        assertEquals(atCommit, PG.classify(e, true), "at COMMIT");
    }

    @Test
    void theTableHasEveryCodeTheClassifierKnows() {
        Set<String> inTable = new HashSet<>();
        table().forEach(a -> inTable.add(((SQLException) a.get()[1]).getSQLState()));
        Set<String> known = new HashSet<>(PostgresAdapter.ABORTS);
        known.addAll(PostgresAdapter.INTERRUPTS);
        known.removeAll(inTable);
        assertTrue(known.isEmpty(), "codes without a row: " + known);
    }
}
