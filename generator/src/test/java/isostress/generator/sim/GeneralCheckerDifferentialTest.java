package isostress.generator.sim;

import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.reference.BruteForceChecker;
import isostress.checker.reference.ListBruteForceChecker;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The general checker (polygraph + SAT, saturation, list-append inference) against brute-force references on random
 * small general histories: valid executions of a simulated store at each level ({@link GeneralSimulation}), half of
 * them then mutated ({@link HistoryMutations}). Registers are judged by {@link BruteForceChecker} (Biswas &amp;
 * Enea's axioms by enumeration) at RC, RA, CC, PC, SI, SER and SSER; lists by {@link ListBruteForceChecker}
 * (operational definitions) at PC, SI, SER and SSER. Each level is checked alone (no lattice shortcuts) and all
 * together. Zero disagreements allowed; unknowns are counted and must stay rare. Prints the counts.
 * Sizes: {@code -Disostress.gdiff.registers=N} (default 70,000: 10,000 per simulated level),
 * {@code -Disostress.gdiff.lists=N} (default 50,000).
 */
class GeneralCheckerDifferentialTest {
    private static final IsolationLevel[] REGISTER_LEVELS = {IsolationLevel.READ_COMMITTED,
            IsolationLevel.READ_ATOMIC, IsolationLevel.CAUSAL, IsolationLevel.PREFIX,
            IsolationLevel.SNAPSHOT_ISOLATION, IsolationLevel.SERIALIZABLE, IsolationLevel.STRICT_SERIALIZABLE};
    private static final GeneralSimulation.Level[] SIM_LEVELS = GeneralSimulation.Level.values();
    private static final GeneralSimulation.Level[] LIST_SIM_LEVELS = {GeneralSimulation.Level.PREFIX,
            GeneralSimulation.Level.SNAPSHOT_ISOLATION, GeneralSimulation.Level.SERIALIZABLE,
            GeneralSimulation.Level.STRICT_SERIALIZABLE};

    @Test
    void registerHistoriesAgreeWithTheReference() {
        int count = Integer.getInteger("isostress.gdiff.registers", 70_000);
        Tally tally = run(count, REGISTER_LEVELS, SIM_LEVELS, GeneralSimulation.Workload.RW_REGISTER);
        tally.print("rw-register", REGISTER_LEVELS);
        tally.assertAgreement(count, REGISTER_LEVELS);
    }

    @Test
    void listHistoriesAgreeWithTheReference() {
        int count = Integer.getInteger("isostress.gdiff.lists", 50_000);
        IsolationLevel[] levels = ListBruteForceChecker.LEVELS.toArray(new IsolationLevel[0]);
        Tally tally = run(count, levels, LIST_SIM_LEVELS, GeneralSimulation.Workload.LIST_APPEND);
        tally.print("list-append", levels);
        tally.assertAgreement(count, levels);
    }

    /**
     * The SAT search on its own: pruning off, so every pair of writers goes to Sat4j and the lazy cycle learning
     * (with minimal cores) decides, on histories small enough for the reference.
     */
    @Test
    void satSearchWithoutPruningAgreesWithTheReference() {
        int count = Integer.getInteger("isostress.gdiff.sat", 20_000);
        IsolationLevel[] levels = ListBruteForceChecker.LEVELS.toArray(new IsolationLevel[0]);
        CheckOptions noPruning = CheckOptions.DEFAULTS.withPolygraphPruning(false);
        Tally registers = run(count, levels, SIM_LEVELS, GeneralSimulation.Workload.RW_REGISTER, noPruning);
        registers.print("rw-register, SAT without pruning", levels);
        registers.assertAgreement(count, levels);
        Tally lists = run(count / 2, levels, LIST_SIM_LEVELS, GeneralSimulation.Workload.LIST_APPEND, noPruning);
        lists.print("list-append, SAT without pruning", levels);
        lists.assertAgreement(count / 2, levels);
    }

    /**
     * Medium histories (tens of transactions per session, too big for the brute-force references) against Biswas &amp;
     * Enea's exact prefix search, which shares nothing with the polygraph but the compiled reads: PC, SI and SER.
     * Histories with reads no execution allows are left out (the search ignores such reads; the checker rejects
     * them before any search). Registers only: the search knows nothing of the append order a list shows, so on
     * lists it is weaker than the list semantics (lists have their own reference, {@link ListBruteForceChecker}).
     */
    @Test
    void polygraphAgreesWithTheExactSearchOnMediumHistories() {
        int count = Integer.getInteger("isostress.gdiff.medium", 2_000);
        IsolationLevel[] levels = {IsolationLevel.PREFIX, IsolationLevel.SNAPSHOT_ISOLATION, IsolationLevel.SERIALIZABLE};
        Tally tally = new Tally(levels.length);
        java.util.concurrent.atomic.AtomicLong skipped = new java.util.concurrent.atomic.AtomicLong();
        LongStream.range(0, count).parallel().forEach(seed -> {
            SplittableRandom rnd = new SplittableRandom(seed * 31 + 7);
            GeneralSimulation.Level sim = new GeneralSimulation.Level[] {GeneralSimulation.Level.PREFIX,
                    GeneralSimulation.Level.SNAPSHOT_ISOLATION, GeneralSimulation.Level.SERIALIZABLE}[(int) (seed % 3)];
            int sessions = 3 + rnd.nextInt(3);
            GeneralSimulation.Config cfg = new GeneralSimulation.Config(sessions * (10 + rnd.nextInt(30)), sessions,
                    2 + rnd.nextInt(5), false, 0.3 + 0.4 * rnd.nextDouble(),
                    new isostress.generator.KeyDistribution.Uniform(3 + rnd.nextInt(6)),
                    GeneralSimulation.Workload.RW_REGISTER,
                    sim, 0, 0, rnd.nextLong());
            History h = GeneralSimulation.history(cfg);
            boolean mutated = rnd.nextBoolean();
            if (mutated) for (int i = 0, m = 1 + rnd.nextInt(3); i < m; i++) h = HistoryMutations.any(h, rnd);
            tally.kinds.incrementAndGet(mutated ? 1 : 0);
            Result all = Checker.checkGeneral(h, List.of(levels), CheckOptions.DEFAULTS);
            if (all.anomalies().stream().anyMatch(a -> !a.type().cycle()
                    && a.type() != isostress.checker.model.AnomalyType.LOST_UPDATE)) {
                skipped.incrementAndGet();
                return;
            }
            for (int i = 0; i < levels.length; i++) {
                IsolationLevel l = levels[i];
                Verdict exact = Checker.checkExact(h, l, 5_000_000).verdict();
                Verdict fast = Checker.checkGeneral(h, List.of(l), CheckOptions.DEFAULTS).level(l).verdict();
                if (exact == Verdict.UNKNOWN || fast == Verdict.UNKNOWN) {
                    tally.unknown.incrementAndGet(i);
                } else if (exact != fast) {
                    tally.disagreements.add("seed " + seed + " at " + l + ": exact " + exact + ", polygraph "
                            + fast + "\n" + MiniCheckerDifferentialTest.describe(h));
                } else if (fast == Verdict.VALID) {
                    tally.valid.incrementAndGet(i);
                } else {
                    tally.invalid.incrementAndGet(i);
                }
            }
        });
        tally.print("medium histories vs exact prefix search (" + skipped.get() + " with non-cycle anomalies left out)",
                levels);
        assertTrue(tally.disagreements.isEmpty(), tally.disagreements.size() + " disagreements; first ones:\n"
                + tally.disagreements.stream().limit(2).collect(Collectors.joining("\n")));
        for (int i = 0; i < levels.length; i++) {
            assertTrue(tally.valid.get(i) > count / 20 && tally.invalid.get(i) > count / 20,
                    "too few decided histories at " + levels[i]);
        }
    }

    private Tally run(int count, IsolationLevel[] levels, GeneralSimulation.Level[] sims,
                      GeneralSimulation.Workload workload) {
        return run(count, levels, sims, workload, CheckOptions.DEFAULTS);
    }

    private Tally run(int count, IsolationLevel[] levels, GeneralSimulation.Level[] sims,
                      GeneralSimulation.Workload workload, CheckOptions options) {
        Tally tally = new Tally(levels.length);
        LongStream.range(0, count).parallel().forEach(seed -> {
            SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + workload.ordinal());
            GeneralSimulation.Level sim = sims[(int) (seed % sims.length)];
            History h = GeneralSimulation.history(SmallConfigs.random(sim, workload, rnd));
            boolean mutated = rnd.nextBoolean();
            if (mutated) {
                h = HistoryMutations.any(h, rnd);
                if (rnd.nextBoolean()) h = HistoryMutations.any(h, rnd);
            }
            tally.kinds.incrementAndGet(mutated ? 1 : 0);
            Map<IsolationLevel, Boolean> ref = workload == GeneralSimulation.Workload.LIST_APPEND
                    ? ListBruteForceChecker.check(h) : BruteForceChecker.check(h);
            Result all = Checker.checkGeneral(h, List.of(levels), options);
            for (int i = 0; i < levels.length; i++) {
                IsolationLevel l = levels[i];
                Result alone = Checker.checkGeneral(h, List.of(l), options);
                Verdict fast = alone.level(l).verdict();
                Verdict together = all.level(l).verdict();
                boolean expected = ref.get(l);
                if (!mutated && !expected && sim.isolationLevel().implies(l)) {
                    tally.disagreements.add("seed " + seed + ": simulated " + sim + " history invalid at " + l
                            + " by the reference\n" + MiniCheckerDifferentialTest.describe(h));
                }
                if (fast == Verdict.UNKNOWN) {
                    tally.unknown.incrementAndGet(i);
                } else if ((fast == Verdict.VALID) != expected || (together != Verdict.UNKNOWN && together != fast)) {
                    tally.disagreements.add("seed " + seed + " (" + sim + (mutated ? ", mutated" : "") + ") at " + l
                            + ": reference " + (expected ? "valid" : "invalid") + ", alone " + fast + " ("
                            + alone.level(l).reason() + "), together " + together + "\n"
                            + MiniCheckerDifferentialTest.describe(h));
                } else if (expected) {
                    tally.valid.incrementAndGet(i);
                } else {
                    tally.invalid.incrementAndGet(i);
                }
            }
        });
        return tally;
    }

    /** An MT history is a general history too: both checkers must give the same verdicts. */
    @Test
    void generalCheckerAgreesWithTheMiniCheckersOnMiniHistories() {
        int count = Integer.getInteger("isostress.gdiff.mini", 20_000);
        Tally tally = new Tally(REGISTER_LEVELS.length);
        LongStream.range(0, count).parallel().forEach(seed -> {
            RandomMiniHistories.Sample s = RandomMiniHistories.sample(seed);
            History h = s.history();
            tally.kinds.incrementAndGet(s.validByConstruction() ? 0 : 1);
            Result mini = Checker.check(h, List.of(REGISTER_LEVELS), CheckOptions.DEFAULTS);
            Result general = Checker.checkGeneral(h, List.of(REGISTER_LEVELS), CheckOptions.DEFAULTS);
            for (int i = 0; i < REGISTER_LEVELS.length; i++) {
                IsolationLevel l = REGISTER_LEVELS[i];
                Verdict a = mini.level(l).verdict(), b = general.level(l).verdict();
                if (a == Verdict.UNKNOWN || b == Verdict.UNKNOWN) {
                    tally.unknown.incrementAndGet(i);
                } else if (a != b) {
                    tally.disagreements.add("seed " + seed + " at " + l + ": mini " + a + " (" + mini.level(l).reason()
                            + "), general " + b + " (" + general.level(l).reason() + ")\n"
                            + MiniCheckerDifferentialTest.describe(h));
                } else if (a == Verdict.VALID) {
                    tally.valid.incrementAndGet(i);
                } else {
                    tally.invalid.incrementAndGet(i);
                }
            }
        });
        tally.print("mini-transaction, mini vs general checker", REGISTER_LEVELS);
        assertTrue(tally.disagreements.isEmpty(), tally.disagreements.size() + " disagreements; first ones:\n"
                + tally.disagreements.stream().limit(3).collect(Collectors.joining("\n")));
    }

    private static final class Tally {
        final AtomicLongArray valid, invalid, unknown;
        final AtomicLongArray kinds = new AtomicLongArray(2);
        final List<String> disagreements = Collections.synchronizedList(new ArrayList<>());

        Tally(int levels) {
            valid = new AtomicLongArray(levels);
            invalid = new AtomicLongArray(levels);
            unknown = new AtomicLongArray(levels);
        }

        void print(String what, IsolationLevel[] levels) {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format("%s: %,d random histories (%,d simulated as is, %,d mutated)%n", what,
                    kinds.get(0) + kinds.get(1), kinds.get(0), kinds.get(1)));
            for (int i = 0; i < levels.length; i++) {
                sb.append(String.format("  %-20s agree %,7d (valid %,7d, invalid %,7d), unknown %,d%n", levels[i],
                        valid.get(i) + invalid.get(i), valid.get(i), invalid.get(i), unknown.get(i)));
            }
            sb.append(String.format("  disagreements: %d%n", disagreements.size()));
            System.out.print(sb);
        }

        void assertAgreement(int count, IsolationLevel[] levels) {
            assertTrue(disagreements.isEmpty(), disagreements.size() + " disagreements; first ones:\n"
                    + disagreements.stream().limit(3).collect(Collectors.joining("\n")));
            for (int i = 0; i < levels.length; i++) {
                assertTrue(invalid.get(i) > count / 50, "too few invalid histories at " + levels[i]);
                assertTrue(valid.get(i) > count / 50, "too few valid histories at " + levels[i]);
                assertTrue(unknown.get(i) == 0, unknown.get(i) + " unknowns at " + levels[i]);
            }
        }
    }
}
