package isostress.checker.history;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * {@code mvn -pl checker test -Dsurefire.excludedGroups= -Dgroups=bench -Dtest=HistoryFuzzBench
 * -Disostress.fuzz.tries=2000000}
 *
 * <p>A long run of {@link HistoryFuzzTest}'s property: {@code isostress.fuzz.tries} cases (default 100,000) drawn by
 * {@link HistoryFuzz#randomCase} from base seed {@code isostress.fuzz.seed} (default {@value #SEED}, not the test's,
 * so the bench covers other cases), each three or four inputs; prints inputs per second and what became of them. It
 * stops at the first failing case and prints its index and seed; {@code -Disostress.fuzz.case=I} with the same seed
 * replays it, here or in HistoryFuzzTest. Tagged "bench", which surefire leaves out by default.
 */
@Tag("bench")
class HistoryFuzzBench {
    static final long SEED = 1_300_013;

    @Test
    void readersSurviveLongFuzzing(@TempDir Path tmp) {
        HistoryFuzz.Tally tally = new HistoryFuzz.Tally();
        long t0 = System.nanoTime();
        long[] done = {0};
        new SeededFuzz<>(SEED, 100_000, HistoryFuzz::randomCase, HistoryFuzz.Case::smaller).run(c -> {
            HistoryFuzz.check(c, tally, tmp);
            if (++done[0] % 100_000 == 0) System.out.println("HistoryFuzzBench: " + tally);
        });
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("HistoryFuzzBench: %s in %.1f s (%,.0f inputs/s)%n", tally, s, tally.inputs / s);
    }
}
