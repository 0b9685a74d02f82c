package isostress.checker;

import isostress.checker.model.CheckOptions;
import isostress.checker.history.History;
import isostress.checker.model.Anomaly;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.MtcAnomaly;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static isostress.checker.model.IsolationLevel.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The 14 anomalies of MTC Fig. 5 (Wei et al., Table I) as hand-built mini-transaction histories, each asserted
 * invalid exactly at the levels it violates (under Biswas &amp; Enea's axioms) and valid at the others, plus a stale
 * read after real time (SER-valid, SSER-invalid). Transactions of different processes overlap unless the anomaly
 * needs an order, so real time adds nothing.
 */
class Fig5AnomalyTest {
    private static final IsolationLevel[] CHAIN = {READ_COMMITTED, READ_ATOMIC, CAUSAL, PREFIX,
            PARALLEL_SNAPSHOT_ISOLATION, SNAPSHOT_ISOLATION, SERIALIZABLE, STRICT_SERIALIZABLE};

    record Case(String name, History history, IsolationLevel weakest, MtcAnomaly alias) {
    }

    static long[] p(long... ps) {
        return ps;
    }

    static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        c.add(new Case("(a) ThinAirRead", new Hist().ok(1, "r 1 5").build(), READ_COMMITTED, MtcAnomaly.THIN_AIR_READ));
        c.add(new Case("(b) AbortedRead", new Hist().fail(1, "r 1 nil, w 1 1").ok(2, "r 1 1").build(),
                READ_COMMITTED, MtcAnomaly.ABORTED_READ));
        c.add(new Case("(c) FutureRead", new Hist().ok(1, "r 1 1, w 1 1").build(), READ_COMMITTED,
                MtcAnomaly.FUTURE_READ));
        c.add(new Case("(d) NotMyLastWrite", new Hist().ok(1, "r 1 nil, w 1 1, w 1 2, r 1 1").build(),
                READ_COMMITTED, MtcAnomaly.NOT_MY_LAST_WRITE));
        c.add(new Case("(e) NotMyOwnWrite", new Hist().ok(1, "r 1 nil, w 1 1, r 1 nil").build(), READ_COMMITTED,
                MtcAnomaly.NOT_MY_OWN_WRITE));
        c.add(new Case("(f) IntermediateRead", new Hist().ok(1, "r 1 nil, w 1 1, w 1 2").ok(2, "r 1 1").build(),
                READ_COMMITTED, MtcAnomaly.INTERMEDIATE_READ));
        c.add(new Case("(g) NonRepeatableReads", new Hist().concurrent(p(1, 2), "r 1 nil, w 1 1",
                "r 1 nil, r 1 1").build(), READ_ATOMIC, MtcAnomaly.NON_REPEATABLE_READS));
        c.add(new Case("(h) SessionGuaranteeViolation", new Hist().ok(1, "r 1 nil, w 1 1").ok(1, "r 1 nil").build(),
                READ_ATOMIC, MtcAnomaly.SESSION_GUARANTEE_VIOLATION));
        c.add(new Case("(i) NonMonotonicRead", new Hist().concurrent(p(1, 2, 3), "r 1 nil, w 1 1",
                "r 1 1, w 1 2, r 2 nil, w 2 1", "r 2 1, r 1 1").build(), READ_COMMITTED,
                MtcAnomaly.NON_MONOTONIC_READ));
        c.add(new Case("(j) FracturedRead", new Hist().concurrent(p(1, 2), "r 1 nil, r 2 nil, w 1 1, w 2 1",
                "r 2 nil, r 1 1").build(), READ_ATOMIC, MtcAnomaly.FRACTURED_READ));
        c.add(new Case("(k) CausalityViolation", new Hist().concurrent(p(1, 2, 3), "r 1 nil, w 1 1",
                "r 1 1, r 2 nil, w 2 1", "r 2 1, r 1 nil").build(), CAUSAL, MtcAnomaly.CAUSALITY_VIOLATION));
        c.add(new Case("(l) LongFork", new Hist().concurrent(p(1, 2, 3, 4), "r 1 nil, w 1 1", "r 2 nil, w 2 1",
                "r 1 1, r 2 nil", "r 2 1, r 1 nil").build(), PREFIX, MtcAnomaly.LONG_FORK));
        c.add(new Case("(m) LostUpdate", new Hist().concurrent(p(1, 2), "r 1 nil, w 1 1", "r 1 nil, w 1 2").build(),
                PARALLEL_SNAPSHOT_ISOLATION, MtcAnomaly.LOST_UPDATE));
        c.add(new Case("(n) WriteSkew", new Hist().concurrent(p(1, 2), "r 1 nil, r 2 nil, w 1 1",
                "r 1 nil, r 2 nil, w 2 1").build(), SERIALIZABLE, MtcAnomaly.WRITE_SKEW));
        c.add(new Case("stale read after real time", new Hist().ok(1, "r 1 nil, w 1 1").ok(2, "r 1 nil").build(),
                STRICT_SERIALIZABLE, null));
        return c;
    }

    @TestFactory
    Stream<DynamicTest> eachAnomalyIsInvalidExactlyAtTheLevelsItViolates() {
        return cases().stream().map(c -> DynamicTest.dynamicTest(c.name, () -> {
            for (IsolationLevel l : CHAIN) {
                Result r = Checker.check(c.history, List.of(l), CheckOptions.DEFAULTS);
                Verdict expected = l.implies(c.weakest) ? Verdict.INVALID : Verdict.VALID;
                assertEquals(expected, r.level(l).verdict(), c.name + " at " + l + ": " + r.level(l).reason());
            }
            Result r = Checker.check(c.history, List.of(STRICT_SERIALIZABLE), CheckOptions.DEFAULTS);
            assertEquals(List.of(c.weakest), r.weakestViolated(), c.name + " weakest violated");
            if (c.alias != null) {
                assertTrue(r.anomalies().stream().anyMatch(a -> a.alias() == c.alias),
                        c.name + ": expected " + c.alias + " among " + names(r.anomalies()));
            }
        }));
    }

    @Test
    void readThenTwoWritesOfTheSameKeyIsValid() {
        // MTC's SER checker rejects this valid history (checker/src/test/resources/corpus/README.md).
        History h = new Hist().ok(1, "r 1 nil, w 1 1, w 1 2").ok(2, "r 1 2, w 1 3").build();
        Result r = Checker.check(h, List.of(STRICT_SERIALIZABLE, LINEARIZABLE), CheckOptions.DEFAULTS);
        assertEquals(Verdict.VALID, r.verdict(), r.levels().toString());
    }

    @Test
    void withoutWeakerLevelsOnlyTheLevelsAskedAreExamined() {
        // The harness's check while running only asks "is serializability violated?".
        History h = new Hist().concurrent(p(1, 2), "r 1 nil, w 1 1", "r 1 nil, w 1 2").build(); // lost update
        Result all = Checker.check(h, List.of(STRICT_SERIALIZABLE), CheckOptions.DEFAULTS);
        assertEquals(List.of(PARALLEL_SNAPSHOT_ISOLATION), all.weakestViolated());
        Result asked = Checker.check(h, List.of(STRICT_SERIALIZABLE),
                CheckOptions.DEFAULTS.withWeakerLevels(false));
        assertEquals(Verdict.INVALID, asked.verdict());
        assertTrue(asked.level(SNAPSHOT_ISOLATION) == null && asked.level(READ_COMMITTED) == null,
                asked.levels().toString());
        assertTrue(asked.anomalyCounts().containsKey("lost-update"), asked.anomalyCounts().toString());
    }

    static String names(List<Anomaly> as) {
        return Arrays.toString(as.stream().map(Anomaly::displayName).toArray());
    }
}
