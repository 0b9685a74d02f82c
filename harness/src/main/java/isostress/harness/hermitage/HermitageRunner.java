package isostress.harness.hermitage;

import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Isolation;
import isostress.harness.db.JdbcDatabase;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Replays a Hermitage script on a live database, one connection per session, each session on its own thread so a
 * statement that blocks on a lock lets the script go on (as the two terminals of Hermitage's manual runs do). A
 * step waits {@value #STEP_MILLIS} ms before the next is issued; a blocked step finishes when the lock is released,
 * or fails on the session's lock timeout (5 s). An error aborts that session's transaction; its later steps are
 * skipped.
 */
public final class HermitageRunner {
    static final long STEP_MILLIS = 300;
    private final String url, user, password;
    private final JdbcDatabase database;
    private final DatabaseAdapter adapter;

    /** Runs scripts on {@code database} at {@code url} (any scheme the database takes). */
    public HermitageRunner(JdbcDatabase database, String url, String user, String password) {
        this.database = database;
        this.url = database.clientUrl(url);
        this.user = user;
        this.password = password;
        this.adapter = database.adapter();
    }

    /** Runs {@code test} at {@code level} on a fresh table (1, 10), (2, 20). */
    public HermitageScript.Run run(HermitageScript test, Isolation level) throws SQLException, InterruptedException {
        try (Connection c = connect()) {
            c.setAutoCommit(true);
            try (Statement s = c.createStatement()) {
                s.execute("drop table if exists test");
                s.execute("create table test (id int primary key, value int)");
                s.execute("insert into test (id, value) values (1, 10), (2, 20)");
            }
        }
        int sessions = test.steps().stream().mapToInt(HermitageStep::session).max().orElse(1);
        Connection[] conns = new Connection[sessions + 1];
        ExecutorService[] threads = new ExecutorService[sessions + 1];
        boolean[] aborted = new boolean[sessions + 1], committed = new boolean[sessions + 1];
        List<Future<StepResult>> futures = new ArrayList<>();
        try {
            for (int s = 1; s <= sessions; s++) {
                conns[s] = connect();
                conns[s].setAutoCommit(false);
                conns[s].setTransactionIsolation(adapter.jdbcIsolation(level));
                try (Statement st = conns[s].createStatement()) {
                    st.execute(database.lockTimeoutSql());
                }
                conns[s].commit();
                threads[s] = Executors.newSingleThreadExecutor();
            }
            for (HermitageStep step : test.steps()) {
                int s = step.session();
                Connection c = conns[s];
                Future<StepResult> f = threads[s].submit(() -> execute(c, step, aborted, committed));
                futures.add(f);
                try {
                    f.get(STEP_MILLIS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    // blocked on a lock: the script goes on, as in Hermitage's two terminals
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new SQLException("step " + step + " failed: " + e.getCause(), e.getCause());
                }
            }
            List<StepResult> results = new ArrayList<>();
            for (Future<StepResult> f : futures) {
                try {
                    results.add(f.get(30, TimeUnit.SECONDS));
                } catch (java.util.concurrent.ExecutionException | TimeoutException e) {
                    throw new SQLException("a step did not finish: " + e, e);
                }
            }
            return new HermitageScript.Run(results, committed);
        } finally {
            for (int s = 1; s <= sessions; s++) {
                if (threads[s] != null) threads[s].shutdownNow();
                if (conns[s] != null) {
                    try {
                        conns[s].close();
                    } catch (SQLException e) {
                        // closing anyway
                    }
                }
            }
        }
    }

    private static StepResult execute(Connection c, HermitageStep step, boolean[] aborted, boolean[] committed) {
        int s = step.session();
        if (aborted[s]) return StepResult.SKIPPED;
        try {
            switch (step.sql()) {
                case "begin":
                    return new StepResult(Map.of(), 0, null, false);
                case "commit":
                    c.commit();
                    committed[s] = true;
                    return new StepResult(Map.of(), 0, null, false);
                case "rollback":
                    c.rollback();
                    return new StepResult(Map.of(), 0, null, false);
                default:
                    try (PreparedStatement p = c.prepareStatement(step.sql())) {
                        if (!step.sql().startsWith("select")) return new StepResult(Map.of(), p.executeUpdate(), null, false);
                        Map<Integer, Integer> rows = new LinkedHashMap<>();
                        try (ResultSet rs = p.executeQuery()) {
                            while (rs.next()) rows.put(rs.getInt(1), rs.getInt(2));
                        }
                        return new StepResult(rows, 0, null, false);
                    }
            }
        } catch (SQLException e) {
            aborted[s] = true;
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the transaction is gone either way
            }
            return new StepResult(Map.of(), 0, e.getSQLState() + " " + e.getMessage(), false);
        }
    }

    private Connection connect() throws SQLException {
        java.util.Properties p = new java.util.Properties();
        if (user != null) p.setProperty("user", user);
        if (password != null) p.setProperty("password", password);
        // The database's own driver: two drivers take jdbc:mysql: URLs.
        Connection c = database.driver().connect(url, p);
        if (c == null) throw new SQLException(database.driverClass() + " does not take the url " + url);
        return c;
    }
}
