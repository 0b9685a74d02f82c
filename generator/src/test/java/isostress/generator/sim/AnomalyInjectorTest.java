package isostress.generator.sim;

import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.MtcAnomaly;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.reference.BruteForceChecker;
import isostress.generator.KeyDistribution;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each of the 14 injected anomalies turns a valid simulated history invalid exactly at the levels it violates:
 * checked by the fast checkers on a 2,000-transaction history, and by the reference on a small one.
 */
class AnomalyInjectorTest {
    static final List<IsolationLevel> LEVELS = List.of(IsolationLevel.READ_COMMITTED, IsolationLevel.READ_ATOMIC,
            IsolationLevel.CAUSAL, IsolationLevel.PREFIX, IsolationLevel.PARALLEL_SNAPSHOT_ISOLATION,
            IsolationLevel.SNAPSHOT_ISOLATION, IsolationLevel.SERIALIZABLE, IsolationLevel.STRICT_SERIALIZABLE);

    @TestFactory
    Stream<DynamicTest> eachInjectedAnomalyIsFoundAtItsLevel() {
        History big = MiniSimulation.history(MiniSimulation.Config.serializable(2000, 8,
                new KeyDistribution.Zipfian(50, 1.2), 11));
        History small = MiniSimulation.history(MiniSimulation.Config.serializable(3, 2,
                new KeyDistribution.Uniform(2), 5));
        return Arrays.stream(MtcAnomaly.values()).map(a -> DynamicTest.dynamicTest(a.mtcName(), () -> {
            History h = AnomalyInjector.inject(big, a);
            Result r = Checker.check(h, List.of(IsolationLevel.STRICT_SERIALIZABLE), CheckOptions.DEFAULTS);
            assertEquals(List.of(a.level()), r.weakestViolated(), a + ": " + r.levels());
            assertTrue(r.anomalies().stream().anyMatch(x -> x.alias() == a), a + " not named among "
                    + r.anomalies().stream().map(x -> x.displayName()).toList());
            Map<IsolationLevel, Boolean> ref = BruteForceChecker.check(AnomalyInjector.inject(small, a));
            for (IsolationLevel l : LEVELS) {
                boolean expected = !l.implies(a.level());
                assertEquals(expected, ref.get(l), a + " at " + l + " (reference)");
                Result one = Checker.check(h, List.of(l), CheckOptions.DEFAULTS);
                assertEquals(expected ? Verdict.VALID : Verdict.INVALID, one.level(l).verdict(), a + " at " + l);
            }
        }));
    }
}
