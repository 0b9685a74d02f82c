package isostress.checker;

import isostress.checker.model.CheckOptions;
import isostress.checker.explain.DotRenderer;
import isostress.checker.explain.TextRenderer;
import isostress.checker.history.History;
import isostress.checker.model.Anomaly;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.reference.BruteForceChecker;
import isostress.checker.reference.ListBruteForceChecker;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static isostress.checker.model.IsolationLevel.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each named anomaly (Elle's names, with -process and -realtime variants) as a hand-built general history,
 * for rw-register (blind writes) and list-append, asserted at each level from read committed to strict
 * serializable: invalid exactly at the levels that imply the weakest one it violates, with the anomaly's name in
 * the report, a sentence and a DOT graph. Each is also checked against the brute-force references.
 */
class GeneralAnomalyTest {
    private static final IsolationLevel[] CHAIN = {READ_COMMITTED, READ_ATOMIC, CAUSAL, PREFIX,
            PARALLEL_SNAPSHOT_ISOLATION, SNAPSHOT_ISOLATION, SERIALIZABLE, STRICT_SERIALIZABLE};

    record Case(String name, History history, IsolationLevel weakest, String anomaly) {
    }

    static long[] p(long... ps) {
        return ps;
    }

    static List<Case> registers() {
        List<Case> c = new ArrayList<>();
        c.add(new Case("G1a: aborted read", new Hist().fail(1, "w 1 1").ok(2, "r 1 1").build(), READ_COMMITTED, "G1a"));
        c.add(new Case("G1b: intermediate read", new Hist().concurrent(p(1, 2), "w 1 1, w 1 2", "r 1 1").build(),
                READ_COMMITTED, "G1b"));
        c.add(new Case("G1c: circular information flow", new Hist().concurrent(p(1, 2), "w 1 1, r 2 1",
                "w 2 1, r 1 1").build(), READ_COMMITTED, "G1c"));
        c.add(new Case("internal: own write not read", new Hist().ok(1, "w 1 1, r 1 nil").build(), READ_COMMITTED,
                "internal"));
        c.add(new Case("G-single: fractured read", new Hist().concurrent(p(1, 2), "w 1 1, w 2 1",
                "r 1 nil, r 2 1").build(), READ_ATOMIC, "G-single"));
        c.add(new Case("G-single: causality violation", new Hist().concurrent(p(1, 2, 3), "w 1 1", "r 1 1, w 2 1",
                "r 2 1, r 1 nil").build(), CAUSAL, "G-single"));
        c.add(new Case("G-single-process: read your writes", new Hist().concurrent(p(2), "w 3 1")
                .ok(1, "w 1 1").ok(1, "r 1 nil").build(), READ_ATOMIC, "G-single-process"));
        c.add(new Case("long-fork: G-nonadjacent of that shape", new Hist().concurrent(p(1, 2, 3, 4), "w 1 1", "w 2 1",
                "r 1 1, r 2 nil", "r 2 1, r 1 nil").build(), PREFIX, "long-fork"));
        c.add(new Case("lost-update", new Hist().ok(1, "w 1 1").concurrent(p(2, 3), "r 1 1, w 1 2", "r 1 1, w 1 3")
                .build(), PARALLEL_SNAPSHOT_ISOLATION, "lost-update"));
        c.add(new Case("G2-item: write skew", new Hist().concurrent(p(1, 2), "r 1 nil, w 2 1", "r 2 nil, w 1 1")
                .build(), SERIALIZABLE, "G2-item"));
        c.add(new Case("G-single-realtime: stale read", new Hist().ok(1, "w 1 1").ok(2, "r 1 nil, w 2 1").build(),
                STRICT_SERIALIZABLE, "-realtime"));
        c.add(new Case("valid: blind writes read in order", new Hist().ok(1, "w 1 1, w 2 1").ok(2, "r 1 1, w 1 2")
                .ok(3, "r 1 2, r 2 1").build(), null, null));
        return c;
    }

    static List<Case> lists() {
        List<Case> c = new ArrayList<>();
        c.add(new Case("G0: write cycle", new Hist().concurrent(p(1, 2), "append 1 1, append 2 1",
                "append 1 2, append 2 2").ok(3, "r 1 [1 2], r 2 [2 1]").build(), READ_COMMITTED, "G0"));
        c.add(new Case("G1a: aborted read", new Hist().fail(1, "append 1 1").ok(2, "r 1 [1]").build(), READ_COMMITTED,
                "G1a"));
        c.add(new Case("G1b: intermediate read", new Hist().concurrent(p(1, 2), "append 1 1, append 1 2",
                "r 1 [1]").build(), READ_COMMITTED, "G1b"));
        c.add(new Case("G1c: circular information flow", new Hist().concurrent(p(1, 2), "append 1 1, r 2 [1]",
                "append 2 1, r 1 [1]").build(), READ_COMMITTED, "G1c"));
        c.add(new Case("internal: own append not read", new Hist().ok(1, "append 1 1, r 1 []").build(),
                READ_COMMITTED, "internal"));
        c.add(new Case("incompatible-order", new Hist().concurrent(p(1, 2), "append 1 1", "append 1 2")
                .ok(3, "r 1 [1 2]").ok(4, "r 1 [2 1]").build(), READ_COMMITTED, "incompatible-order"));
        c.add(new Case("dirty-update", new Hist().fail(1, "append 1 1").ok(2, "append 1 2").ok(3, "r 1 [1 2]")
                .build(), READ_COMMITTED, "dirty-update"));
        c.add(new Case("duplicate-elements", new Hist().ok(1, "append 1 1").ok(2, "r 1 [1 1]").build(),
                READ_COMMITTED, "duplicate-elements"));
        c.add(new Case("G-single: fractured read", new Hist().concurrent(p(1, 2), "append 1 1, append 2 1",
                "r 1 [], r 2 [1]").build(), READ_ATOMIC, "G-single"));
        c.add(new Case("G-single-process: read your writes", new Hist().concurrent(p(2), "append 3 1")
                .ok(1, "append 1 1").ok(1, "r 1 []").build(), READ_ATOMIC, "G-single-process"));
        c.add(new Case("long-fork: G-nonadjacent of that shape", new Hist().concurrent(p(1, 2, 3, 4), "append 1 1", "append 2 1",
                "r 1 [1], r 2 []", "r 2 [1], r 1 []").build(), PREFIX, "long-fork"));
        c.add(new Case("lost-update", new Hist().ok(1, "append 1 1").concurrent(p(2, 3), "r 1 [1], append 1 2",
                "r 1 [1], append 1 3").ok(4, "r 1 [1 2 3]").build(), PARALLEL_SNAPSHOT_ISOLATION, "lost-update"));
        c.add(new Case("G2-item: write skew", new Hist().concurrent(p(1, 2), "r 1 [], append 2 1",
                "r 2 [], append 1 1").ok(3, "r 1 [1], r 2 [1]").build(), SERIALIZABLE, "G2-item"));
        c.add(new Case("G-single-realtime: stale read", new Hist().ok(1, "append 1 1").ok(2, "r 1 []").build(),
                STRICT_SERIALIZABLE, "-realtime"));
        c.add(new Case("valid: appends read in order", new Hist().ok(1, "append 1 1").ok(2, "r 1 [1], append 1 2")
                .ok(3, "r 1 [1 2]").build(), null, null));
        return c;
    }

    @TestFactory
    Stream<DynamicTest> registerAnomalies() {
        return registers().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            check(c, Checker.RW_REGISTER);
            Map<IsolationLevel, Boolean> ref = BruteForceChecker.check(c.history());
            for (IsolationLevel l : CHAIN) {
                assertEquals(expectedValid(c, l), ref.get(l), c.name() + ": the reference disagrees at " + l);
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> listAnomalies() {
        return lists().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            check(c, Checker.LIST_APPEND);
            Map<IsolationLevel, Boolean> ref = ListBruteForceChecker.check(c.history());
            for (IsolationLevel l : ListBruteForceChecker.LEVELS) {
                assertEquals(expectedValid(c, l), ref.get(l), c.name() + ": the reference disagrees at " + l);
            }
        }));
    }

    /**
     * When the SAT search decides (pruning off here, so that it must), the counterexample is the minimal set of
     * cycles that every choice of the open order closes: the main cycle, the order it assumes, and the other case.
     */
    @org.junit.jupiter.api.Test
    void satCounterexampleShowsEveryCase() {
        History h = new Hist().ok(2, "w 2 2, r 1 nil").ok(2, "w 2 1").ok(2, "r 2 2").build();
        Result r = Checker.checkGeneral(h, List.of(SERIALIZABLE), CheckOptions.DEFAULTS.withPolygraphPruning(false));
        assertEquals(Verdict.INVALID, r.level(SERIALIZABLE).verdict(), r.level(SERIALIZABLE).reason());
        assertTrue(r.level(SERIALIZABLE).reason().contains("every version order closes one of"),
                r.level(SERIALIZABLE).reason());
        // (The read-atomic check, run to name the weakest violated level, lists the session guarantee too.)
        Anomaly a = r.anomalies().stream().filter(x -> x.level() == SERIALIZABLE).findFirst().orElseThrow();
        assertTrue(a.premises().size() >= 2, a.premises().toString());
        assertTrue(a.premises().get(0).claim().contains("assumes T0's write of key 2 (2) precedes T1's (1)"),
                a.premises().get(0).claim());
        assertTrue(a.premises().get(1).claim().startsWith("if T1's write of key 2 (1) precedes T0's (2)"),
                a.premises().get(1).claim());
        assertFalse(a.premises().get(1).steps().isEmpty());
        String text = TextRenderer.render(a);
        assertTrue(text.contains("If T1's write of key 2 (1) precedes T0's (2):"), text);
        assertTrue(DotRenderer.render(a).contains("dotted"), DotRenderer.render(a));
        // With pruning the same history is refuted before any SAT search, by the same cycle.
        Result pruned = Checker.checkGeneral(h, List.of(SERIALIZABLE), CheckOptions.DEFAULTS);
        assertEquals(Verdict.INVALID, pruned.level(SERIALIZABLE).verdict());
    }

    private static boolean expectedValid(Case c, IsolationLevel l) {
        return c.weakest() == null || !l.implies(c.weakest());
    }

    private static void check(Case c, String shape) {
        for (IsolationLevel l : CHAIN) {
            Result r = Checker.checkGeneral(c.history(), List.of(l), CheckOptions.DEFAULTS);
            assertEquals(shape, r.shape());
            Verdict expected = expectedValid(c, l) ? Verdict.VALID : Verdict.INVALID;
            assertEquals(expected, r.level(l).verdict(), c.name() + " at " + l + ": " + r.level(l).reason()
                    + " " + r.anomalyCounts());
        }
        Result all = Checker.checkGeneral(c.history(), List.of(STRICT_SERIALIZABLE), CheckOptions.DEFAULTS);
        if (c.weakest() == null) {
            assertTrue(all.anomalies().isEmpty(), all.anomalies().toString());
            return;
        }
        assertEquals(List.of(c.weakest()), all.weakestViolated(), c.name());
        Anomaly a = all.anomalies().stream().filter(x -> x.name().contains(c.anomaly())).findFirst()
                .orElseThrow(() -> new AssertionError(c.name() + ": no " + c.anomaly() + " in " + all.anomalyCounts()));
        String text = TextRenderer.render(a);
        assertTrue(text.contains(a.name()) && text.split("\n").length >= 3, text);
        assertFalse(DotRenderer.render(a).isBlank());
        System.out.println(c.name() + "\n" + text);
    }
}
