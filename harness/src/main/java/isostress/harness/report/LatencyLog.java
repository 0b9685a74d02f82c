package isostress.harness.report;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's {@code latency.hlog} (HdrHistogram's interval log, written by {@code run.RunStats}): per second, the
 * latency from each transaction's intended start, in microseconds. Under {@code workload.rate} this is what users of
 * the system would have waited, stalls included; without a rate it equals the service time. Read for the report's
 * latency chart; a missing or unreadable log gives null and the chart falls back to history.jsonl.
 *
 * @param times interval ends, seconds since the run started
 * @param p50   per interval, milliseconds
 * @param p99   per interval, milliseconds
 * @param max   per interval, milliseconds
 */
record LatencyLog(double[] times, double[] p50, double[] p99, double[] max) {
    static final String FILE = "latency.hlog";

    static LatencyLog read(Path runDir) {
        Path f = runDir.resolve(FILE);
        if (!Files.isRegularFile(f)) return null;
        List<double[]> rows = new ArrayList<>();
        try (HistogramLogReader r = new HistogramLogReader(f.toFile())) {
            for (EncodableHistogram e = r.nextIntervalHistogram(); e != null; e = r.nextIntervalHistogram()) {
                if (!(e instanceof Histogram) || !"latency".equals(e.getTag())) continue;
                Histogram h = (Histogram) e;
                if (h.getTotalCount() == 0) continue;
                rows.add(new double[] {h.getEndTimeStamp() / 1000.0, h.getValueAtPercentile(50) / 1000.0,
                        h.getValueAtPercentile(99) / 1000.0, h.getMaxValue() / 1000.0});
            }
        } catch (IOException | RuntimeException e) {
            return null; // a truncated log (a killed run): the history's own latencies instead
        }
        if (rows.isEmpty()) return null;
        int n = rows.size();
        LatencyLog l = new LatencyLog(new double[n], new double[n], new double[n], new double[n]);
        for (int i = 0; i < n; i++) {
            double[] row = rows.get(i);
            l.times[i] = row[0];
            l.p50[i] = row[1];
            l.p99[i] = row[2];
            l.max[i] = row[3];
        }
        return l;
    }
}
