package isostress.harness.run;

import isostress.checker.model.CheckOptions;
import isostress.checker.CompletedPrefix;
import isostress.checker.StreamingChecker;
import isostress.checker.history.InitialState;
import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.harness.run.StreamingReport.Detection;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Checks a key-value history (mini-transactions, rw-register, list-append) while it is being recorded, so a run can
 * end seconds after its first violation rather than at its end.
 *
 * <p>The recorder hands over each completed transaction ({@link HistoryRecorder#onCompletion}); a background thread
 * repeatedly adds what has completed since to a {@link StreamingChecker}, which checks the prefix that is sound to
 * check ({@link CompletedPrefix}: no transaction reading from one still in flight) with the ordinary checker at the
 * campaign's levels; what it keeps incremental and why is said there. Checks run on one thread, at most one every
 * {@link Pacing#minIntervalNs}, and in a run idle at least as long as the last check computed, so the clients and
 * the database keep at least one and a half of two cores ({@code bench streaming} checks back to back instead). The
 * first violation is reported once and the thread ends.
 *
 * <p>Only the levels asked for are examined (not the weaker ones that name the weakest violated level), and the
 * searches that are not linear (prefix consistency under lost updates, Biswas &amp; Enea §4.2; the polygraph's
 * pruning and SAT search of rw-register histories, PolySI §4) get a small budget and answer unknown when it runs out,
 * which never stops a run. The end-of-run check examines everything with the campaign's own budget and is
 * authoritative.
 */
final class StreamingCheck implements AutoCloseable {
    /** Checks start at least this far apart in a run (200 ms). */
    static final long MIN_INTERVAL_NS = 200_000_000L;
    /** Beyond this many completed transactions the end-of-run check alone decides (memory: each is kept). */
    static final int MAX_TXNS = 2_000_000;
    private static final long STREAM_SEARCH_BUDGET = 20_000;
    /** The polygraph's pruning and SAT search per level and check: beyond it, unknown until the next check. */
    private static final long STREAM_SOLVER_MS = 2_000;

    /**
     * How often checks run.
     *
     * @param minIntervalNs checks start at least this far apart
     * @param shareCpu      idle after each check at least as long as it computed (at most half a core)
     */
    record Pacing(long minIntervalNs, boolean shareCpu) {
        /** A run's: every 200 ms at most, half a core at most. */
        static final Pacing RUN = new Pacing(MIN_INTERVAL_NS, true);
        /** A benchmark's: back to back. */
        static final Pacing FLAT_OUT = new Pacing(0, false);
    }

    /**
     * One check done, for a benchmark's lag: {@code taken} transactions handed over so far were all examined
     * (in the prefix, or waiting for a writer still in flight) by the check that ended at {@code endNs}
     * ({@link System#nanoTime()}).
     */
    interface CheckListener {
        void checked(int taken, int prefixTxns, long endNs);
    }

    private final List<IsolationLevel> levels;
    private final CheckOptions options;
    private final InitialState initial;
    private final Pacing pacing;
    private final CheckListener listener;
    private final LongSupplier clock;
    private final Consumer<Detection> onDetection;
    private final Thread thread = new Thread(this::loop, "streaming-check");
    private final Object lock = new Object();
    private Txn[] completed = new Txn[4096];
    private int count;
    private volatile boolean closed, busy;
    private volatile Detection detection;
    private volatile String gaveUp;
    private volatile int checks, wholeChecks, prefixTxns;
    private volatile long checkMsMax, lastCheckMs, cpuNsTotal;

    /**
     * @param levels      the campaign's levels
     * @param options     the campaign's check options (the prefix-search budget is lowered)
     * @param initial     the value every key starts at
     * @param clock       ns since the run started (the recorder's clock, so times match the history's)
     * @param onDetection called once, on the checking thread, with the first violation
     */
    StreamingCheck(List<IsolationLevel> levels, CheckOptions options, InitialState initial, LongSupplier clock,
                   Consumer<Detection> onDetection) {
        this(levels, options, initial, clock, onDetection, Pacing.RUN, null);
    }

    /** As the run's, paced by {@code pacing}, telling {@code listener} (null: nobody) of each check. */
    StreamingCheck(List<IsolationLevel> levels, CheckOptions options, InitialState initial, LongSupplier clock,
                   Consumer<Detection> onDetection, Pacing pacing, CheckListener listener) {
        this.levels = List.copyOf(levels);
        // Only "is a level asked for violated?" matters here: naming the weakest violated level would add the weaker
        // levels' checks (causal reachability, prefix search) to the detection latency.
        this.options = options.withSearchBudget(Math.min(options.searchBudget(), STREAM_SEARCH_BUDGET))
                .withSolverTimeoutMillis(Math.min(options.solverTimeoutMillis(), STREAM_SOLVER_MS))
                .withWeakerLevels(false);
        this.initial = initial;
        this.clock = clock;
        this.onDetection = onDetection;
        this.pacing = pacing;
        this.listener = listener;
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
        long cpu0 = cpuNs();
        try {
            checkUntilViolation();
        } finally {
            cpuNsTotal = cpuNs() - cpu0;
            synchronized (lock) {
                completed = null; // a long run after its first violation must not keep every transaction
            }
        }
    }

    private void checkUntilViolation() {
        StreamingChecker checker = new StreamingChecker(levels, options, initial, true).wholeChecksInBackground();
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
            long begin = System.nanoTime(), cpu = pacing.shareCpu() ? cpuNs() : 0;
            next = begin + pacing.minIntervalNs();
            Txn[] fresh;
            synchronized (lock) {
                fresh = Arrays.copyOf(completed, count);
                Arrays.fill(completed, 0, count, null); // the prefix holds them now
                count = 0;
            }
            if (fresh.length == 0) {
                if (checker.waiting()) { // a whole check in the background may have ended: take its verdict
                    try {
                        if (check(checker, begin, taken)) return;
                    } catch (RuntimeException e) {
                        gaveUp = e.getClass().getSimpleName() + ": " + e.getMessage();
                        return;
                    }
                }
                // a benchmark looks again 0.1 ms later: a lag measured to that, without spinning on the feeder's core
                if (!pacing.shareCpu()) java.util.concurrent.locks.LockSupport.parkNanos(100_000);
                continue; // nothing new completed
            }
            taken += fresh.length;
            if (taken > MAX_TXNS) {
                gaveUp = "more than " + MAX_TXNS + " transactions: the end-of-run check alone decides";
                return;
            }
            try {
                for (Txn t : fresh) checker.add(t);
                if (check(checker, begin, taken)) return;
            } catch (RuntimeException e) {
                // A prefix the checker refuses (a history of an unexpected shape, ...) stops streaming, never the run.
                gaveUp = e.getClass().getSimpleName() + ": " + e.getMessage();
                return;
            }
            // At most half of one core: idle at least as long as the check computed. CPU time, not wall time: on two
            // busy cores the check gets a small share, and idling for its wall time would starve it twice.
            if (pacing.shareCpu()) next = Math.max(next, System.nanoTime() + (cpuNs() - cpu));
        }
    }

    /** CPU time of this thread so far, ns (0 where the JVM cannot tell: then checks run every 200 ms). */
    private static long cpuNs() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        return mx.isCurrentThreadCpuTimeSupported() ? mx.getCurrentThreadCpuTime() : 0;
    }

    /**
     * Checks the prefix of {@code checker}, which holds {@code taken} transactions; true on a violation (reported).
     *
     * <p>{@link #busy} turns true before the transactions are counted as examined and false only once the verdict of
     * the background check is recorded: a replay that waits for it reads both, and with {@code busy} cleared first it
     * could see everything examined and nothing running, close, and have the violation dropped (seen on a loaded
     * machine: the end-of-run check then found what the streaming check had found first).
     */
    private boolean check(StreamingChecker checker, long begin, int taken) {
        StreamingChecker.Step s = checker.check();
        boolean waiting = checker.waiting();
        if (waiting) busy = true;
        try {
            return record(s, checker, begin, taken);
        } finally {
            if (!waiting) busy = false;
        }
    }

    private boolean record(StreamingChecker.Step s, StreamingChecker checker, long begin, int taken) {
        long end = System.nanoTime();
        if (listener != null) listener.checked(taken, s == null ? prefixTxns : s.txns(), end);
        if (s == null) return false; // an empty prefix: everything so far waits for a writer in flight
        long ms = (end - begin) / 1_000_000;
        lastCheckMs = ms;
        checkMsMax = Math.max(checkMsMax, ms);
        prefixTxns = s.txns();
        checks++;
        wholeChecks = (int) checker.wholeChecks(); // background ones included, whether or not their step was shown
        if (!s.violation() || closed) return false;
        Result r = s.result();
        CompletedPrefix.Prefix p = s.prefix();
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

    /** True while a whole check of a screened prefix runs in the background, its verdict not yet taken. */
    boolean busy() {
        return busy;
    }

    /** CPU time the checking thread used, ns, once it ended (0 where the JVM cannot tell). */
    long checkingCpuNs() {
        return cpuNsTotal;
    }

    /** Checks of the whole prefix so far (the others were answered by the incremental screen alone). */
    int wholeChecks() {
        return wholeChecks;
    }

    StreamingReport report() {
        return new StreamingReport(detection, checks, checkMsMax, prefixTxns, lastCheckMs, gaveUp);
    }
}
