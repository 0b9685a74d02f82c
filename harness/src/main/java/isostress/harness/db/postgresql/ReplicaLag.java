package isostress.harness.db.postgresql;

import isostress.harness.db.DbNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Samples how far each standby is behind its primary while a run goes on, every {@link #PERIOD_MS} ms, from the
 * primary's {@code pg_stat_replication}: WAL bytes not yet replayed ({@code pg_current_wal_lsn() - replay_lsn}) and
 * {@code replay_lag} (the time between a commit's WAL being written and the standby reporting it replayed). Each
 * sample is a line of {@code logs/replication.log}; closing adds one summary line per standby. What it measures
 * is for people (and docs/findings); nothing decides a verdict from it. Also the wait for the standbys to catch up,
 * which embedded and Docker standbys share.
 */
final class ReplicaLag implements AutoCloseable {
    static final long PERIOD_MS = 100;
    private final Thread thread;
    private final PrintWriter out;
    private final Map<String, List<double[]>> samples = new TreeMap<>();
    private volatile boolean stop;

    private ReplicaLag(String primaryUrl, Properties login, PrintWriter out) {
        this.out = out;
        this.thread = new Thread(() -> sample(primaryUrl, login), "isostress-replica-lag");
        thread.setDaemon(true);
    }

    /** @param login the user and password {@code primaryUrl} does not carry (empty when it does) */
    static ReplicaLag start(String primaryUrl, Properties login, Path log) throws IOException {
        PrintWriter w = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8));
        w.println("# epoch_ms standby replay_bytes_behind replay_lag_ms (null: nothing to replay lately)");
        ReplicaLag lag = new ReplicaLag(primaryUrl, login, w);
        lag.thread.start();
        return lag;
    }

    /**
     * Samples until closed. A fault on the primary (killed, paused, partitioned) breaks the connection: the gap is a
     * comment line and sampling starts again once the primary answers.
     */
    private void sample(String url, Properties login) {
        String broken = null;
        while (!stop) {
            try (Connection c = DriverManager.getConnection(url, login); Statement st = c.createStatement()) {
                c.setAutoCommit(true);
                if (broken != null) note("# sampling resumed");
                broken = null;
                while (!stop) {
                    sampleOnce(st);
                    Thread.sleep(PERIOD_MS);
                }
            } catch (SQLException e) {
                if (!stop && broken == null) note("# sampling stopped: " + e.getMessage() + " (retrying)");
                broken = e.getMessage();
                try {
                    Thread.sleep(5 * PERIOD_MS);
                } catch (InterruptedException i) {
                    return; // closing
                }
            } catch (InterruptedException e) {
                return; // closing
            }
        }
    }

    private void sampleOnce(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT application_name, "
                + "pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn), "
                + "EXTRACT(EPOCH FROM replay_lag) * 1000 FROM pg_stat_replication ORDER BY 1")) {
            long now = System.currentTimeMillis();
            while (rs.next()) {
                String name = rs.getString(1);
                double bytes = rs.getDouble(2);
                Double ms = rs.getObject(3) == null ? null : rs.getDouble(3);
                synchronized (this) {
                    out.println(now + " " + name + " " + (long) bytes + " "
                            + (ms == null ? "null" : String.format("%.3f", ms)));
                    samples.computeIfAbsent(name, k -> new ArrayList<>())
                            .add(new double[] {bytes, ms == null ? -1 : ms});
                }
            }
        }
    }

    private synchronized void note(String line) {
        out.println(line);
    }

    /**
     * Waits until the primary's {@code pg_stat_replication} shows each of {@code standbys} (application names)
     * streaming, at most {@code wait}; else names those that are not.
     */
    static void awaitStreaming(String primaryUrl, List<String> standbys, Properties login, Duration wait)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        Set<String> streaming = new TreeSet<>();
        String error = null;
        while (true) {
            try (Connection c = connect(primaryUrl, login); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT application_name FROM pg_stat_replication "
                         + "WHERE state = 'streaming'")) {
                streaming.clear();
                while (rs.next()) streaming.add(rs.getString(1));
                error = null;
                if (streaming.containsAll(standbys)) return;
            } catch (SQLException e) {
                error = e.getMessage(); // the primary is starting, or still cut off
            }
            if (System.nanoTime() > deadline) {
                List<String> missing = new ArrayList<>(standbys);
                missing.removeAll(streaming);
                throw new IOException("replica(s) " + String.join(", ", missing) + " not streaming from the primary "
                        + "within " + wait.toSeconds() + " s (its pg_stat_replication "
                        + (error == null ? "shows " + (streaming.isEmpty() ? "none" : String.join(", ", streaming))
                        : "unreadable: " + error) + ")");
            }
            Thread.sleep(50);
        }
    }

    /** The major version of the server at {@code url} (11, 16, ...). */
    static int major(String url, Properties login) throws IOException {
        try (Connection c = connect(url, login); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW server_version_num")) {
            rs.next();
            return StandbyConfig.major(Integer.parseInt(rs.getString(1)));
        } catch (SQLException | NumberFormatException e) {
            throw new IOException("cannot read the primary's version: " + e.getMessage(), e);
        }
    }

    /**
     * Waits until every standby has replayed the WAL the primary has written by now (its
     * {@code pg_current_wal_lsn()} against each standby's {@code pg_last_wal_replay_lsn()}), at most {@code wait};
     * else names the first standby that has not, with its log ({@code log}).
     */
    static <N extends DbNode> void awaitCaughtUp(String primaryUrl, List<N> standbys, Function<N, Path> log,
                                                 Properties login, Duration wait)
            throws IOException, InterruptedException {
        String target;
        try (Connection c = connect(primaryUrl, login); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT pg_current_wal_lsn()")) {
            rs.next();
            target = rs.getString(1);
        } catch (SQLException e) {
            throw new IOException("cannot read the primary's WAL position: " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + wait.toNanos();
        for (N s : standbys) {
            String replayed = null;
            String error = null;
            while (true) {
                try (Connection c = connect(s.url(), login); Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT pg_last_wal_replay_lsn(), "
                             + "pg_last_wal_replay_lsn() >= '" + target + "'::pg_lsn")) {
                    rs.next();
                    replayed = rs.getString(1);
                    if (rs.getBoolean(2)) break;
                } catch (SQLException e) {
                    error = e.getMessage(); // still starting
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("replica " + s.name() + " (port " + s.clientPort() + ") did not catch up "
                            + "with the primary within " + wait.toSeconds() + " s: it replayed WAL to "
                            + (replayed == null ? "nothing" + (error == null ? "" : " (" + error + ")") : replayed)
                            + ", the primary is at " + target + "; see " + log.apply(s));
                }
                Thread.sleep(20);
            }
        }
    }

    /** A connection that gives up after 5 s: a paused or hung standby must not stall the wait past its end. */
    private static Connection connect(String url, Properties login) throws SQLException {
        Properties p = new Properties();
        p.putAll(login);
        p.setProperty("loginTimeout", "5");
        p.setProperty("connectTimeout", "5");
        p.setProperty("socketTimeout", "5");
        return DriverManager.getConnection(url, p);
    }

    /** Stops sampling and writes the summary lines. */
    @Override
    public void close() {
        stop = true;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            for (Map.Entry<String, List<double[]>> e : samples.entrySet()) out.println(summary(e.getKey(), e.getValue()));
            out.close();
        }
    }

    /** {@code # n2: 412 samples; replay lag ms p50 0.4 p99 2.1 max 8.0; bytes behind p50 0 p99 1200 max 5400}. */
    static String summary(String name, List<double[]> s) {
        List<Double> bytes = new ArrayList<>(), ms = new ArrayList<>();
        for (double[] x : s) {
            bytes.add(x[0]);
            if (x[1] >= 0) ms.add(x[1]);
        }
        return "# " + name + ": " + s.size() + " samples; replay lag ms " + percentiles(ms, "%.2f")
                + "; bytes behind " + percentiles(bytes, "%.0f");
    }

    private static String percentiles(List<Double> v, String fmt) {
        if (v.isEmpty()) return "none";
        Collections.sort(v);
        return "p50 " + String.format(fmt, v.get(v.size() / 2)) + " p99 "
                + String.format(fmt, v.get(Math.min(v.size() - 1, (int) (v.size() * 0.99)))) + " max "
                + String.format(fmt, v.get(v.size() - 1));
    }
}
