package isostress.harness.run;

import isostress.checker.history.Outcome;
import isostress.generator.workload.Workload;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a run did: per transaction its outcome, latency and shape (written by the one worker that ran it, read
 * after the workers are joined), and live counters for the progress bar.
 */
public final class RunStats {
    private static final byte NOT_RUN = -1;
    private final byte[] outcome;
    private final long[] latencyNs;
    private final Workload workload;
    final AtomicLong done = new AtomicLong(), ok = new AtomicLong(), failed = new AtomicLong(), info = new AtomicLong();
    private long startNs, endNs;

    public RunStats(Workload workload) {
        this.workload = workload;
        outcome = new byte[workload.size()];
        Arrays.fill(outcome, NOT_RUN);
        latencyNs = new long[workload.size()];
    }

    void started() {
        startNs = System.nanoTime();
    }

    void finished() {
        endNs = System.nanoTime();
    }

    void record(int txn, Outcome o, long latency) {
        outcome[txn] = (byte) o.ordinal();
        latencyNs[txn] = latency;
        done.incrementAndGet();
        (o == Outcome.OK ? ok : o == Outcome.FAIL ? failed : info).incrementAndGet();
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

    /** Latency quantiles of completed transactions, in milliseconds: p50, p95, p99, max. */
    public Map<String, Double> latencyMs() {
        long[] l = new long[(int) attempted()];
        int n = 0;
        for (int t = 0; t < outcome.length; t++) if (outcome[t] != NOT_RUN && n < l.length) l[n++] = latencyNs[t];
        Arrays.sort(l, 0, n);
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("p50", q(l, n, 0.50));
        m.put("p95", q(l, n, 0.95));
        m.put("p99", q(l, n, 0.99));
        m.put("max", n == 0 ? 0 : l[n - 1] / 1e6);
        return m;
    }

    private static double q(long[] l, int n, double q) {
        if (n == 0) return 0;
        return l[Math.min(n - 1, (int) Math.ceil(q * n) - 1)] / 1e6;
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
