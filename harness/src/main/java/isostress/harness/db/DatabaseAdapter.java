package isostress.harness.db;

import isostress.checker.history.MicroOp;
import isostress.generator.workload.WorkloadType;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * One database's SQL: the schema, the statements for each micro-op, the isolation mapping and the meaning of its
 * error codes. One class per database.
 *
 * <p>Schema: one table of integer keys, every key present from the start with value 0 (registers) or the empty
 * string (lists), so a read never finds nothing and 0 is the initial value the history's header announces.
 */
public interface DatabaseAdapter {
    /** The initial value of every register. */
    long INITIAL = 0;

    String name();

    /**
     * The {@code host:port} of the server {@code c} reached, as its URL names it, or null when the driver does not
     * say. Asked once per connection; it matters where a URL names several servers (a multi-host URL that follows
     * the primary): the node a session was given is then not the one its transactions ran on.
     */
    default String serverAddress(Connection c) {
        return null;
    }

    /** JDBC's constant for {@code i}, or throws when the database has no such level. */
    int jdbcIsolation(Isolation i);

    /** (Re)creates the table for {@code type} with keys {@code 0..maxKey}. */
    void createSchema(Connection c, WorkloadType type, long maxKey) throws SQLException;

    /** How many keys the table for {@code type} holds (a cluster node has the schema once this is all of them). */
    long keyCount(Connection c, WorkloadType type) throws SQLException;

    /**
     * Runs {@code ops} in the current transaction of {@code statements}' connection (auto-commit off), through its
     * reused prepared statements, and returns them completed: reads with their values; a compare-and-set that did
     * not apply makes {@link CasMismatch} thrown. {@code casExpected} gives the expected value of each cas op (the
     * session's last read of that key).
     */
    List<MicroOp> execute(Statements statements, List<MicroOp> ops, CasExpectations casExpected) throws SQLException;

    /**
     * What {@code e} means: the database's code gives a {@link Failure.Cause}, and {@link Failure#of} the outcome by
     * place; {@code committing} when it came from COMMIT.
     */
    Failure classify(SQLException e, boolean committing);

    /** The expected values of compare-and-sets, per key (the session's last read). */
    interface CasExpectations {
        long expected(long key);
    }

    /** A compare-and-set found another value: the transaction takes no effect (Jepsen records it as fail). */
    final class CasMismatch extends SQLException {
        public CasMismatch(long key, long expected) {
            super("compare-and-set of key " + key + " expected " + expected + " and found another value");
        }
    }
}
