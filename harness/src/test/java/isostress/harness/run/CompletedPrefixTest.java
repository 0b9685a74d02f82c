package isostress.harness.run;

import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.CompletedPrefix;
import isostress.checker.history.History;
import isostress.checker.history.InitialState;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.generator.KeyDistribution;
import isostress.generator.sim.MiniSimulation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static isostress.checker.model.IsolationLevel.SNAPSHOT_ISOLATION;
import static isostress.checker.model.IsolationLevel.STRICT_SERIALIZABLE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The prefix the streaming check examines: closed under reads-from, so its violations are the history's. */
class CompletedPrefixTest {
    static final InitialState ZERO = InitialState.allKeys(0L);
    static final List<IsolationLevel> LEVELS = List.of(SNAPSHOT_ISOLATION, SERIALIZABLE, STRICT_SERIALIZABLE);

    /** A completed transaction invoked at event {@code inv} and completed at {@code done} (times = indices). */
    static Txn txn(int id, long process, Outcome o, long inv, long done, MicroOp... ops) {
        return new Txn(id, process, o, List.of(ops), inv, done, inv, done, 0, null, null);
    }

    static MicroOp r(long k, long v) {
        return new MicroOp.Read(k, v);
    }

    static MicroOp w(long k, long v) {
        return new MicroOp.Write(k, v);
    }

    @Test
    void aReaderOfAWriterStillInFlightIsLeftOutUntilTheWriterCompletes() {
        Txn writer = txn(0, 0, Outcome.OK, 0, 5, r(1, 0), w(1, 7));
        Txn reader = txn(1, 1, Outcome.OK, 1, 2, r(1, 7), w(1, 8)); // read 7 before its writer completed
        Txn readersReader = txn(2, 2, Outcome.OK, 3, 4, r(1, 8), w(2, 9));
        Txn other = txn(3, 3, Outcome.OK, 6, 7, r(3, 0), w(3, 10)); // reads the initial value: always in

        CompletedPrefix.Prefix early = CompletedPrefix.of(List.of(reader, readersReader, other), ZERO);
        assertArrayEquals(new int[] {3}, early.ids(), "the reader and, transitively, its reader are left out");
        assertEquals(2, early.left());

        CompletedPrefix.Prefix later = CompletedPrefix.of(List.of(reader, readersReader, writer, other), ZERO);
        assertArrayEquals(new int[] {0, 1, 2, 3}, later.ids(), "in once the writer completed, in invocation order");
        assertEquals(0, later.left());
        assertEquals("T2", later.label(2));
        assertEquals(Verdict.VALID, Checker.check(later.history(), LEVELS, CheckOptions.DEFAULTS).verdict());
    }

    @Test
    void infoTransactionsAndTheirReadersAreLeftOutButFailedOnesStay() {
        Txn info = txn(0, 0, Outcome.INFO, 0, 1, r(1, 0), w(1, 7));
        Txn readsInfo = txn(1, 1, Outcome.OK, 2, 3, r(1, 7), w(1, 8));
        Txn failed = txn(2, 2, Outcome.FAIL, 4, 5, r(2, 0), w(2, 9));
        Txn readsFailed = txn(3, 3, Outcome.OK, 6, 7, r(2, 9), w(2, 10)); // an aborted read (G1a), a real one
        CompletedPrefix.Prefix p = CompletedPrefix.of(List.of(info, readsInfo, failed, readsFailed), ZERO);
        assertArrayEquals(new int[] {2, 3}, p.ids());
        Result r = Checker.check(p.history(), List.of(IsolationLevel.READ_COMMITTED), CheckOptions.DEFAULTS);
        assertEquals(Verdict.INVALID, r.verdict(), r.anomalyCounts().toString());
        assertTrue(r.anomalyCounts().containsKey("G1a"), r.anomalyCounts().toString());
    }

    @Test
    void aViolationInThePrefixIsAViolationOfTheWholeHistory() {
        // Write skew between T0 and T1, while T2 is still running and T3 already read T2's write.
        Txn t0 = txn(0, 0, Outcome.OK, 0, 4, r(1, 0), r(2, 0), w(1, 11));
        Txn t1 = txn(1, 1, Outcome.OK, 1, 5, r(1, 0), r(2, 0), w(2, 21));
        Txn t2 = txn(2, 2, Outcome.OK, 2, 9, r(3, 0), w(3, 31));
        Txn t3 = txn(3, 3, Outcome.OK, 3, 6, r(3, 31), w(3, 32));
        CompletedPrefix.Prefix p = CompletedPrefix.of(List.of(t0, t1, t3), ZERO);
        assertArrayEquals(new int[] {0, 1}, p.ids());
        Result prefix = Checker.check(p.history(), LEVELS, CheckOptions.DEFAULTS);
        assertEquals(Verdict.INVALID, prefix.level(SERIALIZABLE).verdict());
        assertEquals(Verdict.VALID, prefix.level(SNAPSHOT_ISOLATION).verdict());

        History.Builder b = History.builder().initial(ZERO);
        for (Txn t : List.of(t0, t1, t2, t3)) b.add(t);
        Result whole = Checker.check(b.build(), LEVELS, CheckOptions.DEFAULTS);
        assertEquals(Verdict.INVALID, whole.level(SERIALIZABLE).verdict());
        assertEquals(prefix.anomalyCounts().keySet(), whole.anomalyCounts().keySet());
    }

    static MicroOp append(long k, long e) {
        return new MicroOp.Append(k, e);
    }

    static MicroOp list(long k, Long... es) {
        return new MicroOp.ListRead(k, List.of(es));
    }

    /**
     * A list read waits for the appender of each element, also when a longer read in the prefix already showed the
     * elements before it: an element at a position the longer read shows differently, or past its end, is looked up.
     */
    @Test
    void aListReadWaitsForEveryElementsAppenderWhateverWasReadBefore() {
        CompletedPrefix p = new CompletedPrefix(ZERO);
        p.add(txn(0, 0, Outcome.OK, 0, 1, append(1, 1)));
        p.add(txn(1, 1, Outcome.OK, 2, 3, append(1, 2)));
        p.add(txn(2, 2, Outcome.OK, 4, 5, list(1, 1L, 2L)));
        assertEquals(3, p.size());
        p.add(txn(3, 3, Outcome.OK, 6, 7, list(1, 1L, 2L, 3L))); // 3's appender (T5) not in yet
        p.add(txn(4, 4, Outcome.OK, 8, 9, list(1, 1L, 3L))); // 3 where the longer read has 2
        p.add(txn(6, 6, Outcome.OK, 12, 13, list(1, 2L, 1L))); // both appenders in, in another order
        assertEquals(4, p.size(), "only the read whose appenders are all in");
        p.add(txn(5, 5, Outcome.OK, 10, 14, append(1, 3)));
        assertEquals(7, p.size(), "3's appender released both readers");
        p.add(txn(7, 7, Outcome.OK, 15, 16, list(1, 1L, 2L, 3L, 4L), append(1, 4))); // its own append
        p.add(txn(8, 8, Outcome.OK, 17, 18, list(1, 1L, 2L, 3L, 5L))); // 5 appended by nobody
        assertEquals(8, p.size());
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, p.history().ids());
    }

    /** A prefix taken to be built later describes the moment it was taken, whatever comes in afterwards. */
    @Test
    void aPrefixBuiltLaterIsThePrefixWhenItWasTaken() {
        CompletedPrefix p = new CompletedPrefix(ZERO);
        p.add(txn(0, 0, Outcome.OK, 0, 1, r(1, 0), w(1, 7)));
        p.add(txn(2, 2, Outcome.OK, 4, 5, r(1, 7), w(2, 9)));
        p.add(txn(3, 3, Outcome.OK, 6, 7, r(1, 8))); // waits for T1
        java.util.function.Supplier<CompletedPrefix.Prefix> later = p.historyLater();
        CompletedPrefix.Prefix now = p.history();
        p.add(txn(1, 1, Outcome.OK, 2, 8, r(1, 7), w(1, 8)));
        p.add(txn(4, 4, Outcome.OK, 9, 10, r(3, 0)));
        CompletedPrefix.Prefix built = later.get();
        assertArrayEquals(now.ids(), built.ids());
        assertArrayEquals(new int[] {0, 2}, built.ids());
        assertEquals(now.left(), built.left());
        assertEquals(1, built.left());
        assertEquals(now.history().txns(), built.history().txns());
        assertArrayEquals(new int[] {0, 1, 2, 3, 4}, p.history().ids());
    }

    /**
     * Soundness on simulated stores: no prefix of a valid history is invalid. The simulated serializable store lets
     * a reader complete before its writer does, so leaving out such readers is what keeps these prefixes valid
     * (without it they would read out of thin air); the snapshot-isolation store's prefixes must stay SI.
     */
    @Test
    void everyPrefixOfAValidSimulatedHistoryIsValid() {
        int cuts = 0, leftOut = 0;
        for (long seed = 1; seed <= 12; seed++) {
            for (MiniSimulation.Isolation iso : MiniSimulation.Isolation.values()) {
                MiniSimulation.Config c = new MiniSimulation.Config(300, 6, new KeyDistribution.Uniform(4), iso,
                        0.1, 0.05, seed);
                History h = MiniSimulation.history(c);
                List<IsolationLevel> levels = iso == MiniSimulation.Isolation.SERIALIZABLE
                        ? List.of(STRICT_SERIALIZABLE) : List.of(SNAPSHOT_ISOLATION);
                assertEquals(Verdict.VALID, Checker.check(h, levels, CheckOptions.DEFAULTS).verdict());
                Txn[] byCompletion = completed(h);
                for (int cut = 1; cut <= byCompletion.length; cut += 7) {
                    CompletedPrefix.Prefix p = CompletedPrefix.of(Arrays.asList(byCompletion).subList(0, cut), ZERO);
                    leftOut += p.left();
                    cuts++;
                    if (p.history().size() == 0) continue;
                    Result r = Checker.check(p.history(), levels, CheckOptions.DEFAULTS);
                    assertEquals(Verdict.VALID, r.verdict(), iso + " seed " + seed + " cut " + cut + ": "
                            + r.anomalyCounts());
                }
            }
        }
        assertTrue(cuts > 500 && leftOut > 100, cuts + " cuts, " + leftOut + " left out: the test must exercise it");
    }

    /** The transactions of {@code h} that completed, in completion order (how the recorder hands them over). */
    static Txn[] completed(History h) {
        List<Txn> out = new ArrayList<>();
        for (Txn t : h) if (!t.pending()) out.add(t);
        out.sort(java.util.Comparator.comparingLong(Txn::completeIndex));
        return out.toArray(new Txn[0]);
    }
}
