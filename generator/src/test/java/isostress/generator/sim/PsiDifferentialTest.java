package isostress.generator.sim;

import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.reference.BruteForceChecker;
import isostress.checker.reference.PsiBruteForce;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parallel snapshot isolation against its brute-force reference ({@link PsiBruteForce}, abstract
 * executions of Cerone, Bernardi &amp; Gotsman, CONCUR 2015) on random small histories: mini-transactions (the mini
 * checker and the general one), rw-register with blind writes and list-append (simulated at every level, then
 * mutated). Zero disagreements allowed; an invalid verdict must come with a counterexample; the checker's "unknown"
 * (a version order the reads leave open and no witness order) is counted and bounded. Also checks the lattice on
 * the references: SI ⇒ PSI ⇒ CC. Prints the counts. Sizes: {@code -Disostress.psidiff.count=N} per kind.
 */
class PsiDifferentialTest {
    private static final IsolationLevel PSI = IsolationLevel.PARALLEL_SNAPSHOT_ISOLATION;
    private static final GeneralSimulation.Level[] LIST_SIM_LEVELS = {GeneralSimulation.Level.PREFIX,
            GeneralSimulation.Level.SNAPSHOT_ISOLATION, GeneralSimulation.Level.SERIALIZABLE};

    @Test
    void miniHistories() {
        int count = Integer.getInteger("isostress.psidiff.count", 20_000);
        Tally mini = run(count, seed -> RandomMiniHistories.sample(seed).history(), true);
        mini.print("mini-transaction, mini checker");
        mini.assertAgreement(count, 0);
        Tally general = run(count, seed -> RandomMiniHistories.sample(seed).history(), false);
        general.print("mini-transaction, general checker");
        general.assertAgreement(count, 0);
    }

    @Test
    void registerHistories() {
        int count = Integer.getInteger("isostress.psidiff.count", 20_000);
        Tally t = run(count, seed -> simulated(seed, GeneralSimulation.Level.values(),
                GeneralSimulation.Workload.RW_REGISTER), false);
        t.print("rw-register");
        t.assertAgreement(count, count / 100);
    }

    @Test
    void listHistories() {
        int count = Integer.getInteger("isostress.psidiff.count", 20_000) / 2;
        Tally t = run(count, seed -> simulated(seed, LIST_SIM_LEVELS, GeneralSimulation.Workload.LIST_APPEND), false);
        t.print("list-append");
        t.assertAgreement(count, count / 100);
    }

    private static History simulated(long seed, GeneralSimulation.Level[] sims, GeneralSimulation.Workload workload) {
        SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 16 + workload.ordinal());
        GeneralSimulation.Level sim = sims[(int) (seed % sims.length)];
        History h = GeneralSimulation.history(SmallConfigs.random(sim, workload, rnd));
        if (rnd.nextBoolean()) {
            h = HistoryMutations.any(h, rnd);
            if (rnd.nextBoolean()) h = HistoryMutations.any(h, rnd);
        }
        return h;
    }

    private static Tally run(int count, LongFunction<History> histories, boolean miniChecker) {
        Tally tally = new Tally();
        LongStream.range(0, count).parallel().forEach(seed -> {
            History h = histories.apply(seed);
            boolean expected = PsiBruteForce.valid(h);
            Result r = miniChecker ? Checker.check(h, List.of(PSI), CheckOptions.DEFAULTS)
                    : Checker.checkGeneral(h, List.of(PSI), CheckOptions.DEFAULTS);
            Verdict v = r.level(PSI).verdict();
            if (h.size() > 0 && !ListOrRegister.isList(h)) {
                Map<IsolationLevel, Boolean> ref = BruteForceChecker.check(h);
                if (ref.get(IsolationLevel.SNAPSHOT_ISOLATION) && !expected || expected && !ref.get(IsolationLevel.CAUSAL)) {
                    tally.disagreements.add("seed " + seed + ": the references break SI => PSI => CC: " + ref + "\n"
                            + MiniCheckerDifferentialTest.describe(h));
                }
            }
            if (v == Verdict.UNKNOWN) {
                tally.counts.incrementAndGet(2);
            } else if ((v == Verdict.VALID) != expected) {
                tally.disagreements.add("seed " + seed + ": reference " + (expected ? "valid" : "invalid") + ", checker "
                        + v + " (" + r.level(PSI).reason() + ")\n" + MiniCheckerDifferentialTest.describe(h));
            } else if (v == Verdict.INVALID && r.anomalies().isEmpty()) {
                tally.disagreements.add("seed " + seed + ": invalid without a counterexample ("
                        + r.level(PSI).reason() + ")\n" + MiniCheckerDifferentialTest.describe(h));
            } else {
                tally.counts.incrementAndGet(expected ? 0 : 1);
            }
        });
        return tally;
    }

    /** Lists are judged by the PSI reference alone (the register reference does not read lists). */
    private static final class ListOrRegister {
        static boolean isList(History h) {
            for (int o = 0; o < h.opCount(); o++) {
                if (h.opKind(o) == History.APPEND || h.opKind(o) == History.LIST_READ) return true;
            }
            return false;
        }
    }

    private static final class Tally {
        /** valid, invalid, unknown. */
        final AtomicLongArray counts = new AtomicLongArray(3);
        final List<String> disagreements = Collections.synchronizedList(new ArrayList<>());

        void print(String what) {
            System.out.printf("PSI, %s: %,d random histories: agree %,d (valid %,d, invalid %,d), checker unknown %,d, "
                            + "disagreements %d%n", what, counts.get(0) + counts.get(1) + counts.get(2),
                    counts.get(0) + counts.get(1), counts.get(0), counts.get(1), counts.get(2), disagreements.size());
        }

        void assertAgreement(int count, int maxUnknown) {
            assertTrue(disagreements.isEmpty(), disagreements.size() + " disagreements; first ones:\n"
                    + disagreements.stream().limit(3).collect(Collectors.joining("\n")));
            assertTrue(counts.get(0) > count / 50, "too few valid histories to mean much");
            assertTrue(counts.get(1) > count / 50, "too few invalid histories to mean much");
            assertTrue(counts.get(2) <= maxUnknown, counts.get(2) + " unknowns, more than " + maxUnknown);
        }
    }
}
