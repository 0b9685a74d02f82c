package isostress.checker;

import isostress.checker.explain.TextRenderer;
import isostress.checker.history.History;
import isostress.checker.model.Anomaly;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.reference.PsiBruteForce;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;

import static isostress.checker.model.IsolationLevel.CAUSAL;
import static isostress.checker.model.IsolationLevel.PARALLEL_SNAPSHOT_ISOLATION;
import static isostress.checker.model.IsolationLevel.PREFIX;
import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static isostress.checker.model.IsolationLevel.SNAPSHOT_ISOLATION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parallel snapshot isolation on hand-built histories: long fork (SI fails, PSI holds, named long-fork),
 * lost update and causality violation (PSI fails), write skew (SI and PSI hold), as mini-transactions, rw-register
 * with blind writes and list-append, each against the abstract-execution reference ({@link PsiBruteForce}).
 */
class PsiAnomalyTest {
    private static final BiFunction<History, IsolationLevel, Result> MINI = (h, l) ->
            Checker.check(h, List.of(l), CheckOptions.DEFAULTS);
    private static final BiFunction<History, IsolationLevel, Result> GENERAL = (h, l) ->
            Checker.checkGeneral(h, List.of(l), CheckOptions.DEFAULTS);

    /**
     * @param psi     PSI's verdict
     * @param si      SI's verdict
     * @param anomaly a name the result must list when checked at SI and weaker (null: none asked)
     */
    record Case(String name, History history, BiFunction<History, IsolationLevel, Result> checker, boolean psi,
                boolean si, String anomaly) {
    }

    static long[] p(long... ps) {
        return ps;
    }

    static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        c.add(new Case("long fork (mini)", new Hist().concurrent(p(1, 2, 3, 4), "r 1 nil, w 1 1", "r 2 nil, w 2 1",
                "r 1 1, r 2 nil", "r 2 1, r 1 nil").build(), MINI, true, false, "long-fork"));
        c.add(new Case("long fork (rw-register)", new Hist().concurrent(p(1, 2, 3, 4), "w 1 1", "w 2 1",
                "r 1 1, r 2 nil", "r 2 1, r 1 nil").build(), GENERAL, true, false, "long-fork"));
        c.add(new Case("long fork (list-append)", new Hist().concurrent(p(1, 2, 3, 4), "append 1 1", "append 2 1",
                "r 1 [1], r 2 []", "r 2 [1], r 1 []").build(), GENERAL, true, false, "long-fork"));
        c.add(new Case("lost update (mini)", new Hist().concurrent(p(1, 2), "r 1 nil, w 1 1", "r 1 nil, w 1 2")
                .build(), MINI, false, false, "lost-update"));
        c.add(new Case("lost update (list-append)", new Hist().ok(1, "append 1 1").concurrent(p(2, 3),
                "r 1 [1], append 1 2", "r 1 [1], append 1 3").ok(4, "r 1 [1 2 3]").build(), GENERAL, false, false,
                "lost-update"));
        c.add(new Case("write skew (mini)", new Hist().concurrent(p(1, 2), "r 1 nil, r 2 nil, w 1 1",
                "r 1 nil, r 2 nil, w 2 1").build(), MINI, true, true, null));
        c.add(new Case("write skew (list-append)", new Hist().concurrent(p(1, 2), "r 1 [], append 2 1",
                "r 2 [], append 1 1").ok(3, "r 1 [1], r 2 [1]").build(), GENERAL, true, true, null));
        c.add(new Case("causality violation (mini)", new Hist().concurrent(p(1, 2, 3), "r 1 nil, w 1 1",
                "r 1 1, r 2 nil, w 2 1", "r 2 1, r 1 nil").build(), MINI, false, false, "G-single"));
        c.add(new Case("causality violation (rw-register)", new Hist().concurrent(p(1, 2, 3), "w 1 1",
                "r 1 1, w 2 1", "r 2 1, r 1 nil").build(), GENERAL, false, false, "G-single"));
        // Blind writes nobody read leave key 3's order open; the order that follows the dependencies decides.
        c.add(new Case("long fork with unread blind writes", new Hist().concurrent(p(1, 2, 3, 4, 5, 6), "w 1 1",
                "w 2 1", "r 1 1, r 2 nil", "r 2 1, r 1 nil", "w 3 1", "w 3 2").build(), GENERAL, true, false,
                "long-fork"));
        return c;
    }

    @TestFactory
    Stream<DynamicTest> psiVerdicts() {
        return cases().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            assertEquals(c.psi(), PsiBruteForce.valid(c.history()), c.name() + ": the reference disagrees");
            Result psi = c.checker().apply(c.history(), PARALLEL_SNAPSHOT_ISOLATION);
            Result si = c.checker().apply(c.history(), SNAPSHOT_ISOLATION);
            assertEquals(c.psi() ? Verdict.VALID : Verdict.INVALID, psi.level(PARALLEL_SNAPSHOT_ISOLATION).verdict(),
                    c.name() + ": " + psi.level(PARALLEL_SNAPSHOT_ISOLATION).reason());
            assertEquals(c.si() ? Verdict.VALID : Verdict.INVALID, si.level(SNAPSHOT_ISOLATION).verdict(),
                    c.name() + ": " + si.level(SNAPSHOT_ISOLATION).reason());
            Result all = c.checker().apply(c.history(), SERIALIZABLE);
            System.out.println(c.name() + ": psi " + psi.level(PARALLEL_SNAPSHOT_ISOLATION).reason() + "; weakest "
                    + all.weakestViolated() + "; " + all.anomalyCounts());
            if (c.anomaly() == null) return;
            Anomaly a = all.anomalies().stream().filter(x -> x.name().startsWith(c.anomaly())).findFirst()
                    .orElseThrow(() -> new AssertionError(c.name() + ": no " + c.anomaly() + " in "
                            + all.anomalyCounts()));
            String text = TextRenderer.render(a);
            assertTrue(text.contains(a.name()), text);
            if (c.psi()) assertFalse(all.weakestViolated().contains(PARALLEL_SNAPSHOT_ISOLATION));
            else assertTrue(!psi.anomalies().isEmpty(), c.name() + ": a PSI violation without a counterexample");
        }));
    }

    /** The long fork's sentence says who saw what; the weakest violated level is prefix, not PSI. */
    @Test
    void longForkIsNamedAndExplained() {
        History h = new Hist().concurrent(p(1, 2, 3, 4), "w 1 1", "w 2 1", "r 1 1, r 2 nil", "r 2 1, r 1 nil")
                .build();
        Result r = Checker.checkGeneral(h, List.of(SERIALIZABLE, PARALLEL_SNAPSHOT_ISOLATION), CheckOptions.DEFAULTS);
        assertEquals(Verdict.VALID, r.level(PARALLEL_SNAPSHOT_ISOLATION).verdict());
        assertEquals(List.of(PREFIX), r.weakestViolated());
        Anomaly a = r.anomalies().stream().filter(x -> x.type() == AnomalyType.LONG_FORK).findFirst().orElseThrow();
        String s = TextRenderer.render(a); // its last line is the anomaly's sentence
        assertTrue(s.contains("\nLong fork: T0 wrote key 1 and T1 wrote key 2; T2 saw T0's write but not T1's, "
                + "T3 saw T1's but not T0's"), s);
    }

    /**
     * Two blind writes of key 1 that do not see each other (each reads the initial value of a key the other writes):
     * causal consistency allows it, NOCONFLICT does not. No read orders key 1, so every order is tried, and each
     * closes a cycle with one rw edge: the counterexample is the case split.
     */
    @Test
    void conflictingBlindWritesThatDoNotSeeEachOtherBreakPsiInEveryOrder() {
        History h = new Hist().concurrent(p(1, 2), "w 1 1, r 3 nil, w 2 1", "w 1 2, r 2 nil, w 3 1").build();
        assertFalse(PsiBruteForce.valid(h));
        Result r = Checker.checkGeneral(h, List.of(PARALLEL_SNAPSHOT_ISOLATION, CAUSAL), CheckOptions.DEFAULTS);
        assertEquals(Verdict.VALID, r.level(CAUSAL).verdict(), r.level(CAUSAL).reason());
        assertEquals(Verdict.INVALID, r.level(PARALLEL_SNAPSHOT_ISOLATION).verdict());
        assertTrue(r.level(PARALLEL_SNAPSHOT_ISOLATION).reason().startsWith("each of the 2 orders"),
                r.level(PARALLEL_SNAPSHOT_ISOLATION).reason());
        Anomaly a = r.anomalies().stream().filter(x -> x.level() == PARALLEL_SNAPSHOT_ISOLATION).findFirst()
                .orElseThrow();
        assertTrue(a.premises().get(0).claim().startsWith("the cycle above assumes key 1 in the order T"),
                a.premises().get(0).claim());
        assertTrue(a.premises().get(1).claim().startsWith("if key 1 in the order T"), a.premises().get(1).claim());
        assertFalse(a.premises().get(1).steps().isEmpty());
        System.out.println(TextRenderer.render(a));
    }

    /** A lost update violates PSI (NOCONFLICT) but not prefix consistency: the two are incomparable. */
    @Test
    void lostUpdateIsWeakestAtPsi() {
        History h = new Hist().concurrent(p(1, 2), "r 1 nil, w 1 1", "r 1 nil, w 1 2").build();
        // Prefix is asked for: with lost updates it takes a search, which a check of SER alone leaves out.
        Result r = Checker.check(h, List.of(SERIALIZABLE, PREFIX), CheckOptions.DEFAULTS);
        assertEquals(List.of(PARALLEL_SNAPSHOT_ISOLATION), r.weakestViolated());
        assertEquals(Verdict.VALID, r.level(PREFIX).verdict());
        assertEquals(Verdict.VALID, r.level(CAUSAL).verdict());
    }
}
