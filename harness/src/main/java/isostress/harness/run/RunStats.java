package isostress.harness.run;

import isostress.checker.history.Outcome;
import isostress.generator.workload.Workload;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.Recorder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What a run did: per transaction its outcome and shape (written by the one worker that ran it, read after the
 * workers are joined), live counters for the progress bar, latencies in HdrHistogram, and where the sessions' time
 * went.
 *
 * <p>Two latencies per transaction, each recorded in microseconds into an HdrHistogram {@link Recorder} (wait-free
 * for the sessions, 3 significant digits, bounded memory whatever the run's length, no sort at the end):
 * <ul>
 *   <li>latency: from the transaction's <em>intended</em> start to its end. Under {@code workload.rate} the intended
 *   start is its slot in the schedule ({@link Schedule}), so a stalled database delays every transaction scheduled
 *   behind it, and they all count the stall (no coordinated omission: Tene, "How NOT to measure latency"; wrk2).
 *   Without a rate the intended start is the actual start.</li>
 *   <li>service time: from the actual start to the end.</li>
 * </ul>
 * Given a log file ({@link #started(Path)}), every second's interval histograms of both are appended to it in
 * HdrHistogram's log format (tags {@code latency} and {@code service}, values in microseconds): the report's
 * latency chart reads them, as can HdrHistogram's own {@code HistogramLogProcessor}.
 */
public final class RunStats {
    private static final byte NOT_RUN = -1;
    /** Per session: ns waiting for the schedule, in the database client, in the recorder, whole transactions. */
    static final int WAIT = 0, DATABASE = 1, RECORDER = 2, TOTAL = 3, STAGES = 4;
    private final byte[] outcome;
    private final Workload workload;
    private final double rate;
    final AtomicLong done = new AtomicLong(), ok = new AtomicLong(), failed = new AtomicLong(), info = new AtomicLong();
    private final Recorder latency = new Recorder(3), service = new Recorder(3);
    private final Histogram latencyTotal = new Histogram(3), serviceTotal = new Histogram(3);
    private final AtomicLongArray stageNs;
    private Histogram latencyInterval, serviceInterval;
    private ScheduledExecutorService sampler;
    private HistogramLogWriter log;
    private long startNs, endNs, lastSampleNs;

    public RunStats(Workload workload) {
        this(workload, 0);
    }

    /** @param rate {@code workload.rate}, transactions per second asked (0: closed loop) */
    public RunStats(Workload workload, double rate) {
        this.workload = workload;
        this.rate = rate;
        outcome = new byte[workload.size()];
        Arrays.fill(outcome, NOT_RUN);
        // Sessions add to their own slots only; padded 8 longs apart so two sessions never share a cache line.
        stageNs = new AtomicLongArray(Math.max(1, workload.spec().sessions()) * 8);
    }

    /** The run starts now (its schedule's time zero); no latency log. */
    void started() {
        started(null);
    }

    /** The run starts now; each second's interval histograms go to {@code latencyLog} (null: none). */
    synchronized void started(Path latencyLog) {
        startNs = System.nanoTime();
        lastSampleNs = startNs;
        if (latencyLog == null) return;
        try {
            log = new HistogramLogWriter(latencyLog.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("creating " + latencyLog, e);
        }
        log.outputComment("isostress run latency: values in microseconds; tag latency = from the intended start, "
                + "service = from the actual start");
        log.outputLogFormatVersion();
        log.outputLegend();
        sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "latency-log");
            t.setDaemon(true);
            return t;
        });
        sampler.scheduleAtFixedRate(this::sample, 1, 1, TimeUnit.SECONDS);
    }

    synchronized void finished() {
        endNs = System.nanoTime();
        if (sampler != null) sampler.shutdownNow();
        sample();
        if (log != null) log.close();
        log = null;
    }

    /** The nanoTime the run started at: time zero of a rate's schedule. */
    long startNanos() {
        return startNs;
    }

    /**
     * Records transaction {@code txn}'s outcome: {@code latency} from its intended start, {@code service} from its
     * actual start (nanoseconds).
     */
    void record(int txn, Outcome o, long latency, long service) {
        outcome[txn] = (byte) o.ordinal();
        this.latency.recordValue(micros(latency));
        this.service.recordValue(micros(service));
        done.incrementAndGet();
        (o == Outcome.OK ? ok : o == Outcome.FAIL ? failed : info).incrementAndGet();
    }

    /** A transaction that had no schedule (sql sessions): its latency is its service time. */
    void record(int txn, Outcome o, long latency) {
        record(txn, o, latency, latency);
    }

    /** Adds where one transaction of {@code session} spent its time (nanoseconds). */
    void stages(int session, long wait, long database, long recorder, long total) {
        int at = 8 * session;
        stageNs.addAndGet(at + WAIT, wait);
        stageNs.addAndGet(at + DATABASE, database);
        stageNs.addAndGet(at + RECORDER, recorder);
        stageNs.addAndGet(at + TOTAL, total);
    }

    private static long micros(long ns) {
        return Math.max(0, (ns + 500) / 1000);
    }

    /** Moves what the recorders gathered since the last sample into the totals and the log. */
    private synchronized void sample() {
        long now = System.nanoTime();
        latencyInterval = latency.getIntervalHistogram(latencyInterval);
        serviceInterval = service.getIntervalHistogram(serviceInterval);
        latencyTotal.add(latencyInterval);
        serviceTotal.add(serviceInterval);
        if (log != null && (latencyInterval.getTotalCount() > 0 || serviceInterval.getTotalCount() > 0)) {
            double from = (lastSampleNs - startNs) / 1e9, to = (now - startNs) / 1e9;
            latencyInterval.setTag("latency");
            serviceInterval.setTag("service");
            log.outputIntervalHistogram(from, to, latencyInterval, 1000.0);
            log.outputIntervalHistogram(from, to, serviceInterval, 1000.0);
        }
        lastSampleNs = now;
    }

    public long committed() {
        return ok.get();
    }

    public long aborted() {
        return failed.get();
    }

    public long unknown() {
        return info.get();
    }

    public long attempted() {
        return done.get();
    }

    public double seconds() {
        return (endNs - startNs) / 1e9;
    }

    /** Committed transactions per second. */
    public double throughput() {
        return seconds() <= 0 ? 0 : committed() / seconds();
    }

    /** The rate asked ({@code workload.rate}), 0 for a closed loop. */
    public double targetRate() {
        return rate;
    }

    /** True when sessions reported their stages ({@link #stages}; key-value runs do, sql runs do not). */
    public boolean staged() {
        for (int i = 0; i < stageNs.length(); i += 8) if (stageNs.get(i + TOTAL) > 0) return true;
        return false;
    }

    /** Attempted transactions per second (what a {@code workload.rate} aims at). */
    public double attemptRate() {
        return seconds() <= 0 ? 0 : attempted() / seconds();
    }

    /**
     * Latency quantiles of completed transactions from their intended start, in milliseconds: p50, p95, p99, p99.9,
     * max (read after the run has finished).
     */
    public synchronized Map<String, Double> latencyMs() {
        return quantiles(latencyTotal);
    }

    /** The same quantiles of service time (from the actual start). */
    public synchronized Map<String, Double> serviceMs() {
        return quantiles(serviceTotal);
    }

    private static Map<String, Double> quantiles(Histogram h) {
        Map<String, Double> m = new LinkedHashMap<>();
        boolean empty = h.getTotalCount() == 0;
        m.put("p50", empty ? 0 : ms(h.getValueAtPercentile(50)));
        m.put("p95", empty ? 0 : ms(h.getValueAtPercentile(95)));
        m.put("p99", empty ? 0 : ms(h.getValueAtPercentile(99)));
        m.put("p99.9", empty ? 0 : ms(h.getValueAtPercentile(99.9)));
        m.put("max", empty ? 0 : ms(h.getMaxValue()));
        return m;
    }

    /** Microseconds to milliseconds, to the microsecond. */
    private static double ms(long micros) {
        return micros / 1000.0;
    }

    /**
     * Where the sessions' time went, summed over sessions, in milliseconds: {@code schedule} (waiting for the next
     * slot of {@code workload.rate}), {@code database} (the client: statements and COMMIT), {@code recorder}
     * (appending the invocation and the completion to the history, lock waits and the streaming check's listener
     * included), {@code other} (the rest of the session loop); and {@code recorder_share}, recorder / all.
     */
    public Map<String, Object> sessionTimeMs() {
        long[] sum = new long[STAGES];
        for (int i = 0; i < stageNs.length(); i++) if (i % 8 < STAGES) sum[i % 8] += stageNs.get(i);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schedule", sum[WAIT] / 1_000_000);
        m.put("database", sum[DATABASE] / 1_000_000);
        m.put("recorder", sum[RECORDER] / 1_000_000);
        m.put("other", Math.max(0, sum[TOTAL] - sum[WAIT] - sum[DATABASE] - sum[RECORDER]) / 1_000_000);
        m.put("recorder_share", sum[TOTAL] == 0 ? 0.0 : Math.round(1e4 * sum[RECORDER] / (double) sum[TOTAL]) / 1e4);
        return m;
    }

    /** Per shape: attempted, committed, aborted, unknown, abort rate. */
    public Map<String, Map<String, Object>> byShape() {
        List<String> shapeNames = workload.shapeNames();
        int k = shapeNames.size();
        long[] att = new long[k], okc = new long[k], fail = new long[k], inf = new long[k];
        for (int t = 0; t < outcome.length; t++) {
            if (outcome[t] == NOT_RUN) continue;
            int s = workload.shapeId(t);
            att[s]++;
            if (outcome[t] == Outcome.OK.ordinal()) okc[s]++;
            else if (outcome[t] == Outcome.FAIL.ordinal()) fail[s]++;
            else inf[s]++;
        }
        Map<String, Map<String, Object>> m = new LinkedHashMap<>();
        for (int s = 0; s < k; s++) {
            if (att[s] == 0) continue;
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("attempted", att[s]);
            e.put("committed", okc[s]);
            e.put("aborted", fail[s]);
            e.put("unknown", inf[s]);
            e.put("abort_rate", Math.round(1e4 * fail[s] / att[s]) / 1e4);
            m.put(shapeNames.get(s), e);
        }
        return m;
    }

    /** Aborted / attempted over the whole run. */
    public double abortRate() {
        return attempted() == 0 ? 0 : (double) aborted() / attempted();
    }
}
