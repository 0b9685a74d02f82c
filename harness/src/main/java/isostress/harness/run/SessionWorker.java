package isostress.harness.run;

import com.zaxxer.hikari.HikariDataSource;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.generator.workload.Workload;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Failure;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Runs one session's transactions in order on one connection, recording each invocation before it starts and its
 * completion after it ends.
 *
 * <p>Outcomes come from the database's own error codes ({@link DatabaseAdapter#classify}): an abort is {@code fail};
 * a broken connection or timeout while COMMIT was in flight is {@code info}, after which the session continues
 * under a new process id (Jepsen's convention: the old connection's state is unknown). After any error the
 * transaction is rolled back, and a connection that may be broken is discarded before the next transaction.
 * An error that is nobody's transaction's fault (the schema, the SQL, an unreachable database) stops the run.
 */
final class SessionWorker implements Runnable {
    private final int session;
    private final Workload workload;
    private final HikariDataSource pool;
    private final DatabaseAdapter adapter;
    private final HistoryRecorder recorder;
    private final RunStats stats;
    private final BooleanSupplier stop;
    private final Map<Long, Long> lastRead = new HashMap<>();
    private long process;
    private Connection conn;
    volatile Throwable fatal;

    SessionWorker(int session, Workload workload, HikariDataSource pool, DatabaseAdapter adapter,
                  HistoryRecorder recorder, RunStats stats, BooleanSupplier stop) {
        this.session = session;
        this.workload = workload;
        this.pool = pool;
        this.adapter = adapter;
        this.recorder = recorder;
        this.stats = stats;
        this.stop = stop;
        this.process = session;
    }

    @Override
    public void run() {
        try {
            for (int i = 0; i < workload.sessionSize(session) && !stop.getAsBoolean(); i++) {
                int t = workload.txn(session, i);
                runTxn(t, workload.ops(t));
            }
        } catch (Throwable e) {
            fatal = e;
        } finally {
            release();
        }
    }

    private void runTxn(int t, List<MicroOp> ops) throws SQLException {
        long begin = System.nanoTime();
        recorder.invoke(process, ops);
        List<MicroOp> done = null;
        boolean committing = false;
        try {
            if (conn == null) conn = connect();
        } catch (RunAbortedException e) {
            recorder.complete(process, Outcome.FAIL, ops, e.getMessage()); // never reached the database
            stats.record(t, Outcome.FAIL, System.nanoTime() - begin);
            throw e;
        }
        try {
            done = adapter.execute(conn, ops, key -> lastRead.getOrDefault(key, DatabaseAdapter.INITIAL));
            committing = true;
            conn.commit();
            recorder.complete(process, Outcome.OK, done, null);
            stats.record(t, Outcome.OK, System.nanoTime() - begin);
            remember(done);
        } catch (SQLException e) {
            Failure f = adapter.classify(e, committing);
            rollbackQuietly(f, e);
            if (f == Failure.FATAL) {
                recorder.complete(process, Outcome.FAIL, ops, e.toString());
                throw new RunAbortedException("transaction of session " + session + " failed with an error that is "
                        + "not an abort (SQLState " + e.getSQLState() + ", code " + e.getErrorCode() + "): "
                        + e.getMessage(), e);
            }
            Outcome o = f == Failure.UNKNOWN ? Outcome.INFO : Outcome.FAIL;
            // An unknown outcome keeps what was observed (reads happened); an abort took no effect.
            recorder.complete(process, o, o == Outcome.INFO && done != null ? done : ops, e.getMessage());
            stats.record(t, o, System.nanoTime() - begin);
            if (o == Outcome.INFO) process += workload.spec().sessions();
        }
    }

    private Connection connect() throws SQLException {
        try {
            Connection c = pool.getConnection();
            c.setAutoCommit(false);
            return c;
        } catch (SQLException e) {
            throw new RunAbortedException("cannot reach the database: " + e.getMessage(), e);
        }
    }

    /** The session's last observed value per key: the expected value of its next compare-and-set there. */
    private void remember(List<MicroOp> done) {
        for (MicroOp m : done) {
            if (m instanceof MicroOp.Read && ((MicroOp.Read) m).value() != null) {
                lastRead.put(m.key(), ((MicroOp.Read) m).value());
            } else if (m instanceof MicroOp.Cas) {
                lastRead.put(m.key(), ((MicroOp.Cas) m).newValue());
            }
        }
    }

    /** Rolls back; a connection that lost its link (or whose commit is in doubt) is replaced. */
    private void rollbackQuietly(Failure f, SQLException cause) {
        if (conn == null) return;
        try {
            conn.rollback();
            String st = cause.getSQLState();
            if (f == Failure.UNKNOWN || (st != null && st.startsWith("08"))) discard();
        } catch (SQLException e) {
            discard(); // the connection is not usable: a fresh one for the next transaction
        }
    }

    /** Returns the connection to the pool at the end of the session. */
    private void release() {
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
