package isostress.harness.run;

import isostress.checker.Hist;
import isostress.checker.history.History;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.generator.KeyDistribution;
import isostress.generator.sim.GeneralSimulation;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The check while running of list-append and rw-register histories, driven as a run drives it
 * ({@link StreamingCheck} on its own thread) by {@link StreamingReplay}: a valid history is examined to its end with
 * no violation; a violation early in a history is found and named by its transaction as the whole history numbers
 * it.
 */
class StreamingReplayTest {
    private static final List<IsolationLevel> SER = List.of(IsolationLevel.SERIALIZABLE);

    @Test
    void validSimulatedHistoriesAreExaminedToTheirEnd() throws Exception {
        for (GeneralSimulation.Workload w : GeneralSimulation.Workload.values()) {
            History h = GeneralSimulation.history(GeneralSimulation.Config.of(GeneralSimulation.Level.SERIALIZABLE,
                    w, 5_000, 10, 4, new KeyDistribution.Uniform(200), 3));
            // Handed over at 50,000/s: completions arrive over 0.1 s, as in a run, so several checks see them.
            StreamingReplay.Report r = StreamingReplay.replay(h, SER, CheckOptions.DEFAULTS, 50_000);
            assertNull(r.detection(), w + ": " + r.detection());
            assertNull(r.gaveUp(), r.gaveUp());
            assertEquals(5_000, r.examined(), w.toString());
            assertTrue(r.checks() >= 1 && r.maxLagMs() >= 0 && r.doneMs() > 0, r.toString());
            if (w == GeneralSimulation.Workload.LIST_APPEND) {
                assertTrue(r.wholeChecks() <= r.checks(), r.toString());
            } else {
                assertEquals(r.checks(), r.wholeChecks(), "rw-register prefixes are checked whole: " + r);
            }
        }
    }

    @Test
    void anEarlyListViolationIsFoundAndNamesItsTransaction() throws Exception {
        // Lost update on key 1 by T1 and T2 (both read [] and append), then a long valid tail on key 2.
        Hist b = new Hist().begin(1, "r 1 [], append 1 1").begin(2, "r 1 [], append 1 2").end(1).end(2);
        StringBuilder seen = new StringBuilder();
        for (int i = 0; i < 1_000; i++) {
            seen.append(i == 0 ? "" : " ").append(100 + i);
            b.ok(3 + i % 5, "append 2 " + (100 + i) + ", r 2 [" + seen + "]");
        }
        History h = b.build();
        StreamingReplay.Report r = StreamingReplay.replay(h, SER, CheckOptions.DEFAULTS, 0);
        StreamingReport.Detection d = r.detection();
        assertNotNull(d, r.toString());
        assertTrue(IsolationLevel.SERIALIZABLE.implies(d.level()), d.level().toString());
        assertEquals("lost-update", d.anomaly());
        // Both transactions of the counterexample, as the whole history numbers them (this history has no times, so
        // neither completed "last").
        assertTrue(d.txn().equals("T0") || d.txn().equals("T1"), d.txn());
        assertNotNull(d.counterexample(), "the counterexample, renumbered for the whole history");
    }
}
