package isostress.checker.history;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code mvn -pl checker test -Dsurefire.excludedGroups= -Dgroups=bench -Dtest=HistoryFuzzBench
 * -Disostress.fuzz.tries=2000000}
 *
 * <p>A long run of {@link HistoryFuzzTest}'s property: {@code isostress.fuzz.tries} cases (default 100,000) drawn
 * from {@link HistoryFuzz#cases()}, each three or four inputs; prints inputs per second and what became of them. It
 * stops at the first failing input, which it prints (replay it by hand or in HistoryFuzzTest with
 * {@code @Property(seed = ...)}). Tagged "bench", which surefire leaves out by default.
 */
@Tag("bench")
class HistoryFuzzBench {
    @Test
    void readersSurviveLongFuzzing(@TempDir Path tmp) throws IOException {
        long tries = Long.getLong("isostress.fuzz.tries", 100_000);
        HistoryFuzz.Tally tally = new HistoryFuzz.Tally();
        long t0 = System.nanoTime();
        java.util.Iterator<HistoryFuzz.Case> it = HistoryFuzz.cases().sampleStream().iterator();
        for (long i = 0; i < tries; i++) {
            HistoryFuzz.check(it.next(), tally, tmp);
            if ((i + 1) % 100_000 == 0) System.out.println("HistoryFuzzBench: " + tally);
        }
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("HistoryFuzzBench: %s in %.1f s (%,.0f inputs/s)%n", tally, s, tally.inputs / s);
    }
}
