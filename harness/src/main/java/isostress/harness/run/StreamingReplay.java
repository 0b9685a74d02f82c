package isostress.harness.run;

import isostress.checker.history.History;
import isostress.checker.history.Txn;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Replays a recorded history through the check while running ({@link StreamingCheck}, as a run drives it, checks back
 * to back): its completed transactions are handed over in completion order, as fast as possible or at a given rate,
 * and each check's end is timed against when the transactions it examined were handed over. For
 * {@code isostress bench streaming}.
 */
public final class StreamingReplay {
    private StreamingReplay() {
    }

    /** Each check on stderr ({@code -Disostress.streaming.trace=true}), to see where a lag comes from. */
    private static final boolean TRACE = Boolean.getBoolean("isostress.streaming.trace");

    /**
     * What a replay measured.
     *
     * @param txns        completed transactions handed over
     * @param fedMs       how long handing them over took
     * @param doneMs      from the first hand-over to the end of the check that examined the last one (or that found
     *                    the violation)
     * @param maxLagMs    the longest time from a transaction's hand-over to the end of the first check that
     *                    examined it
     * @param checks      checks run
     * @param wholeChecks of which checks of the whole prefix (the others: the incremental screen alone)
     * @param cpuMs       CPU time of the checking thread (on a loaded machine, what the checks cost apart from waiting
     *                    for a core)
     * @param lastPrefix  transactions in the last prefix checked
     * @param examined    transactions examined when the replay ended (all, unless a violation stopped it)
     * @param detection   the violation found, or null
     * @param gaveUp      why the check stopped early without a violation, or null
     */
    public record Report(int txns, double fedMs, double doneMs, double maxLagMs, int checks, int wholeChecks,
                         double cpuMs, int lastPrefix,
                         int examined, StreamingReport.Detection detection, String gaveUp) {
        /** Transactions examined per second of the replay. */
        public double perSecond() {
            return doneMs <= 0 ? 0 : examined / (doneMs / 1000);
        }
    }

    /**
     * Replays {@code h} at {@code levels}, {@code rate} transactions per second (0: as fast as possible).
     *
     * @throws InterruptedException when interrupted while waiting for the last check
     */
    public static Report replay(History h, List<IsolationLevel> levels, CheckOptions options, double rate)
            throws InterruptedException {
        List<Txn> order = new ArrayList<>();
        for (Txn t : h) if (!t.pending()) order.add(t);
        order.sort(Comparator.comparingLong(Txn::completeIndex));
        int n = order.size();
        long[] fedAt = new long[n];
        Lag lag = new Lag(fedAt);
        AtomicReference<StreamingReport.Detection> found = new AtomicReference<>();
        long t0 = System.nanoTime();
        StreamingCheck check = new StreamingCheck(levels, options, h.initial(), () -> System.nanoTime() - t0,
                found::set, StreamingCheck.Pacing.FLAT_OUT, lag);
        check.start();
        long fedNs;
        try {
            for (int i = 0; i < n && found.get() == null; i++) {
                if (rate > 0) {
                    long due = t0 + (long) (i / rate * 1e9);
                    long wait = due - System.nanoTime();
                    if (wait > 0) LockSupport.parkNanos(wait);
                }
                fedAt[i] = System.nanoTime();
                check.accept(order.get(i));
            }
            fedNs = System.nanoTime() - t0;
            // Until every transaction was examined and the whole check the screen asked for (if any) has answered.
            while (found.get() == null && (lag.examined() < n || check.busy()) && check.report().gaveUp() == null) {
                LockSupport.parkNanos(1_000_000);
            }
        } finally {
            check.close();
        }
        StreamingReport r = check.report();
        long end = r.detection() != null ? t0 + r.detection().detectedNs() : lag.lastEnd();
        return new Report(n, fedNs / 1e6, (end - t0) / 1e6, lag.maxNs() / 1e6, r.checks(), check.wholeChecks(),
                check.checkingCpuNs() / 1e6, r.prefixTxns(),
                lag.examined(), r.detection(), r.gaveUp());
    }

    /** The lag of each check, told by the checking thread; read by the replaying one. */
    private static final class Lag implements StreamingCheck.CheckListener {
        private final long[] fedAt;
        private volatile int examined;
        private volatile long maxNs, lastEnd;

        Lag(long[] fedAt) {
            this.fedAt = fedAt;
        }

        @Override
        public void checked(int taken, int prefixTxns, long endNs) {
            if (TRACE) System.err.printf("check: taken %d, prefix %d, at %.1f ms, lag %.1f ms%n", taken, prefixTxns,
                    (endNs - fedAt[0]) / 1e6, taken > examined ? (endNs - fedAt[examined]) / 1e6 : 0.0);
            // The transactions handed over since the last check are examined now; the first of them waited longest.
            if (taken > examined) maxNs = Math.max(maxNs, endNs - fedAt[examined]);
            examined = taken;
            lastEnd = endNs;
        }

        int examined() {
            return examined;
        }

        long maxNs() {
            return maxNs;
        }

        long lastEnd() {
            return lastEnd;
        }
    }
}
