package isostress.harness.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Throughput and latency over time, from one streaming pass over history.jsonl. A history can hold millions of
 * operations, so nothing per operation is kept: each line is parsed on its own (a truncated last line, as after
 * Ctrl-C, is skipped rather than failing the report), invokes are remembered per process until their completion,
 * and each time bucket keeps counts and a log-scale latency histogram (5% bins) from which p50 and p99 are read.
 * Buckets start at the width asked for and double (merging neighbours) whenever there would be more than
 * {@link #MAX_BUCKETS}, so a run longer than expected still gives a chart of bounded size. Fault events of the
 * nemesis ({@code start-<kind>} / {@code stop-<kind>} with {@code {"node":...}}) are collected as intervals, for
 * runs whose results.json has no fault list.
 */
final class HistoryTimeline {
    static final int MAX_BUCKETS = 1200;
    private static final double BIN_BASE = Math.log(1.05);
    private static final int BINS = 480; // 1.05^480 µs ≈ 1.5e10 µs: beyond any latency a run can have
    private static final JsonFactory JSON = new JsonFactory();

    private long width;
    private final List<Bucket> buckets = new ArrayList<>();
    private final Map<String, Long> invoked = new HashMap<>();
    private final Map<String, long[]> openFaults = new LinkedHashMap<>();
    private final List<FaultInterval> faults = new ArrayList<>();
    private final Map<String, String> openFaultNodes = new HashMap<>();
    private long lastTime;
    private long skipped;

    /** Counts and latency histogram of one time bucket. */
    static final class Bucket {
        long ok, fail, info;
        long latencies;
        int[] hist;

        void add(Bucket o) {
            ok += o.ok;
            fail += o.fail;
            info += o.info;
            latencies += o.latencies;
            if (o.hist != null) {
                if (hist == null) hist = new int[BINS];
                for (int i = 0; i < BINS; i++) hist[i] += o.hist[i];
            }
        }

        /** The q-quantile of the latencies completed in this bucket, in milliseconds; NaN when there were none. */
        double quantileMs(double q) {
            if (latencies == 0) return Double.NaN;
            long rank = (long) Math.ceil(q * latencies), seen = 0;
            for (int i = 0; i < BINS; i++) {
                seen += hist[i];
                if (seen >= Math.max(1, rank)) return Math.exp((i + 0.5) * BIN_BASE) / 1000.0;
            }
            return Double.NaN;
        }
    }

    private HistoryTimeline(long width) {
        this.width = width;
    }

    /**
     * Reads {@code history}, bucketing by {@code bucketNanos} at first (the width doubles if the history is longer
     * than {@link #MAX_BUCKETS} of them).
     */
    static HistoryTimeline read(Path history, long bucketNanos) throws IOException {
        HistoryTimeline t = new HistoryTimeline(Math.max(1, bucketNanos));
        try (BufferedReader r = Files.newBufferedReader(history, StandardCharsets.UTF_8)) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank()) continue;
                try {
                    t.line(line);
                } catch (IOException | RuntimeException e) {
                    t.skipped++;
                }
            }
        }
        for (Map.Entry<String, long[]> e : t.openFaults.entrySet()) {
            String kind = e.getKey().substring(0, e.getKey().indexOf('@'));
            t.faults.add(new FaultInterval(kind, t.openFaultNodes.get(e.getKey()), e.getValue()[0], -1));
        }
        t.faults.sort((a, b) -> Long.compare(a.start(), b.start()));
        return t;
    }

    private void line(String line) throws IOException {
        String type = null, process = null, f = null, node = null, outcome = null;
        long time = -1, start = -1, end = -1;
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                switch (name) {
                    case "type" -> type = p.getText();
                    case "process" -> process = p.getText();
                    case "time" -> time = v.isNumeric() ? p.getLongValue() : -1;
                    case "f" -> f = p.getText();
                    case "value" -> node = v == JsonToken.START_OBJECT ? nodeOf(p) : skip(p);
                    // SQL histories (docs/sql-history.md): one line per transaction with its outcome and times.
                    case "outcome" -> outcome = p.getText();
                    case "start" -> start = v.isNumeric() ? p.getLongValue() : -1;
                    case "end" -> end = v.isNumeric() ? p.getLongValue() : -1;
                    default -> p.skipChildren();
                }
            }
        }
        if ("txn".equals(type) && outcome != null && end >= 0) {
            lastTime = Math.max(lastTime, end);
            complete(outcome, start, end);
            return;
        }
        if (type == null || process == null || time < 0) return;
        lastTime = Math.max(lastTime, time);
        if ("nemesis".equals(process)) {
            fault(f, node, time);
            return;
        }
        switch (type) {
            case "invoke" -> invoked.put(process, time);
            case "ok", "fail", "info" -> {
                Long invokedAt = invoked.remove(process);
                complete(type, invokedAt == null ? -1 : invokedAt, time);
            }
            default -> {
            }
        }
    }

    /** A transaction that ended with {@code outcome} (ok, fail, info) at {@code end}, started at {@code start} (-1: unknown). */
    private void complete(String outcome, long start, long end) {
        Bucket b = bucket(end);
        if ("ok".equals(outcome)) b.ok++;
        else if ("fail".equals(outcome)) b.fail++;
        else b.info++;
        // Latency of what completed with an answer; an info (unknown outcome) usually timed out.
        if (start >= 0 && !"info".equals(outcome)) {
            if (b.hist == null) b.hist = new int[BINS];
            double micros = Math.max(1.0, (end - start) / 1000.0);
            b.hist[Math.min(BINS - 1, (int) (Math.log(micros) / BIN_BASE))]++;
            b.latencies++;
        }
    }

    private static String skip(JsonParser p) throws IOException {
        p.skipChildren();
        return null;
    }

    private static String nodeOf(JsonParser p) throws IOException {
        String node = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if ("node".equals(name)) node = p.getText();
            else p.skipChildren();
        }
        return node;
    }

    private void fault(String f, String node, long time) {
        if (f == null) return;
        String key;
        if (f.startsWith("start-")) {
            key = f.substring(6) + "@" + node;
            openFaults.put(key, new long[] {time});
            openFaultNodes.put(key, node);
        } else if (f.startsWith("stop-")) {
            key = f.substring(5) + "@" + node;
            long[] start = openFaults.remove(key);
            openFaultNodes.remove(key);
            if (start != null) faults.add(new FaultInterval(f.substring(5), node, start[0], time));
        }
    }

    private Bucket bucket(long time) {
        int i = (int) Math.min(Integer.MAX_VALUE, time / width);
        while (i >= MAX_BUCKETS) {
            coarsen();
            i = (int) (time / width);
        }
        while (buckets.size() <= i) buckets.add(new Bucket());
        return buckets.get(i);
    }

    /** Doubles the bucket width, merging each pair of neighbours. */
    private void coarsen() {
        List<Bucket> merged = new ArrayList<>();
        for (int i = 0; i < buckets.size(); i += 2) {
            Bucket b = buckets.get(i);
            if (i + 1 < buckets.size()) b.add(buckets.get(i + 1));
            merged.add(b);
        }
        buckets.clear();
        buckets.addAll(merged);
        width *= 2;
    }

    long bucketNanos() {
        return width;
    }

    List<Bucket> buckets() {
        return buckets;
    }

    /** The time of the last event, in nanoseconds since the run started. */
    long lastTime() {
        return lastTime;
    }

    /** Faults from the nemesis events, in order of start. */
    List<FaultInterval> faults() {
        return faults;
    }

    /** Lines that could not be parsed (e.g. a last line cut short). */
    long skipped() {
        return skipped;
    }

    /** Bucket midpoints in seconds. */
    double[] times() {
        double[] x = new double[buckets.size()];
        for (int i = 0; i < x.length; i++) x[i] = (i + 0.5) * width / 1e9;
        return x;
    }

    /** Committed transactions per second, per bucket (the last, partial bucket divided by its covered time). */
    double[] commitsPerSecond() {
        return rate(b -> b.ok);
    }

    double[] abortsPerSecond() {
        return rate(b -> b.fail);
    }

    double[] latencyMs(double q) {
        double[] y = new double[buckets.size()];
        for (int i = 0; i < y.length; i++) y[i] = buckets.get(i).quantileMs(q);
        return y;
    }

    private double[] rate(java.util.function.ToLongFunction<Bucket> count) {
        double[] y = new double[buckets.size()];
        for (int i = 0; i < y.length; i++) {
            long from = i * width, to = Math.min((i + 1) * width, Math.max(lastTime, from + 1));
            double seconds = Math.max(to - from, width / 10) / 1e9;
            y[i] = count.applyAsLong(buckets.get(i)) / seconds;
        }
        return y;
    }
}
