package isostress.generator.sim;

import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.explain.TextRenderer;
import isostress.checker.history.History;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.reference.BruteForceChecker;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fast mini-transaction checkers against the brute-force reference ({@link BruteForceChecker}, Biswas &amp;
 * Enea's axioms by enumeration) on random small histories, valid and mutated, at every level. Each level is checked
 * on its own (no lattice shortcuts), and once more all together (with them). Zero disagreements allowed; a fast
 * "unknown" is counted, not compared. Prints the counts. Size: {@code -Disostress.diff.count=N} (default 100,000).
 */
class MiniCheckerDifferentialTest {
    private static final IsolationLevel[] LEVELS = IsolationLevel.values();

    @Test
    void fastCheckersAgreeWithTheReferenceOnRandomSmallHistories() {
        int count = Integer.getInteger("isostress.diff.count", 100_000);
        int n = LEVELS.length;
        AtomicLongArray validAt = new AtomicLongArray(n), invalidAt = new AtomicLongArray(n);
        AtomicLongArray unknownAt = new AtomicLongArray(n);
        AtomicLongArray kinds = new AtomicLongArray(2); // valid by construction, mutated
        List<String> disagreements = Collections.synchronizedList(new ArrayList<>());
        LongStream.range(0, count).parallel().forEach(seed -> {
            RandomMiniHistories.Sample s = RandomMiniHistories.sample(seed);
            History h = s.history();
            kinds.incrementAndGet(s.validByConstruction() ? 0 : 1);
            Map<IsolationLevel, Boolean> ref = BruteForceChecker.check(h);
            Result all = Checker.check(h, List.of(LEVELS), CheckOptions.DEFAULTS);
            for (int i = 0; i < n; i++) {
                IsolationLevel l = LEVELS[i];
                Result alone = Checker.check(h, List.of(l), CheckOptions.DEFAULTS);
                Verdict fast = alone.level(l).verdict();
                Verdict together = all.level(l).verdict();
                boolean expected = ref.get(l);
                if (fast == Verdict.UNKNOWN) {
                    unknownAt.incrementAndGet(i);
                } else if ((fast == Verdict.VALID) != expected || (together != Verdict.UNKNOWN && together != fast)) {
                    disagreements.add("seed " + seed + " (" + s.origin() + ") at " + l + ": reference "
                            + (expected ? "valid" : "invalid") + ", alone " + fast + " (" + alone.level(l).reason()
                            + "), together " + together + "\n" + describe(h));
                } else if (expected) {
                    validAt.incrementAndGet(i);
                } else {
                    invalidAt.incrementAndGet(i);
                }
            }
            if (s.validByConstruction() && s.origin().startsWith("ser-sim")) {
                for (IsolationLevel l : LEVELS) {
                    if (!ref.get(l)) disagreements.add("seed " + seed + ": simulated SER history invalid at " + l);
                }
            }
        });
        StringBuilder report = new StringBuilder();
        report.append(String.format("%,d random histories (%,d valid by construction, %,d mutated)%n", count,
                kinds.get(0), kinds.get(1)));
        for (int i = 0; i < n; i++) {
            report.append(String.format("  %-20s agree %,7d (valid %,7d, invalid %,7d), fast unknown %,d%n",
                    LEVELS[i], validAt.get(i) + invalidAt.get(i), validAt.get(i), invalidAt.get(i), unknownAt.get(i)));
        }
        report.append(String.format("  disagreements: %d%n", disagreements.size()));
        System.out.print(report);
        assertTrue(disagreements.isEmpty(), disagreements.size() + " disagreements; first ones:\n"
                + disagreements.stream().limit(3).collect(Collectors.joining("\n")));
        for (int i = 0; i < n; i++) {
            assertTrue(invalidAt.get(i) > count / 20, "too few invalid histories at " + LEVELS[i] + " to mean much");
            assertTrue(unknownAt.get(i) < count / 100, "too many unknowns at " + LEVELS[i]);
        }
        assertEquals(count, kinds.get(0) + kinds.get(1));
    }

    static String describe(History h) {
        StringBuilder sb = new StringBuilder();
        h.forEach(t -> sb.append("  ").append(TextRenderer.describe(t)).append('\n'));
        return sb.toString();
    }
}
