package isostress.harness.sql;

import isostress.checker.history.Outcome;
import isostress.checker.sql.SqlOp;
import isostress.generator.sql.SqlStatement;
import isostress.generator.sql.SqlTxnPlan;
import isostress.harness.db.AcctDialect;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Failure;
import isostress.harness.db.Isolation;
import isostress.harness.db.JdbcClientFactory;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Runs one session's SQL transactions in order on one connection, each at its own isolation level (set before it
 * begins), and appends each to the history when it ends.
 *
 * <p>Outcomes come from the database's error codes through the adapter's {@link DatabaseAdapter#classify}, the
 * same rule as the other workloads ({@link Failure#of}): serialization failures and deadlocks are {@code fail}; a
 * link lost while COMMIT was in flight is {@code info} (never {@code fail}), and the connection is replaced. An
 * unexpected error (the SQL, the schema) is recorded ({@code fail} before COMMIT, {@code info} at it) and stops the
 * run, as does a database that cannot be reached: {@link #fatal}.
 */
public final class SqlSession implements Runnable {
    /** Told about each finished transaction: its number in the workload, outcome and latency. */
    public interface Completion {
        void done(int txn, Outcome outcome, long latencyNs);
    }

    private final int session, node, sessions;
    private final List<SqlTxnPlan> txns;
    private final JdbcClientFactory clients;
    private final StatementRunner runner;
    private final SqlHistoryRecorder history;
    private final BooleanSupplier stop;
    private final long opPauseNanos;
    private final Completion completion;
    private Connection conn;
    /** Why the session stopped the run, or null. */
    public volatile Throwable fatal;

    public SqlSession(int session, int node, int sessions, List<SqlTxnPlan> txns, JdbcClientFactory clients,
                      AcctDialect dialect, SqlHistoryRecorder history, BooleanSupplier stop,
                      java.time.Duration opPause, Completion completion) {
        this.session = session;
        this.node = node;
        this.sessions = sessions;
        this.txns = txns;
        this.clients = clients;
        this.runner = new StatementRunner(dialect);
        this.history = history;
        this.stop = stop;
        this.opPauseNanos = opPause.toNanos();
        this.completion = completion;
    }

    /**
     * The history's name of a campaign isolation level: read uncommitted and read committed are {@code rc};
     * repeatable read and snapshot are {@code si} (PostgreSQL's repeatable read is snapshot isolation, and it is
     * what MariaDB's users expect of theirs); serializable is {@code ser}.
     */
    public static String historyLevel(String isolation) {
        switch (isolation) {
            case "read-uncommitted":
            case "read-committed": return "rc";
            case "repeatable-read":
            case "snapshot": return "si";
            case "serializable": return "ser";
            default: throw new IllegalArgumentException("unknown isolation level " + isolation);
        }
    }

    /**
     * Takes the session's connection before the sessions start (called one session after another): a pool that had
     * to open several connections at once for threads waiting together once left one waiting 60 s with none open.
     */
    public void connect() throws SQLException {
        if (conn == null) conn = clients.connection(node);
    }

    @Override
    public void run() {
        try {
            for (SqlTxnPlan t : txns) {
                if (stop.getAsBoolean()) break;
                runTxn(t);
            }
        } catch (Throwable e) {
            fatal = e;
        } finally {
            if (conn != null) {
                try {
                    conn.rollback();
                } catch (SQLException e) {
                    // closing anyway
                }
                clients.discard(node, conn);
            }
        }
    }

    private void runTxn(SqlTxnPlan t) throws IOException, InterruptedException, SQLException {
        DatabaseAdapter adapter = clients.adapter();
        long begin = System.nanoTime();
        long startNs = history.now();
        String level = historyLevel(t.isolation());
        if (conn == null) {
            try {
                conn = clients.connection(node);
            } catch (SQLException e) {
                history.txn(session, t.index(), level, Outcome.FAIL, startNs, List.of());
                completion.done(number(t), Outcome.FAIL, System.nanoTime() - begin);
                throw new SQLException("cannot reach the database: " + e.getMessage(), e);
            }
        }
        List<SqlOp> ops = new ArrayList<>();
        boolean committing = false;
        Outcome outcome;
        try {
            conn.setTransactionIsolation(adapter.jdbcIsolation(
                    Isolation.valueOf(t.isolation().toUpperCase(Locale.ROOT).replace('-', '_'))));
            for (int i = 0; i < t.statements().size(); i++) {
                if (i > 0 && opPauseNanos > 0) {
                    TimeUnit.NANOSECONDS.sleep(ThreadLocalRandom.current().nextLong(opPauseNanos + 1));
                }
                SqlStatement s = t.statements().get(i);
                ops.add(runner.run(conn, s, t.writeId(i)));
            }
            committing = true;
            conn.commit();
            outcome = Outcome.OK;
        } catch (SQLException e) {
            Failure f = adapter.classify(e, committing);
            outcome = f.outcome();
            if (!JdbcClientFactory.reusable(f, e)) {
                clients.discard(node, conn); // its state is unknown: the next transaction gets a fresh connection
                conn = null;
            } else {
                try {
                    conn.rollback();
                } catch (SQLException r) {
                    clients.discard(node, conn);
                    conn = null;
                }
            }
            if (f.stopsRun()) {
                history.txn(session, t.index(), level, outcome, startNs, ops);
                completion.done(number(t), outcome, System.nanoTime() - begin);
                throw new SQLException("transaction " + t.writeId(0).replaceFirst("-0$", "") + " failed with an "
                        + "unexpected error (SQLState " + e.getSQLState() + ", code " + e.getErrorCode() + ")"
                        + (f.inDoubt() ? " at COMMIT, recorded as info (it may have committed)" : " before COMMIT")
                        + ": " + e.getMessage(), e);
            }
        } catch (RuntimeException e) {
            // Not the database's answer: judged like an unexpected error at that place. Before COMMIT (a harness bug
            // such as StatementRunner.RecordingError) nothing committed and the run stops; at COMMIT it may have.
            Failure f = Failure.of(Failure.Cause.UNEXPECTED, committing);
            if (!f.inDoubt()) throw e;
            history.txn(session, t.index(), level, f.outcome(), startNs, ops);
            completion.done(number(t), f.outcome(), System.nanoTime() - begin);
            clients.discard(node, conn);
            conn = null;
            throw new SQLException("transaction " + t.writeId(0).replaceFirst("-0$", "") + " failed at COMMIT with "
                    + e + ", recorded as info (it may have committed)", e);
        }
        history.txn(session, t.index(), level, outcome, startNs, ops);
        completion.done(number(t), outcome, System.nanoTime() - begin);
    }

    /** The transaction's number in the workload: transaction n went to session n mod sessions. */
    private int number(SqlTxnPlan t) {
        return t.index() * sessions + session;
    }
}
