package isostress.harness.db;

import com.zaxxer.hikari.HikariDataSource;
import isostress.checker.history.MicroOp;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * A session's JDBC connection, taken from its node's pool when first needed. After any error the transaction is
 * rolled back, and a connection that may be broken (lost link, commit in doubt) is discarded, so the next
 * transaction starts on a fresh one.
 */
final class JdbcTxnClient implements TxnClient {
    private final HikariDataSource pool;
    private final DatabaseAdapter adapter;
    private Connection conn;

    JdbcTxnClient(HikariDataSource pool, DatabaseAdapter adapter) {
        this.pool = pool;
        this.adapter = adapter;
    }

    @Override
    public List<MicroOp> run(List<MicroOp> ops, DatabaseAdapter.CasExpectations cas) throws TxnFailure, Unreachable {
        if (conn == null) conn = connect();
        List<MicroOp> done = null;
        boolean committing = false;
        try {
            done = adapter.execute(conn, ops, cas);
            committing = true;
            conn.commit();
            return done;
        } catch (SQLException e) {
            Failure f = adapter.classify(e, committing);
            rollbackQuietly(f, e);
            String code = "SQLState " + e.getSQLState() + ", code " + e.getErrorCode();
            return failed(new TxnFailure(f, e.getMessage(), f == Failure.UNKNOWN ? done : null, code, e));
        }
    }

    private static List<MicroOp> failed(TxnFailure f) throws TxnFailure {
        throw f;
    }

    private Connection connect() throws Unreachable {
        try {
            Connection c = pool.getConnection();
            c.setAutoCommit(false);
            return c;
        } catch (SQLException | RuntimeException e) {
            throw new Unreachable("cannot reach the database: " + e.getMessage(), e);
        }
    }

    /** Rolls back; a connection that lost its link (or whose commit is in doubt) is replaced. */
    private void rollbackQuietly(Failure f, SQLException cause) {
        if (conn == null) return;
        String st = cause.getSQLState();
        if (f == Failure.UNKNOWN || (st != null && st.startsWith("08")) || SqlAdapter.connectionLost(cause)) {
            discard(); // a rollback on a dead link would wait for the socket timeout again
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
    }
}
