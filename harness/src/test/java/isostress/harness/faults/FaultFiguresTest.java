package isostress.harness.faults;

import isostress.checker.history.History;
import isostress.checker.history.Outcome;
import isostress.checker.history.SideEvent;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The figures of a fault read from a hand-built history (times in ms, written as ns): gaps in the commits before,
 * inside and after a fault's window, and none at all; leader events before, during and after it.
 */
class FaultFiguresTest {
    private static final long MS = 1_000_000;

    /** Transactions completing at {@code okAt} (ok) and {@code failAt} (fail), then the given side events. */
    private static History history(long[] okAt, long[] failAt, SideEvent... events) {
        History.Builder b = History.builder().realTime(true);
        long index = 100;
        for (long t : okAt) {
            b.beginTxn(1, Outcome.OK, index++, index++, t * MS - 1, t * MS, 0);
            b.read(1, 0L);
            b.endTxn();
        }
        for (long t : failAt) {
            b.beginTxn(2, Outcome.FAIL, index++, index++, t * MS - 1, t * MS, 0);
            b.read(1, 0L);
            b.endTxn();
        }
        for (SideEvent e : events) b.sideEvent(e);
        return b.build();
    }

    private static SideEvent leader(long index, long ms, String node) {
        return new SideEvent(index, ms * MS, "nemesis", "info", "leader", "{\"node\":\"" + node + "\"}");
    }

    private static FaultRecord fault(long startMs, long endMs) {
        return new FaultRecord("crash-primary", "n1", startMs * MS, endMs * MS, 0, null, "n1", "n2");
    }

    @Test
    void theLongestGapOverlappingTheWindowCounts() {
        // Commits with a 9 s gap [1, 9001], a 3 s one [9500, 12500], a 5 s one [12500, 17500]; the sessions' last
        // completion is a fail at 18 s.
        long[] ok = {1, 9001, 9100, 9500, 12500, 17500};
        History h = history(ok, new long[]{18000});
        FaultRecord f = FaultFigures.of(h, List.of(fault(9200, 12000))).get(0);
        // [9100, 9500] is inside; [9500, 12500] overlaps the end: 3000 ms; [12500, 17500] begins after the end.
        assertEquals(3000, f.noCommitMillis());
        // A window that the 9 s gap overlaps at its start.
        assertEquals(9000, FaultFigures.of(h, List.of(fault(5000, 9050))).get(0).noCommitMillis());
        // A window inside one gap: the whole gap, from the commit before to the one after.
        assertEquals(5000, FaultFigures.of(h, List.of(fault(13000, 14000))).get(0).noCommitMillis());
        // The last stretch runs to the sessions' end (their last completion, the fail at 18 s).
        assertEquals(500, FaultFigures.of(h, List.of(fault(17600, 17700))).get(0).noCommitMillis());
        // A fault that began after the sessions stopped.
        assertEquals(-1, FaultFigures.of(h, List.of(fault(19000, 20000))).get(0).noCommitMillis());
    }

    @Test
    void noCommitAtAllIsTheWholeRunSoFar() {
        History h = history(new long[0], new long[]{2000, 7000});
        assertEquals(7000, FaultFigures.of(h, List.of(fault(1000, 3000))).get(0).noCommitMillis());
    }

    @Test
    void theFinalReadsAreNotTheSessionsCommits() {
        // Sessions commit until 2 s; the final reads (after their event) commit at 30 s.
        History.Builder b = History.builder().realTime(true);
        b.beginTxn(1, Outcome.OK, 0, 1, 0, 2000 * MS, 0);
        b.read(1, 0L);
        b.endTxn();
        b.sideEvent(new SideEvent(2, 25_000 * MS, "nemesis", "info", "final-reads", "{\"keys\":1}"));
        b.beginTxn(9, Outcome.OK, 3, 4, 29_000 * MS, 30_000 * MS, 0);
        b.read(1, 0L);
        b.endTxn();
        FaultRecord f = FaultFigures.of(b.build(), List.of(fault(1000, 20_000))).get(0);
        // From 0 to the commit at 2 s; the sessions ended there, so nothing after counts.
        assertEquals(2000, f.noCommitMillis());
    }

    @Test
    void aNewPrimaryIsTheFirstOtherLeaderNamedFromTheStart() {
        History h = history(new long[]{100, 20_000}, new long[0],
                leader(1, 50, "n1"), leader(2, 1500, "none"), leader(3, 11_200, "n3"), leader(4, 40_000, "n1"));
        // n1 led before; "none" does not count; n3 named at 11.2 s, 10.2 s after the fault began at 1 s.
        FaultRecord f = FaultFigures.of(h, List.of(fault(1000, 15_000))).get(0);
        assertEquals(10_200, f.newPrimaryMillis());
        // The leader named after a fault ended still counts, up to 60 s after it.
        assertEquals(10_700, FaultFigures.of(h, List.of(fault(500, 1000))).get(0).newPrimaryMillis());
    }

    @Test
    void noNewPrimaryIsMinusOneAndALaterFaultsFailoverIsNotCounted() {
        History h = history(new long[]{100, 20_000}, new long[0], leader(1, 50, "n1"), leader(2, 12_000, "n2"));
        FaultRecord kill = new FaultRecord("kill-primary-postgres", "n1", 1000 * MS, 3000 * MS, 0, null, "n1", "n1");
        FaultRecord crash = fault(8000, 15_000);
        List<FaultRecord> both = FaultFigures.of(h, List.of(kill, crash));
        assertEquals(-1, both.get(0).newPrimaryMillis(), "n2 came from the crash that began at 8 s");
        assertEquals(4000, both.get(1).newPrimaryMillis());
        // Without the crash, n2 at 12 s is within 60 s of the kill's end: then it is the kill's.
        assertEquals(11_000, FaultFigures.of(h, List.of(kill)).get(0).newPrimaryMillis());
        History quiet = history(new long[]{100, 20_000}, new long[0], leader(1, 50, "n1"));
        assertEquals(-1, FaultFigures.of(quiet, List.of(kill)).get(0).newPrimaryMillis());
    }

    @Test
    void faultsWithoutAFailoverManagerGetNoFigures() {
        History h = history(new long[]{100}, new long[0]);
        FaultRecord f = FaultFigures.of(h, List.of(new FaultRecord("kill", "n1", 0, 50 * MS, 0, null))).get(0);
        assertNull(f.newPrimaryMillis());
        assertNull(f.noCommitMillis());
    }
}
