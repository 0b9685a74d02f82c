package isostress.harness.faults;

import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.checker.history.History;
import isostress.checker.history.Outcome;
import isostress.checker.history.SideEvent;
import isostress.checker.model.LostWrite;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a fault on a failover-managed cluster cost, read from the run's history once it is complete (the history is
 * what the clients saw, so it is the measure):
 * <ul>
 * <li>{@code newPrimaryMillis}: from the fault's start until a leader event ({@link LeaderWatch}) names a member
 * other than the leader before it; looked for until 60 s after the fault ended, or until the next fault began if
 * that is sooner (so a later fault's failover is not counted); -1 when there was none.</li>
 * <li>{@code noCommitMillis}: the longest stretch without any acknowledged commit (an {@code ok} transaction of any
 * session) that overlaps the fault's [start, end]. The stretches run from the run's start to the first commit,
 * between consecutive commits, and from the last to the sessions' end (their last completion before the final
 * reads, which are not the sessions' work; when nothing completed, the last event before them); -1 when the
 * sessions had stopped before the fault began.</li>
 * </ul>
 * Faults without a leader before (no failover manager) are returned as they are.
 */
public final class FaultFigures {
    static final long AFTER_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    private FaultFigures() {
    }

    /** A leader event: when, and who ("none" when no member led). */
    record Leader(long time, String node) {
    }

    /** {@code faults} (in the order they began) with their figures from {@code h}. */
    public static List<FaultRecord> of(History h, List<FaultRecord> faults) {
        if (faults.stream().allMatch(f -> f.leaderBefore() == null)) return faults;
        long finalReads = Long.MAX_VALUE;
        List<Leader> leaders = new ArrayList<>();
        for (SideEvent e : h.sideEvents()) {
            if (!"nemesis".equals(e.process())) continue;
            if (LostWrite.FINAL_READS.equals(e.f())) finalReads = Math.min(finalReads, e.index());
            if ("leader".equals(e.f()) && e.time() >= 0) {
                String node = node(e.valueJson());
                if (node != null) leaders.add(new Leader(e.time(), node));
            }
        }
        long[] acks = new long[h.size()];
        int n = 0;
        long sessionsEnd = 0;
        for (int t = 0; t < h.size(); t++) {
            long done = h.completeIndex(t);
            if (done == History.PENDING || done > finalReads || h.completeTime(t) < 0) continue;
            sessionsEnd = Math.max(sessionsEnd, h.completeTime(t));
            if (h.outcome(t) == Outcome.OK) acks[n++] = h.completeTime(t);
        }
        if (sessionsEnd == 0) {
            // Nothing completed: the sessions tried until the faults' last event before the final reads.
            for (SideEvent e : h.sideEvents()) {
                if (e.index() < finalReads) sessionsEnd = Math.max(sessionsEnd, e.time());
            }
        }
        acks = Arrays.copyOf(acks, n);
        Arrays.sort(acks);
        List<FaultRecord> out = new ArrayList<>();
        for (int i = 0; i < faults.size(); i++) {
            FaultRecord f = faults.get(i);
            if (f.leaderBefore() == null) {
                out.add(f);
                continue;
            }
            long end = f.end() < 0 ? sessionsEnd : f.end();
            long until = end + AFTER_NANOS;
            if (i + 1 < faults.size()) until = Math.min(until, faults.get(i + 1).start());
            out.add(f.withFigures(newPrimaryMillis(leaders, f.leaderBefore(), f.start(), until),
                    noCommitMillis(acks, sessionsEnd, f.start(), end)));
        }
        return out;
    }

    /** Ms from {@code start} to the first leader event in [start, until] naming someone other than {@code before}. */
    static long newPrimaryMillis(List<Leader> leaders, String before, long start, long until) {
        for (Leader l : leaders) {
            if (l.time() < start || l.time() > until) continue;
            if (!l.node().equals(before) && !l.node().equals("none")) return (l.time() - start) / 1_000_000;
        }
        return -1;
    }

    /**
     * The longest stretch without a commit overlapping [start, end], in ms: {@code acks} are the commits'
     * acknowledgement times, sorted; the stretches are bounded by the run's start (0) and {@code sessionsEnd}.
     */
    static long noCommitMillis(long[] acks, long sessionsEnd, long start, long end) {
        if (start > sessionsEnd) return -1;
        long longest = 0, from = 0;
        for (int i = 0; i <= acks.length; i++) {
            long to = i < acks.length ? acks[i] : sessionsEnd;
            if (from <= end && to >= start) longest = Math.max(longest, to - from);
            if (i < acks.length) from = acks[i];
            if (from > end) break;
        }
        return longest / 1_000_000;
    }

    private static String node(String valueJson) {
        if (valueJson == null) return null;
        try {
            var v = JSON.readTree(valueJson).get("node");
            return v == null || !v.isTextual() ? null : v.asText();
        } catch (IOException e) {
            return null; // not an event this class wrote
        }
    }
}
