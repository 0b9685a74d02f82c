package isostress.checker;

import isostress.checker.history.History;
import isostress.checker.history.Txn;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static isostress.checker.model.IsolationLevel.READ_COMMITTED;
import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static isostress.checker.model.IsolationLevel.SNAPSHOT_ISOLATION;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The streaming check of general histories (rw-register with blind writes, list-append) on hand-built histories: a
 * violation that only the last completion closes is found by the last check and no earlier one; one that happens
 * early stops the check there, whatever completes later; list reads wait for the appender of every element they hold.
 */
class StreamingCheckerTest {
    private static final List<IsolationLevel> SI_SER = List.of(SNAPSHOT_ISOLATION, SERIALIZABLE);

    /** Write skew on lists: each of T_a, T_b reads the key the other appends to, empty. Completes last: T_b. */
    static History listWriteSkewAtTheEnd() {
        return new Hist()
                .ok(3, "append 3 1").ok(4, "r 3 [1], append 3 2").ok(3, "r 3 [1 2]")
                .begin(1, "r 1 [], append 2 1").begin(2, "r 2 [], append 1 1").end(1).end(2).build();
    }

    /** The same on registers with blind writes (so the general checker decides). */
    static History registerWriteSkewAtTheEnd() {
        return new Hist()
                .ok(3, "w 3 1").ok(4, "r 3 1, w 3 2").ok(3, "r 3 2")
                .begin(1, "r 1 nil, w 2 1").begin(2, "r 2 nil, w 1 1").end(1).end(2).build();
    }

    /** The same on mini-transactions (each write after a read of its key), which the mini-transaction screen reads. */
    static History miniWriteSkewAtTheEnd() {
        return new Hist()
                .ok(3, "r 3 nil, w 3 1").ok(4, "r 3 1, w 3 2").ok(3, "r 3 2")
                .begin(1, "r 1 nil, r 2 nil, w 2 1").begin(2, "r 2 nil, r 1 nil, w 1 1").end(1).end(2).build();
    }

    @Test
    void aViolationThatTheLastCompletionClosesIsFoundByTheLastCheckOnly() {
        for (History h : List.of(listWriteSkewAtTheEnd(), registerWriteSkewAtTheEnd(), miniWriteSkewAtTheEnd())) {
            StreamingChecker s = new StreamingChecker(List.of(SERIALIZABLE), CheckOptions.DEFAULTS, h.initial(),
                    h.realTime());
            List<Txn> order = byCompletion(h);
            for (int i = 0; i < order.size(); i++) {
                s.add(order.get(i));
                StreamingChecker.Step step = s.check();
                assertNotNull(step, "each completion here adds to the prefix");
                boolean last = i == order.size() - 1;
                assertEquals(last, step.violation(), "after " + (i + 1) + " completions");
                if (step.result() != null && !last) assertEquals(Verdict.VALID, step.result().verdict());
            }
            assertEquals(h.size(), s.violation().prefix().history().size());
            // Lists and mini-transactions: the incremental screen answered some checks, and its cycle had the last one
            // checked whole. Registers with blind writes: every check is whole.
            boolean screened = h.txns().stream().allMatch(isostress.checker.stream.ListScreen::lists)
                    || h.txns().stream().allMatch(isostress.checker.stream.MiniScreen::minis);
            assertEquals(screened, s.screening());
            if (screened) assertTrue(s.screened() > 0 && s.wholeChecks() < order.size(), s.screened() + " screened");
            assertEquals(Verdict.INVALID, Checker.check(h, List.of(SERIALIZABLE), CheckOptions.DEFAULTS).verdict(),
                    "the batch check agrees");
            // Write skew is snapshot isolation: no prefix, nor the whole, violates it.
            StreamingChecker si = new StreamingChecker(List.of(SNAPSHOT_ISOLATION), CheckOptions.DEFAULTS,
                    h.initial(), h.realTime());
            for (Txn t : order) {
                si.add(t);
                StreamingChecker.Step step = si.check();
                assertTrue(step.result() == null || step.result().verdict() == Verdict.VALID);
            }
            assertNull(si.violation());
            assertEquals(Verdict.VALID, si.finish().verdict());
        }
    }

    @Test
    void anEarlyViolationStopsTheCheckThere() {
        // An aborted read at once (list-append), then a stream of transactions that are fine.
        Hist b = new Hist().fail(1, "append 1 1").ok(2, "r 1 [1]");
        for (int i = 0; i < 50; i++) b.ok(3 + i % 4, "append 2 " + (10 + i) + ", r 2 [" + seq(10, 10 + i) + "]");
        History h = b.build();
        StreamingChecker s = new StreamingChecker(SI_SER, CheckOptions.DEFAULTS, h.initial(), h.realTime());
        int checks = 0;
        for (Txn t : byCompletion(h)) {
            s.add(t);
            if (s.check() != null) checks++;
        }
        assertEquals(2, checks, "the second check found it; none ran after");
        assertEquals(2, s.added(), "transactions completing after the violation are not kept");
        Result r = s.violation().result();
        assertTrue(r.anomalyCounts().containsKey("G1a"), r.anomalyCounts().toString());
        assertArrayEquals(new int[] {0, 1}, s.violation().prefix().ids());
        assertEquals(Verdict.INVALID, Checker.check(h, SI_SER, CheckOptions.DEFAULTS).verdict());
    }

    @Test
    void aListReadWaitsForTheAppenderOfEveryElementItHolds() {
        // T0 appends 1, T1 appends 2 and stays in flight, T2 reads [1 2] and completes before T1.
        History h = new Hist().ok(1, "append 1 1").begin(2, "append 1 2").ok(3, "r 1 [1 2]").end(2)
                .ok(3, "r 1 [1 2 3]").ok(4, "append 1 3").build();
        List<Txn> order = byCompletion(h);
        CompletedPrefix p = new CompletedPrefix(h.initial(), h.realTime());
        p.add(order.get(0));
        p.add(order.get(1));
        assertArrayEquals(new int[] {0}, p.history().ids(), "the reader waits for T1, the writer of 2");
        p.add(order.get(2));
        assertArrayEquals(new int[] {0, 1, 2}, p.history().ids());
        p.add(order.get(3));
        assertArrayEquals(new int[] {0, 1, 2}, p.history().ids(), "3's appender has not completed");
        p.add(order.get(4));
        assertArrayEquals(new int[] {0, 1, 2, 3, 4}, p.history().ids());
    }

    @Test
    void infoTransactionsWaitForTheEndWhereTheWholeHistoryIsChecked() {
        // T0 is info but T1 read its element: committed after all. T2 then reads a list missing it after T1's read:
        // an incompatible order only the whole history shows.
        History h = new Hist().info(1, "append 1 1").ok(2, "r 1 [1], append 1 2").ok(3, "r 1 [2]").build();
        StreamingChecker s = new StreamingChecker(List.of(READ_COMMITTED), CheckOptions.DEFAULTS, h.initial(),
                h.realTime());
        for (Txn t : byCompletion(h)) {
            s.add(t);
            StreamingChecker.Step step = s.check();
            if (step != null && step.result() != null) assertEquals(Verdict.VALID, step.result().verdict());
        }
        assertNull(s.violation(), "T1 and its readers wait for T0, which is info");
        Result whole = Checker.check(h, List.of(READ_COMMITTED), CheckOptions.DEFAULTS);
        assertEquals(Verdict.INVALID, whole.verdict(), whole.anomalyCounts().toString());
        assertEquals(whole.verdict(), s.finish().verdict());
        assertEquals(whole.anomalyCounts(), s.finish().anomalyCounts());
    }

    static List<Txn> byCompletion(History h) {
        List<Txn> out = new ArrayList<>();
        for (Txn t : h) if (!t.pending()) out.add(t);
        out.sort(Comparator.comparingLong(Txn::completeIndex));
        return out;
    }

    private static String seq(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i <= to; i++) sb.append(i == from ? "" : " ").append(i);
        return sb.toString();
    }
}
