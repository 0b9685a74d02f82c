package isostress.checker.lin;

import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Verdict;
import isostress.checker.reference.RegisterBruteForce;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link WglSearch} (through {@link Checker}) against {@link RegisterBruteForce} on small random register histories
 * (every checker has a differential test against an independent reference): simulated atomic registers, which must be valid for both, and mutations of them, on which the two
 * must agree. Each case has its own seed, printed on failure.
 */
class WglDifferentialTest {
    static final long SEED = Long.getLong("isostress.fuzz.seed", 14_6L);
    static final int CASES = Integer.getInteger("isostress.fuzz.tries", 4000);

    @Test
    void agreesWithBruteForce() throws Exception {
        int valid = 0, mutated = 0, mutatedInvalid = 0;
        for (int c = 0; c < CASES; c++) {
            long seed = SEED * 1_000_003L + c;
            Random r = new Random(seed);
            boolean independent = c % 3 == 0;
            List<RandomRegisterHistories.Event> events = RandomRegisterHistories.simulate(r, 2 + r.nextInt(8),
                    independent);
            if (events.isEmpty()) continue;
            String simulated = RandomRegisterHistories.edn(events);
            History h = read(simulated);
            assertTrue(RegisterBruteForce.linearizable(h), "seed " + seed + ": reference rejects a simulated "
                    + "atomic register:\n" + simulated);
            assertEquals(Verdict.VALID, verdict(h), "seed " + seed + ": simulated atomic register:\n" + simulated);
            valid++;
            int edits = 1 + r.nextInt(2);
            boolean changed = false;
            for (int e = 0; e < edits; e++) changed |= RandomRegisterHistories.mutate(r, events);
            if (!changed) continue;
            String text = RandomRegisterHistories.edn(events);
            History m;
            try {
                m = read(text);
            } catch (isostress.checker.history.InputException ex) {
                continue; // a swap that made a completion precede its invocation
            }
            boolean expected = RegisterBruteForce.linearizable(m);
            assertEquals(expected ? Verdict.VALID : Verdict.INVALID, verdict(m), "seed " + seed + ":\n" + text);
            mutated++;
            if (!expected) mutatedInvalid++;
        }
        System.out.printf("WglDifferentialTest: %d simulated histories valid for both; %d mutated, on which both "
                + "agree (%d not linearizable)%n", valid, mutated, mutatedInvalid);
        // The comparison must have had both kinds of answer to compare, or it proves nothing.
        assertTrue(valid > CASES / 2, "too few simulated histories: " + valid);
        assertTrue(mutatedInvalid > CASES / 10, "too few non-linearizable mutants: " + mutatedInvalid);
        assertTrue(mutated - mutatedInvalid > CASES / 10, "too few linearizable mutants: " + (mutated - mutatedInvalid));
    }

    /**
     * Histories past one 64-bit word of ops, where the compact cache keys (WglSearch.key) matter: too long for the
     * reference, but simulated atomic registers are linearizable by construction.
     */
    @Test
    void longSimulatedHistoriesAreLinearizable() throws Exception {
        for (int c = 0; c < 100; c++) {
            long seed = SEED * 7919L + c;
            Random r = new Random(seed);
            String text = RandomRegisterHistories.edn(RandomRegisterHistories.simulate(r, 200 + r.nextInt(400),
                    c % 2 == 0));
            assertEquals(Verdict.VALID, verdict(read(text)), "seed " + seed + ":\n" + text);
        }
    }

    private static History read(String edn) throws Exception {
        return HistoryFormat.EDN.reader().read(new ByteArrayInputStream(edn.getBytes(StandardCharsets.UTF_8)), "h.edn");
    }

    private static Verdict verdict(History h) {
        return Checker.check(h, List.of(IsolationLevel.LINEARIZABLE), CheckOptions.DEFAULTS).verdict();
    }
}
