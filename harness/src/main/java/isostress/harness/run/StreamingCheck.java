package isostress.harness.run;

import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.CompletedPrefix;
import isostress.checker.history.InitialState;
import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.harness.run.StreamingReport.Detection;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Checks a mini-transaction history while it is being recorded, so a run can end seconds after its first violation
 * rather than at its end.
 *
 * <p>The recorder hands over each completed transaction ({@link HistoryRecorder#onCompletion}); a background thread
 * repeatedly adds what has completed since to the prefix that is sound to check ({@link CompletedPrefix}: no
 * transaction reading from one still in flight), and checks that prefix with the ordinary checker at the campaign's
 * levels. MTC's checks of mini-transactions are linear (MTC §IV-D: SER and SI in Θ(n)), so re-checking the whole
 * prefix each time costs about a millisecond per thousand transactions, and the simple design needs no incremental
 * dependency graph. Checks run on one thread, at most one every {@link #MIN_INTERVAL_NS}, idling at least as long as
 * the last check computed, so the clients and the database keep at least one and a half of two cores. The first
 * violation is reported once and the thread ends.
 *
 * <p>Only the levels asked for are examined (not the weaker ones that name the weakest violated level), and the
 * search for prefix consistency under lost updates, which is not linear (Biswas &amp; Enea §4.2), gets a small state
 * budget and answers unknown when it runs out, which never stops a run. The end-of-run check examines everything
 * with the campaign's own budget and is authoritative.
 */
final class StreamingCheck implements AutoCloseable {
    /** Checks start at least this far apart (200 ms). */
    static final long MIN_INTERVAL_NS = 200_000_000L;
    /** Beyond this many completed transactions the end-of-run check alone decides (memory: each is kept). */
    static final int MAX_TXNS = 2_000_000;
    private static final long STREAM_SEARCH_BUDGET = 20_000;

    private final List<IsolationLevel> levels;
    private final CheckOptions options;
    private final InitialState initial;
    private final LongSupplier clock;
    private final Consumer<Detection> onDetection;
    private final Thread thread = new Thread(this::loop, "streaming-check");
    private final Object lock = new Object();
    private Txn[] completed = new Txn[4096];
    private int count;
    private volatile boolean closed;
    private volatile Detection detection;
    private volatile String gaveUp;
    private volatile int checks, prefixTxns;
    private volatile long checkMsMax, lastCheckMs;

    /**
     * @param levels      the campaign's levels
     * @param options     the campaign's check options (the prefix-search budget is lowered)
     * @param initial     the value every key starts at
     * @param clock       ns since the run started (the recorder's clock, so times match the history's)
     * @param onDetection called once, on the checking thread, with the first violation
     */
    StreamingCheck(List<IsolationLevel> levels, CheckOptions options, InitialState initial, LongSupplier clock,
                   Consumer<Detection> onDetection) {
        this.levels = List.copyOf(levels);
        // Only "is a level asked for violated?" matters here: naming the weakest violated level would add the weaker
        // levels' checks (causal reachability, prefix search) to the detection latency.
        this.options = options.withSearchBudget(Math.min(options.searchBudget(), STREAM_SEARCH_BUDGET))
                .withWeakerLevels(false);
        this.initial = initial;
        this.clock = clock;
        this.onDetection = onDetection;
        thread.setDaemon(true);
    }

    /** Takes a completed transaction (called by the recorder under its lock: only an append to a buffer). */
    void accept(Txn t) {
        synchronized (lock) {
            if (completed == null) return; // checking ended: keep nothing
            if (count == completed.length) completed = Arrays.copyOf(completed, count * 2);
            completed[count++] = t;
        }
    }

    void start() {
        thread.start();
    }

    private void loop() {
        try {
            checkUntilViolation();
        } finally {
            synchronized (lock) {
                completed = null; // a long run after its first violation must not keep every transaction
            }
        }
    }

    private void checkUntilViolation() {
        CompletedPrefix prefix = new CompletedPrefix(initial);
        int taken = 0;
        long next = System.nanoTime();
        while (!closed) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
            long begin = System.nanoTime(), cpu = cpuNs();
            next = begin + MIN_INTERVAL_NS;
            Txn[] fresh;
            synchronized (lock) {
                fresh = Arrays.copyOf(completed, count);
                Arrays.fill(completed, 0, count, null); // the prefix holds them now
                count = 0;
            }
            if (fresh.length == 0) continue; // nothing new completed
            taken += fresh.length;
            if (taken > MAX_TXNS) {
                gaveUp = "more than " + MAX_TXNS + " transactions: the end-of-run check alone decides";
                return;
            }
            try {
                for (Txn t : fresh) prefix.add(t);
                if (check(prefix.history(), begin)) return;
            } catch (RuntimeException e) {
                // A prefix the checker refuses (not a mini-transaction history, ...) stops streaming, never the run.
                gaveUp = e.getClass().getSimpleName() + ": " + e.getMessage();
                return;
            }
            // At most half of one core: idle at least as long as the check computed. CPU time, not wall time: on two
            // busy cores the check gets a small share, and idling for its wall time would starve it twice.
            next = Math.max(next, System.nanoTime() + (cpuNs() - cpu));
        }
    }

    /** CPU time of this thread so far, ns (0 where the JVM cannot tell: then checks run every 200 ms). */
    private static long cpuNs() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        return mx.isCurrentThreadCpuTimeSupported() ? mx.getCurrentThreadCpuTime() : 0;
    }

    /** Checks prefix {@code p}; true when it holds a violation (reported). */
    private boolean check(CompletedPrefix.Prefix p, long begin) {
        if (p.history().size() == 0) return false;
        Result r = Checker.check(p.history(), levels, options);
        long ms = (System.nanoTime() - begin) / 1_000_000;
        lastCheckMs = ms;
        checkMsMax = Math.max(checkMsMax, ms);
        prefixTxns = p.history().size();
        checks++;
        if (r.verdict() != Verdict.INVALID || closed) return false;
        detection = detection(r, p, clock.getAsLong());
        onDetection.accept(detection);
        return true;
    }

    /**
     * The violation to report: of the counterexamples that break a level asked for, the one completed first, the
     * best estimate of when the history first went wrong ({@link FirstViolation#earliest}).
     */
    private static Detection detection(Result r, CompletedPrefix.Prefix p, long now) {
        Anomaly a = FirstViolation.earliest(r);
        if (a == null) {
            // No listed counterexample (all over the listing limit): the violation still counts, its time unknown.
            IsolationLevel l = r.weakestViolated().get(0);
            return new Detection(now, -1, null, "violation of " + l, l, null);
        }
        Txn last = FirstViolation.lastToComplete(a);
        // Premises are sentences already written with the prefix's numbers; mini-transaction counterexamples have none.
        Anomaly whole = a.premises().isEmpty() ? FirstCounterexample.inWholeHistory(a, p.ids()) : null;
        return new Detection(now, last.completeTime(), p.label(last.id()), a.name(), a.level(), whole);
    }

    /** Stops checking; waits for a check under way to end, so the report is final. */
    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.interrupt();
        thread.join();
    }

    StreamingReport report() {
        return new StreamingReport(detection, checks, checkMsMax, prefixTxns, lastCheckMs, gaveUp);
    }
}
