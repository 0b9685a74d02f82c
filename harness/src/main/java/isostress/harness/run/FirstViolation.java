package isostress.harness.run;

import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LevelResult;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;

/**
 * When a run's first violation happened: the completion of the transaction that made the first counterexample a
 * violation (the last of its transactions to complete), in ns since the run started.
 *
 * <p>Measured from the streaming check's first detection when there was one; otherwise from the end-of-run check,
 * as the earliest such completion over the counterexamples it listed (at most {@code max-anomalies} per name, so an
 * upper bound when more were found).
 *
 * @param atNs         the violating transaction's completion, ns since the run started
 * @param txn          that transaction, e.g. {@code T8812}
 * @param anomaly      the counterexample's anomaly name
 * @param whileRunning true when the streaming check found it during the run
 * @param detectedNs   when the streaming check found it, ns since the run started; -1 when not streamed
 */
public record FirstViolation(long atNs, String txn, String anomaly, boolean whileRunning, long detectedNs) {

    /** From the violating transaction's completion to its detection while running, ns; -1 when not streamed. */
    public long latencyNs() {
        return whileRunning ? detectedNs - atNs : -1;
    }

    /** The first violation of a run, or null when none was found. */
    static FirstViolation of(Result result, StreamingReport streaming) {
        StreamingReport.Detection d = streaming == null ? null : streaming.detection();
        if (d != null && d.completedNs() >= 0) {
            return new FirstViolation(d.completedNs(), d.txn(), d.anomaly(), true, d.detectedNs());
        }
        if (result == null || result.verdict() != Verdict.INVALID) return null;
        Anomaly a = earliest(result);
        if (a == null) return null;
        Txn last = lastToComplete(a);
        return new FirstViolation(completion(last), last.label(), a.name(), false, -1);
    }

    /**
     * Of the counterexamples that break a level asked for, the one whose last transaction completed first; null when
     * none is listed.
     */
    static Anomaly earliest(Result r) {
        Anomaly best = null;
        long bestTime = Long.MAX_VALUE;
        for (Anomaly a : r.anomalies()) {
            if (a.txns().isEmpty() || !breaksRequested(r, a)) continue; // SQL counterexamples carry no times
            long done = completion(lastToComplete(a));
            if (done < bestTime) {
                best = a;
                bestTime = done;
            }
        }
        return best;
    }

    /** The transaction of {@code a} that completed last (a pending one counts at its invocation). */
    static Txn lastToComplete(Anomaly a) {
        Txn last = null;
        for (Txn t : a.txns()) if (last == null || completion(t) > completion(last)) last = t;
        return last;
    }

    private static long completion(Txn t) {
        return Math.max(t.completeTime(), t.invokeTime());
    }

    private static boolean breaksRequested(Result r, Anomaly a) {
        for (IsolationLevel l : r.requested()) {
            LevelResult lr = r.level(l);
            if (lr != null && lr.verdict() == Verdict.INVALID && l.implies(a.level())) return true;
        }
        return false;
    }
}
