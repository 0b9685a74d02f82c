package isostress.checker;

import isostress.checker.history.History;
import isostress.checker.model.Anomaly;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Premise;
import isostress.checker.model.Result;
import isostress.checker.model.Step;
import isostress.checker.model.Verdict;
import isostress.checker.reference.BruteForceChecker;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A violation whose cycle lies in the known dependencies and the version orders reachability forces is found
 * without listing the writers' open pairs, and its premises justify each forced order by the edges it was derived
 * from, never by an edge that rests on the same order.
 */
class ForcedOrderCycleTest {
    /**
     * A write skew on written versions (not the initial state, whose readers precede every writer anyway): T0 writes
     * x and y, T1 reads x and overwrites y, T2 reads y and overwrites x. T0 reaches both by wr, so T0's writes come
     * first in every version order, and the two rw edges close the cycle.
     */
    @Test
    void writeSkewIsRefutedByTheForcedOrdersAlone() {
        History h = new Hist().ok(1, "w 1 1, w 2 1").concurrent(GeneralAnomalyTest.p(2, 3), "r 1 1, w 2 2",
                "r 2 1, w 1 2").build();
        Result r = Checker.checkGeneral(h, List.of(SERIALIZABLE), CheckOptions.DEFAULTS);
        assertEquals(Verdict.INVALID, r.level(SERIALIZABLE).verdict(), r.level(SERIALIZABLE).reason());
        assertTrue(r.level(SERIALIZABLE).reason().contains("no open order listed"), r.level(SERIALIZABLE).reason());
        Map<?, ?> poly = (Map<?, ?>) r.stats().get("ser_polygraph");
        assertEquals(0, ((Number) poly.get("unordered_pairs")).intValue(), poly.toString());
        assertEquals(0L, ((Number) poly.get("enumerate_ms")).longValue(), poly.toString());
        Anomaly a = serAnomaly(r);
        assertEquals("G2-item", a.name(), a.toString());
        assertEquals(List.of(SERIALIZABLE), r.weakestViolated());
        assertAgreesWithReference(h, r);
    }

    /**
     * The premise "A's write of x precedes B's" rests on A reaching B through known edges (A -wr-> C -wr-> D -so->
     * B). The rw edges from the readers of A's version to B are derived from that same order, so a path through one
     * of them (A -wr-> R1 -rw-> B, shorter) would be circular, and must not be the justification.
     */
    @Test
    void aForcedOrderIsJustifiedByTheEdgesItWasDerivedFrom() {
        History h = new Hist()
                .ok(1, "w 1 1, w 2 1") // A
                .ok(2, "r 2 1, w 3 1") // C
                .ok(4, "r 1 1") // R1
                .ok(3, "r 3 1") // D
                .ok(3, "w 1 2, w 4 1") // B
                .ok(5, "r 1 1, r 4 1") // R2: sees B's write of key 4, not its write of key 1
                .build();
        Result r = Checker.checkGeneral(h, List.of(SERIALIZABLE), CheckOptions.DEFAULTS.withWeakerLevels(false));
        assertEquals(Verdict.INVALID, r.level(SERIALIZABLE).verdict(), r.level(SERIALIZABLE).reason());
        Anomaly a = serAnomaly(r);
        Premise order = a.premises().stream().filter(p -> p.claim().contains("write of key 1 (1) precedes"))
                .findFirst().orElseThrow(() -> new AssertionError(a.premises().toString()));
        assertTrue(order.claim().contains("T0's write of key 1 (1) precedes T4's (2), since T0 precedes T4"),
                order.claim());
        assertFalse(order.steps().isEmpty(), order.toString());
        for (Step s : order.steps()) {
            assertFalse(s.kind() == EdgeKind.RW && s.key() != null && s.key() == 1L,
                    "justified by an rw edge of key 1, which rests on the order itself: " + order);
        }
        assertEquals(List.of(EdgeKind.WR, EdgeKind.WR, EdgeKind.SO), order.steps().stream().map(Step::kind).toList(),
                order.toString());
        assertAgreesWithReference(h, r);
    }

    private static Anomaly serAnomaly(Result r) {
        return r.anomalies().stream().filter(x -> x.level() == SERIALIZABLE).findFirst()
                .orElseThrow(() -> new AssertionError("no serializable anomaly in " + r.anomalyCounts()));
    }

    private static void assertAgreesWithReference(History h, Result r) {
        Map<IsolationLevel, Boolean> ref = BruteForceChecker.check(h);
        assertEquals(ref.get(SERIALIZABLE), r.level(SERIALIZABLE).verdict() == Verdict.VALID, "the reference");
    }
}
