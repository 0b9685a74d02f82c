package isostress.checker.history;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every history reader answers any bytes with a history or with one sentence naming the file and the line,
 * in bounded time. At least 102,000 mutated histories per build: {@value #TRIES} generated cases of three or four
 * mutations, each prefix of which is an input (see {@link HistoryFuzz} for the seeds and mutations, and
 * {@link HistoryFuzzBench} for longer runs). A failure names the case's index and seed, and the smallest failing case
 * found by dropping mutations; {@code -Disostress.fuzz.seed=N -Disostress.fuzz.case=I} replays it alone (see
 * {@link SeededFuzz}).
 */
class HistoryFuzzTest {
    static final int TRIES = 34_000;
    /** The base seed of every build, so that a build's result does not depend on the day. */
    static final long SEED = 13;

    @Test
    void everyInputIsReadOrRefusedWithFileAndLine(@TempDir Path tmp) {
        HistoryFuzz.Tally tally = new HistoryFuzz.Tally();
        SeededFuzz<HistoryFuzz.Case> fuzz = new SeededFuzz<>(SEED, TRIES, HistoryFuzz::randomCase,
                HistoryFuzz.Case::smaller);
        long cases;
        try {
            cases = fuzz.run(c -> HistoryFuzz.check(c, tally, tmp));
        } finally {
            System.out.println("HistoryFuzzTest: " + tally);
        }
        assertTrue(tally.inputs >= cases * HistoryFuzz.MIN_MUTATIONS,
                () -> "only " + tally.inputs + " inputs were thrown at the readers by " + cases + " cases");
    }
}
