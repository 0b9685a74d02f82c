package isostress.harness.db;

import com.zaxxer.hikari.HikariDataSource;
import isostress.checker.history.MicroOp;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * A session's JDBC connection, taken from its node's pool when first needed and kept (with its prepared
 * statements, {@link Statements}) for the session's transactions. After any error the transaction is rolled back,
 * and a connection that may be broken (lost link, commit in doubt) is discarded, so the next
 * transaction starts on a fresh one.
 */
final class JdbcTxnClient implements TxnClient {
    private final HikariDataSource pool;
    private final DatabaseAdapter adapter;
    private final Map<String, String> nodeAt;
    private Connection conn;
    /** conn's prepared statements, reused by every transaction on it; dropped with it. */
    private Statements statements;
    /** The node the last connection reached, when the driver says which; null otherwise. */
    private String server;

    JdbcTxnClient(HikariDataSource pool, DatabaseAdapter adapter, Map<String, String> nodeAt) {
        this.pool = pool;
        this.adapter = adapter;
        this.nodeAt = nodeAt;
    }

    /**
     * The node the last transaction's connection reached, when the driver names its server: a session on a
     * cluster's multi-host URL follows the primary from member to member, and its transactions ran where the
     * connection went, not on the member the session was given. Null when not known (the session's node then).
     */
    @Override
    public String node() {
        return server;
    }

    @Override
    public List<MicroOp> run(List<MicroOp> ops, DatabaseAdapter.CasExpectations cas) throws TxnFailure, Unreachable {
        if (conn == null) {
            conn = connect();
            statements = new Statements(conn);
        }
        List<MicroOp> done = null;
        boolean committing = false;
        try {
            done = adapter.execute(statements, ops, cas);
            committing = true; // from here on the server may commit, whatever the client hears
            conn.commit();
            return done;
        } catch (SQLException e) {
            Failure f = adapter.classify(e, committing);
            end(f, e);
            String code = "SQLState " + e.getSQLState() + ", code " + e.getErrorCode();
            throw new TxnFailure(f, e.getMessage(), f.inDoubt() ? done : null, code, e);
        } catch (RuntimeException e) {
            // Not the database's answer (a driver or harness bug): judged like an unexpected error at that place.
            Failure f = Failure.of(Failure.Cause.UNEXPECTED, committing);
            discard();
            throw new TxnFailure(f, e.toString(), f.inDoubt() ? done : null, e.getClass().getSimpleName(), e);
        }
    }

    private Connection connect() throws Unreachable {
        server = null;
        try {
            Connection c = pool.getConnection();
            c.setAutoCommit(false);
            String address = nodeAt.isEmpty() ? null : adapter.serverAddress(c);
            if (address != null) server = nodeAt.get(address);
            return c;
        } catch (SQLException | RuntimeException e) {
            throw new Unreachable("cannot reach the database: " + e.getMessage(), e);
        }
    }

    /**
     * Ends the failed transaction. A connection whose commit is in doubt or whose link failed is discarded, not
     * rolled back (a rollback on a dead link would wait for the socket timeout again). Otherwise it is rolled back,
     * and discarded if that fails. Neither changes the outcome: before COMMIT the transaction cannot commit once
     * COMMIT is never sent (closing the connection rolls it back), and after COMMIT the server has decided already.
     */
    private void end(Failure f, SQLException cause) {
        if (conn == null) return;
        if (!JdbcClientFactory.reusable(f, cause)) {
            discard();
            return;
        }
        try {
            conn.rollback();
        } catch (SQLException e) {
            discard(); // the connection is not usable: a fresh one for the next transaction
        }
    }

    @Override
    public void close() {
        if (conn == null) return;
        try {
            conn.rollback();
            conn.close();
        } catch (SQLException | RuntimeException e) {
            discard();
        }
        conn = null;
        statements = null;
    }

    /** Evicts the connection from the pool and closes it (HikariCP closes an evicted connection when returned). */
    private void discard() {
        if (conn == null) return;
        try {
            pool.evictConnection(conn);
            conn.close();
        } catch (SQLException | RuntimeException e) {
            // already gone
        }
        conn = null;
        statements = null;
    }
}
