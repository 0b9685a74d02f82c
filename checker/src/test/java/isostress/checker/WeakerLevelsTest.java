package isostress.checker;

import isostress.checker.history.History;
import isostress.checker.index.LevelEvaluation;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static isostress.checker.Fig5AnomalyTest.p;
import static isostress.checker.model.IsolationLevel.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The weaker levels examined after a violation, to name the weakest violated one, cost no more than the linear checks:
 * prefix consistency, which needs a search once there are lost updates, is left out unless asked for, and
 * the result says so.
 */
class WeakerLevelsTest {
    /** A lost update on key 1 and a long fork on keys 2 and 3: violates prefix, hence SI and SER. */
    private static History lostUpdateAndLongFork() {
        return new Hist().concurrent(p(1, 2, 3, 4, 5, 6), "r 1 nil, w 1 1", "r 1 nil, w 1 2", "r 2 nil, w 2 1",
                "r 3 nil, w 3 1", "r 2 1, r 3 nil", "r 3 1, r 2 nil").build();
    }

    @Test
    void withLostUpdatesPrefixIsNotSearchedUnlessAsked() {
        History h = new Hist().concurrent(p(1, 2), "r 1 nil, w 1 1", "r 1 nil, w 1 2").build();
        Result r = Checker.check(h, List.of(SERIALIZABLE), CheckOptions.DEFAULTS);
        assertNull(r.level(PREFIX), r.levels().toString());
        for (var l : List.of(READ_COMMITTED, READ_ATOMIC, CAUSAL)) assertEquals(Verdict.VALID, r.level(l).verdict());
        // A lost update violates PSI's NOCONFLICT, decided linearly; prefix (incomparable with PSI) is left out.
        assertEquals(Verdict.INVALID, r.level(PARALLEL_SNAPSHOT_ISOLATION).verdict());
        assertEquals(List.of(PARALLEL_SNAPSHOT_ISOLATION), r.weakestViolated());
        Map<?, ?> skipped = (Map<?, ?>) r.stats().get(LevelEvaluation.NOT_EXAMINED);
        assertNotNull(skipped, r.stats().toString());
        assertTrue(skipped.get("prefix").toString().contains("--level pc"), skipped.toString());
    }

    @Test
    void prefixAskedForIsStillSearched() {
        Result r = Checker.check(lostUpdateAndLongFork(), List.of(SERIALIZABLE, PREFIX), CheckOptions.DEFAULTS);
        assertEquals(Verdict.INVALID, r.level(PREFIX).verdict(), r.level(PREFIX).reason());
        // The long fork violates prefix, the lost update PSI: two incomparable weakest levels.
        assertEquals(List.of(PREFIX, PARALLEL_SNAPSHOT_ISOLATION), r.weakestViolated());
        assertNull(r.stats().get(LevelEvaluation.NOT_EXAMINED));
    }

    @Test
    void leftOutPrefixIsNamedNotGuessed() {
        // Prefix is violated too, but only a search tells: the linear checks name PSI (the lost update) and say that
        // prefix was left out.
        Result r = Checker.check(lostUpdateAndLongFork(), List.of(SERIALIZABLE), CheckOptions.DEFAULTS);
        assertNull(r.level(PREFIX));
        assertEquals(List.of(PARALLEL_SNAPSHOT_ISOLATION), r.weakestViolated());
        assertTrue(r.stats().containsKey(LevelEvaluation.NOT_EXAMINED));
    }

    @Test
    void withoutLostUpdatesPrefixIsDecidedLinearly() {
        History h = new Hist().concurrent(p(1, 2), "r 1 nil, r 2 nil, w 1 1", "r 1 nil, r 2 nil, w 2 1").build();
        Result r = Checker.check(h, List.of(SERIALIZABLE), CheckOptions.DEFAULTS);
        assertEquals(Verdict.VALID, r.level(PREFIX).verdict());
        assertEquals(List.of(SERIALIZABLE), r.weakestViolated());
        assertFalse(r.stats().containsKey(LevelEvaluation.NOT_EXAMINED));
    }

    /**
     * Prefix, which a lost update makes costly, is not left out when causal, a weaker level, is violated: it is
     * then invalid by implication, not "not examined".
     */
    @Test
    void aLevelLeftOutForItsCostIsSettledByAWeakerViolation() {
        // T1 -wr-> T2 -wr-> T3, and T3 misses T1's write of key 1: a causal violation; keys 3: a lost update.
        History h = new Hist().concurrent(p(1, 2, 3, 4, 5), "r 1 nil, w 1 1", "r 1 1, r 2 nil, w 2 1",
                "r 2 1, r 1 nil", "r 3 nil, w 3 1", "r 3 nil, w 3 2").build();
        Result r = Checker.check(h, List.of(SERIALIZABLE), CheckOptions.DEFAULTS);
        assertEquals(Verdict.INVALID, r.level(CAUSAL).verdict(), r.level(CAUSAL).reason());
        assertEquals(Verdict.VALID, r.level(READ_ATOMIC).verdict(), r.level(READ_ATOMIC).reason());
        assertEquals(Verdict.INVALID, r.level(PREFIX).verdict(), r.levels().toString());
        assertTrue(r.level(PREFIX).reason().startsWith("implied: the history violates causal"),
                r.level(PREFIX).reason());
        assertNull(r.stats().get(LevelEvaluation.NOT_EXAMINED), r.stats().toString());
        assertEquals(List.of(CAUSAL), r.weakestViolated());
    }

    /**
     * Write skew violates serializability only. The strongest weaker level, snapshot isolation, is checked first; it
     * is valid, and every level below it is valid by implication, without a check of its own.
     */
    @Test
    void aViolationOfSerializableAloneCostsOneWeakerCheck() {
        History general = new Hist().concurrent(p(1, 2), "r 2 nil, w 1 1", "r 1 nil, w 2 1").build();
        History mini = new Hist().concurrent(p(1, 2), "r 1 nil, r 2 nil, w 1 1", "r 1 nil, r 2 nil, w 2 1").build();
        for (History h : List.of(general, mini)) {
            Result r = Checker.check(h, List.of(SERIALIZABLE), CheckOptions.DEFAULTS);
            assertEquals(List.of(SERIALIZABLE), r.weakestViolated(), r.levels().toString());
            assertEquals(Verdict.VALID, r.level(SNAPSHOT_ISOLATION).verdict());
            assertTrue(r.stats().containsKey("si_ms"), r.stats().toString());
            for (var l : List.of(READ_COMMITTED, READ_ATOMIC, CAUSAL, PREFIX, PARALLEL_SNAPSHOT_ISOLATION)) {
                assertEquals(Verdict.VALID, r.level(l).verdict(), l + " " + r.level(l).reason());
                assertTrue(r.level(l).reason().startsWith("implied: the history is snapshot-isolation"),
                        r.level(l).reason());
                assertFalse(r.stats().containsKey(l.alias() + "_ms"), l + " was checked: " + r.stats());
            }
        }
    }

    /**
     * When the strongest weaker level checked first is violated too, it is forgotten: the levels are examined from
     * the weakest up as without it, and what the result reports (the weakest violated level, causal here, and
     * snapshot isolation only as implied) is the same; only its time shows that it ran.
     */
    @Test
    void aViolatedFirstCheckLeavesNoTraceInTheVerdicts() {
        History h = new Hist().concurrent(p(1, 2, 3, 4, 5), "r 1 nil, w 1 1", "r 1 1, r 2 nil, w 2 1",
                "r 2 1, r 1 nil", "r 3 nil, w 3 1", "r 3 nil, w 3 2").build();
        Result r = Checker.check(h, List.of(SERIALIZABLE), CheckOptions.DEFAULTS);
        assertEquals(List.of(CAUSAL), r.weakestViolated());
        assertTrue(r.stats().containsKey("probe_si_ms"), r.stats().toString());
        assertTrue(r.level(SNAPSHOT_ISOLATION).reason().startsWith("implied: the history violates causal"),
                r.level(SNAPSHOT_ISOLATION).reason());
        // The lost update is reported once, though both serializable's check and the forgotten one found it.
        assertEquals(1, r.anomalyCounts().getOrDefault("lost-update", 0), r.anomalyCounts().toString());
    }
}
