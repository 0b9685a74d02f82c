package isostress.harness.provision;

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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Samples how far each standby is behind its primary while a run goes on, every {@link #PERIOD_MS} ms, from the
 * primary's {@code pg_stat_replication}: WAL bytes not yet replayed ({@code pg_current_wal_lsn() - replay_lsn}) and
 * {@code replay_lag} (the time between a commit's WAL being written and the standby reporting it replayed). Each
 * sample is a line of {@code logs/replication.log}; closing adds one summary line per standby. What it measures
 * is for people (and docs/findings); nothing decides a verdict from it.
 */
final class ReplicaLag implements AutoCloseable {
    static final long PERIOD_MS = 100;
    private final Thread thread;
    private final PrintWriter out;
    private final Map<String, List<double[]>> samples = new TreeMap<>();
    private volatile boolean stop;

    private ReplicaLag(String primaryUrl, PrintWriter out) {
        this.out = out;
        this.thread = new Thread(() -> sample(primaryUrl), "isostress-replica-lag");
        thread.setDaemon(true);
    }

    static ReplicaLag start(String primaryUrl, Path log) throws IOException {
        PrintWriter w = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8));
        w.println("# epoch_ms standby replay_bytes_behind replay_lag_ms (null: nothing to replay lately)");
        ReplicaLag lag = new ReplicaLag(primaryUrl, w);
        lag.thread.start();
        return lag;
    }

    private void sample(String url) {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            c.setAutoCommit(true);
            while (!stop) {
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
                Thread.sleep(PERIOD_MS);
            }
        } catch (SQLException e) {
            if (!stop) {
                synchronized (this) {
                    out.println("# sampling stopped: " + e.getMessage());
                }
            }
        } catch (InterruptedException e) {
            // closing
        }
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
