package isostress.checker;

import isostress.checker.model.CheckOptions;
import isostress.checker.history.History;
import isostress.checker.history.InitialState;
import isostress.checker.model.Anomaly;
import isostress.checker.model.CycleVariant;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;

import java.util.List;

import static isostress.checker.model.IsolationLevel.LINEARIZABLE;
import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static isostress.checker.model.IsolationLevel.STRICT_SERIALIZABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lightweight-transaction (compare-and-set) histories: MTC Fig. 4 and §IV-E. Each CAS is one transaction; a
 * successful one read {@code expected} and wrote {@code new}; a failed one took no effect.
 */
class CasLinearizabilityTest {

    static Result check(History h, IsolationLevel... levels) {
        return Checker.check(h, List.of(levels), CheckOptions.DEFAULTS);
    }

    @Test
    void fig4aOverlappingChainIsLinearizable() {
        // O1 cas(0->1) [0,5], O2 cas(1->2) [1,4], O3 cas(2->3) [2,6]: linearizable as O1, O2, O3.
        History h = new Hist().initial(InitialState.allKeys(0L))
                .begin(1, "cas 1 0 1").begin(2, "cas 1 1 2").begin(3, "cas 1 2 3")
                .end(2).end(1).end(3).build();
        Result r = check(h, LINEARIZABLE, STRICT_SERIALIZABLE);
        assertEquals(Verdict.VALID, r.verdict(), r.levels().toString());
        assertEquals("lightweight-transaction (CAS)", r.shape());
    }

    @Test
    void fig4bCasStartingAfterItsSuccessorFinishedIsNotLinearizable() {
        // O2 cas(1->2) completes before O1 cas(0->1) is invoked, yet O2 read O1's write.
        History h = new Hist().initial(InitialState.allKeys(0L)).ok(2, "cas 1 1 2").ok(1, "cas 1 0 1").build();
        Result r = check(h, LINEARIZABLE, SERIALIZABLE);
        assertEquals(Verdict.INVALID, r.level(LINEARIZABLE).verdict());
        assertEquals(Verdict.VALID, r.level(SERIALIZABLE).verdict(), "serializable as O1, O2: no real time");
        Anomaly a = r.anomalies().stream().filter(x -> x.level() == LINEARIZABLE).findFirst().orElseThrow();
        assertEquals(CycleVariant.REALTIME, a.variant(), a.displayName());
        assertTrue(a.steps().stream().anyMatch(s -> s.kind() == isostress.checker.model.EdgeKind.RT));
    }

    @Test
    void insertIfAbsentThenCasChain() {
        History h = new Hist().ok(1, "cas 7 nil 10").begin(2, "cas 7 10 11").begin(3, "r 7 10").end(3).end(2)
                .ok(1, "r 7 11").build();
        assertEquals(Verdict.VALID, check(h, LINEARIZABLE, STRICT_SERIALIZABLE).verdict());
    }

    @Test
    void staleReadAfterAWriteCompletedIsNotLinearizable() {
        History h = new Hist().ok(1, "cas 7 nil 10").ok(2, "r 7 nil").build();
        assertEquals(Verdict.INVALID, check(h, LINEARIZABLE).level(LINEARIZABLE).verdict());
    }

    @Test
    void twoCasFromTheSameValueIsALostUpdate() {
        History h = new Hist().initial(InitialState.allKeys(0L))
                .begin(1, "cas 1 0 1").begin(2, "cas 1 0 2").end(1).end(2).build();
        Result r = check(h, LINEARIZABLE, IsolationLevel.SNAPSHOT_ISOLATION);
        assertEquals(Verdict.INVALID, r.level(LINEARIZABLE).verdict());
        assertTrue(r.anomalies().stream().anyMatch(a -> a.name().equals("lost-update")), r.anomalies().toString());
    }

    @Test
    void failedCasTakesNoEffectAndUnknownOneMayHave() {
        // The failed cas 0->5 never happened; the info cas 1->2 happened since someone read 2.
        History h = new Hist().initial(InitialState.allKeys(0L))
                .ok(1, "cas 1 0 1").fail(2, "cas 1 0 5").info(3, "cas 1 1 2").ok(4, "r 1 2").build();
        assertEquals(Verdict.VALID, check(h, LINEARIZABLE, STRICT_SERIALIZABLE).verdict());
        History aborted = new Hist().initial(InitialState.allKeys(0L))
                .ok(1, "cas 1 0 1").fail(2, "cas 1 1 5").ok(4, "r 1 5").build();
        Result r = check(aborted, LINEARIZABLE);
        assertEquals(Verdict.INVALID, r.level(LINEARIZABLE).verdict());
        assertTrue(r.anomalies().stream().anyMatch(a -> a.name().equals("G1a")));
    }
}
