package isostress.checker.stream;

import isostress.checker.Hist;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The list-append screen on hand-built transactions, in the order they come into the prefix: the cycles it must
 * find (through reads, appends not shown yet, sessions that arrive out of order) and the anomalies it flags (aborted
 * and duplicate elements, incompatible orders, intermediate reads), and valid histories it must let pass.
 */
class ListScreenTest {
    private Txn ok(long process, long invoke, String ops) {
        return txn(process, invoke, Outcome.OK, ops);
    }

    private Txn txn(long process, long invoke, Outcome outcome, String ops) {
        // A history numbers its transactions by invocation, as the screen assumes (the offset keeps ids non-negative).
        return new Txn(Math.toIntExact(invoke) + 16, process, outcome, Hist.parse(ops), invoke, invoke + 1, -1, -1, 0,
                null, null);
    }

    private static ListScreen screen(Txn... txns) {
        ListScreen s = new ListScreen(true);
        for (Txn t : txns) s.add(t);
        return s;
    }

    @Test
    void aSerialHistoryPasses() {
        ListScreen s = screen(ok(1, 0, "append 1 1, r 2 []"), ok(2, 2, "r 1 [1], append 2 5"),
                ok(1, 4, "r 1 [1], r 2 [5], append 1 2, r 1 [1 2]"), ok(3, 6, "r 1 [1 2], append 2 6"),
                ok(2, 8, "r 2 [5 6], r 1 [1 2]"));
        assertFalse(s.cycle());
        assertNull(s.flag());
        assertEquals(5, s.nodes());
    }

    @Test
    void writeSkewIsACycle() {
        ListScreen s = screen(ok(1, 0, "r 1 [], append 2 1"), ok(2, 1, "r 2 [], append 1 1"));
        assertTrue(s.cycle());
        assertNotNull(s.flag());
        s.reset();
        assertNull(s.flag());
        assertTrue(s.cycle(), "a cycle found stays found");
    }

    @Test
    void aReaderOfAShortListIsBeforeTheAppendsItDoesNotShowEvenWhenTheyCameFirst() {
        // T2 reads [1] and appends 7 to key 3; T3 reads key 3 and appends 2 to key 1; T4 reads both.
        Txn t2 = ok(2, 0, "r 1 [1], append 3 7");
        ListScreen s = screen(ok(1, -2, "append 1 1"), t2, ok(3, 1, "r 3 [7], append 1 2"), ok(4, 3, "r 1 [1 2]"));
        assertFalse(s.cycle(), "T3 read T2's 7, and T2 read [1] before T3 appended 2: T2 before T3");
        ListScreen c = screen(ok(1, -2, "append 1 1"), ok(3, 1, "r 3 [], append 1 2"), ok(2, 0, "r 1 [1], append 3 7"),
                ok(4, 3, "r 1 [1 2], r 3 [7]"));
        assertTrue(c.cycle(), "T3 missed T2's 7 and T2 missed T3's 2: each before the other");
    }

    @Test
    void sessionOrderCountsWhenASessionsTransactionsComeOutOfOrder() {
        // Session 1 runs T_a (invoked at 10) then T_b (at 20); T_b comes in first.
        Txn a = ok(1, 10, "r 5 []"), b = ok(1, 20, "append 5 1");
        ListScreen fine = screen(b, a);
        assertFalse(fine.cycle(), "T_a read the list before T_b appended: session order agrees");
        Txn a2 = ok(1, 10, "r 5 [1]"), b2 = ok(1, 20, "append 5 1");
        ListScreen future = screen(b2, a2);
        assertTrue(future.cycle(), "T_a read what its session appended later");
        // Three of one session arrive 1, 3, 2: the middle one must be joined to both neighbours.
        ListScreen middle = screen(ok(1, 10, "append 6 1"), ok(1, 30, "append 6 2"), ok(1, 20, "r 6 [1 2]"));
        assertTrue(middle.cycle(), "the middle transaction read the append of the one after it");
        ListScreen middleFine = screen(ok(1, 10, "append 6 1"), ok(1, 30, "append 6 2"), ok(1, 20, "r 6 [1]"));
        assertFalse(middleFine.cycle());
        assertNull(middleFine.flag());
    }

    @Test
    void anAbortedElementReadIsFlaggedNotACycle() {
        ListScreen s = screen(txn(1, 0, Outcome.FAIL, "append 1 9"), ok(2, 2, "append 1 1"), ok(3, 4, "r 1 [1 9]"));
        assertNotNull(s.flag());
        assertTrue(s.flag().contains("aborted"), s.flag());
        assertFalse(s.cycle());
        s.reset();
        // A later read of a prefix holding it is flagged again (the aborted element stays in the longest read).
        s.add(ok(4, 6, "r 1 [1 9]"));
        assertNotNull(s.flag());
        // An aborted append nobody reads is no anomaly.
        ListScreen quiet = screen(txn(1, 0, Outcome.FAIL, "append 1 9"), ok(2, 2, "append 1 1"), ok(3, 4, "r 1 [1]"));
        assertNull(quiet.flag());
    }

    @Test
    void duplicateElementsAreFlagged() {
        ListScreen inRead = screen(ok(1, 0, "append 1 1"), ok(2, 2, "r 1 [1 1]"));
        assertTrue(inRead.flag().contains("duplicate element 1"), inRead.flag());
        inRead.reset();
        inRead.add(ok(3, 4, "r 1 [1 1]"));
        assertNotNull(inRead.flag(), "a later read of the same list repeats it");

        ListScreen appendedTwice = screen(ok(1, 0, "append 1 1"), ok(2, 2, "append 1 1"));
        assertTrue(appendedTwice.flag().contains("appended twice"), appendedTwice.flag());
        ListScreen twiceInOne = screen(ok(1, 0, "append 1 1, append 1 1"));
        assertTrue(twiceInOne.flag().contains("appended twice"), twiceInOne.flag());
    }

    @Test
    void incompatibleOrdersAndIntermediateAndInternalReadsAreFlagged() {
        ListScreen orders = screen(ok(1, 0, "append 1 1"), ok(2, 2, "append 1 2"), ok(3, 4, "r 1 [1 2]"),
                ok(4, 6, "r 1 [2 1]"));
        assertTrue(orders.flag().contains("incompatible"), orders.flag());
        ListScreen intermediate = screen(ok(1, 0, "append 1 1, append 1 2"), ok(2, 2, "r 1 [1]"));
        assertTrue(intermediate.flag().contains("intermediate"), intermediate.flag());
        ListScreen last = screen(ok(1, 0, "append 1 1, append 1 2"), ok(2, 2, "r 1 [1 2]"));
        assertNull(last.flag(), "a read of the last of a transaction's appends is fine");
        ListScreen internal = screen(ok(1, 0, "append 1 1"), ok(2, 2, "append 1 2, r 1 [1]"));
        assertTrue(internal.flag().contains("internal"), internal.flag());
        ListScreen own = screen(ok(1, 0, "append 1 1"), ok(2, 2, "append 1 2, r 1 [1 2], append 1 3, r 1 [1 2 3]"),
                ok(3, 4, "r 1 [1 2 3]"));
        assertNull(own.flag(), "a read ending with the transaction's own appends");
        assertFalse(own.cycle());
    }

    @Test
    void manyAppendsNoReadShowsThenOneReadShowingThemAll() {
        ListScreen s = new ListScreen(true);
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            s.add(ok(i, 2L * i, "append 1 " + i));
            all.append(i == 0 ? "" : " ").append(i);
        }
        s.add(ok(1_000, 1_000, "r 1 [" + all + "]"));
        assertNull(s.flag());
        assertFalse(s.cycle());
        // Appends shown in an order other than they came in: still their appenders, still no cycle.
        ListScreen shuffled = new ListScreen(true);
        shuffled.add(ok(0, 0, "append 2 1"));
        shuffled.add(ok(1, 2, "append 2 2"));
        shuffled.add(ok(2, 4, "append 2 3"));
        shuffled.add(ok(3, 6, "r 2 [3 1 2]"));
        assertNull(shuffled.flag());
        shuffled.add(ok(4, 8, "r 2 [3 1]"));
        assertNull(shuffled.flag());
        assertFalse(shuffled.cycle());
        shuffled.add(ok(5, 10, "r 2 [3], append 7 1"));
        shuffled.add(ok(6, 12, "r 7 [1], append 2 4"));
        assertFalse(shuffled.cycle(), "T5 read [3], before 1 and 2; T6 appended 4 after all three: no cycle");
    }
}
