package isostress.generator.sim;

import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.history.Outcome;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.model.VersionOrder;
import isostress.checker.reference.BruteForceChecker;
import isostress.checker.reference.ListBruteForceChecker;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The general checker with a version order given (as a commit log gives it, docs/witness.md) against the brute-force
 * references that take that order as given (they enumerate only the commit orders, and PSI arbitrations, that place
 * each key's committed writers in it): random small histories of a simulated store ({@link GeneralSimulation}), half
 * of them mutated ({@link HistoryMutations}), each with a random order per key of the writes of its transactions that
 * did not fail. Each level alone and all together; zero disagreements and no unknown allowed (with the order fixed
 * nothing is left to search). Also: a history valid with the order at a level is not invalid without it (the order
 * is one of those the check without it may choose). Sizes: {@code -Disostress.vodiff.registers=N} (default 20,000),
 * {@code -Disostress.vodiff.lists=N} (default 10,000).
 */
class WitnessOrderDifferentialTest {
    private static final IsolationLevel[] REGISTER_LEVELS = {IsolationLevel.READ_COMMITTED,
            IsolationLevel.READ_ATOMIC, IsolationLevel.CAUSAL, IsolationLevel.PREFIX,
            IsolationLevel.PARALLEL_SNAPSHOT_ISOLATION, IsolationLevel.SNAPSHOT_ISOLATION,
            IsolationLevel.SERIALIZABLE, IsolationLevel.STRICT_SERIALIZABLE};
    private static final GeneralSimulation.Level[] LIST_SIM_LEVELS = {GeneralSimulation.Level.PREFIX,
            GeneralSimulation.Level.SNAPSHOT_ISOLATION, GeneralSimulation.Level.SERIALIZABLE,
            GeneralSimulation.Level.STRICT_SERIALIZABLE};

    @Test
    void registerHistoriesWithAGivenOrderAgreeWithTheReference() {
        int count = Integer.getInteger("isostress.vodiff.registers", 20_000);
        run("rw-register", count, GeneralSimulation.Level.values(), GeneralSimulation.Workload.RW_REGISTER);
    }

    @Test
    void listHistoriesWithAGivenOrderAgreeWithTheReference() {
        int count = Integer.getInteger("isostress.vodiff.lists", 10_000);
        run("list-append", count, LIST_SIM_LEVELS, GeneralSimulation.Workload.LIST_APPEND);
    }

    private static void run(String what, int count, GeneralSimulation.Level[] sims,
                            GeneralSimulation.Workload workload) {
        IsolationLevel[] levels = REGISTER_LEVELS;
        AtomicLongArray valid = new AtomicLongArray(levels.length), invalid = new AtomicLongArray(levels.length);
        AtomicLong skipped = new AtomicLong(), validWithout = new AtomicLong();
        List<String> disagreements = Collections.synchronizedList(new ArrayList<>());
        boolean lists = workload == GeneralSimulation.Workload.LIST_APPEND;
        LongStream.range(0, count).parallel().forEach(seed -> {
            SplittableRandom rnd = new SplittableRandom(seed * 0x2545F4914F6CDD1DL + workload.ordinal());
            GeneralSimulation.Level sim = sims[(int) (seed % sims.length)];
            History h = GeneralSimulation.history(SmallConfigs.random(sim, workload, rnd));
            boolean mutated = rnd.nextBoolean();
            if (mutated) h = HistoryMutations.any(h, rnd);
            Map<Long, List<Integer>> writers = randomOrder(h, lists, rnd);
            if (writers == null) {
                skipped.incrementAndGet(); // a value written twice: a commit log could not name its writer
                return;
            }
            VersionOrder order = versionOrder(h, writers, lists);
            Map<IsolationLevel, Boolean> ref = lists ? ListBruteForceChecker.check(h, writers)
                    : BruteForceChecker.check(h, writers);
            Result all = Checker.check(h, List.of(levels), CheckOptions.DEFAULTS, order);
            for (int i = 0; i < levels.length; i++) {
                IsolationLevel l = levels[i];
                Result alone = Checker.check(h, List.of(l), CheckOptions.DEFAULTS, order);
                Verdict fast = alone.level(l).verdict(), together = all.level(l).verdict();
                boolean expected = ref.get(l);
                if (fast == Verdict.UNKNOWN || (fast == Verdict.VALID) != expected || together != fast) {
                    disagreements.add("seed " + seed + " (" + sim + (mutated ? ", mutated" : "") + ") at " + l
                            + ": reference " + (expected ? "valid" : "invalid") + ", alone " + fast + " ("
                            + alone.level(l).reason() + "), together " + together + "\norder " + writers + "\n"
                            + MiniCheckerDifferentialTest.describe(h));
                } else if (expected) {
                    valid.incrementAndGet(i);
                    // Valid with the order implies valid without it: the order is one the search may choose.
                    Verdict without = Checker.checkGeneral(h, List.of(l), CheckOptions.DEFAULTS).level(l).verdict();
                    if (without == Verdict.INVALID) {
                        disagreements.add("seed " + seed + " at " + l + ": valid with the order " + writers
                                + ", invalid without\n" + MiniCheckerDifferentialTest.describe(h));
                    } else if (without == Verdict.VALID) {
                        validWithout.incrementAndGet();
                    }
                } else {
                    invalid.incrementAndGet(i);
                }
            }
        });
        StringBuilder sb = new StringBuilder(String.format("%s with a given version order: %,d random histories "
                + "(%,d skipped: a value written twice)%n", what, count, skipped.get()));
        for (int i = 0; i < levels.length; i++) {
            sb.append(String.format("  %-28s agree %,7d (valid %,7d, invalid %,7d)%n", levels[i],
                    valid.get(i) + invalid.get(i), valid.get(i), invalid.get(i)));
        }
        sb.append(String.format("  valid with the order and without: %,d; disagreements: %d%n", validWithout.get(),
                disagreements.size()));
        System.out.print(sb);
        assertTrue(disagreements.isEmpty(), disagreements.size() + " disagreements; first ones:\n"
                + disagreements.stream().limit(3).collect(Collectors.joining("\n")));
        for (int i = 0; i < levels.length; i++) {
            assertTrue(valid.get(i) > count / 100 && invalid.get(i) > count / 100,
                    "too few decided histories of each verdict at " + levels[i]);
        }
    }

    /**
     * Per key, the transactions that did not fail and write it, in a random order; null when some key's final value
     * (register) or last element (list) is written by two of them.
     */
    static Map<Long, List<Integer>> randomOrder(History h, boolean lists, SplittableRandom rnd) {
        Map<Long, List<Integer>> out = new TreeMap<>();
        Map<Long, Set<Long>> seen = new TreeMap<>();
        for (int t = 0; t < h.size(); t++) {
            if (h.outcome(t) == Outcome.FAIL) continue;
            for (Map.Entry<Long, Long> e : finalWrites(h, t, lists).entrySet()) {
                if (!seen.computeIfAbsent(e.getKey(), k -> new HashSet<>()).add(e.getValue())) return null;
                out.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(t);
            }
        }
        for (List<Integer> l : out.values()) {
            for (int i = l.size() - 1; i > 0; i--) Collections.swap(l, i, rnd.nextInt(i + 1));
        }
        return out;
    }

    /** The order as a commit log would give it: each writer's final write of the key, on one node. */
    static VersionOrder versionOrder(History h, Map<Long, List<Integer>> writers, boolean lists) {
        Map<Long, List<VersionOrder.Write>> keys = new LinkedHashMap<>();
        long pos = 0;
        for (Map.Entry<Long, List<Integer>> e : writers.entrySet()) {
            List<VersionOrder.Write> ws = new ArrayList<>();
            for (int t : e.getValue()) {
                ws.add(new VersionOrder.Write(finalWrites(h, t, lists).get(e.getKey()), "n1", ++pos, t));
            }
            keys.put(e.getKey(), ws);
        }
        return new VersionOrder(keys, Map.of());
    }

    /** Per key t writes, its last register value (a CAS writes its new value) or its last element appended. */
    private static Map<Long, Long> finalWrites(History h, int t, boolean lists) {
        Map<Long, Long> out = new LinkedHashMap<>();
        for (int op = h.firstOp(t); op < h.endOp(t); op++) {
            byte k = h.opKind(op);
            if (lists ? k == History.APPEND : k == History.WRITE) out.put(h.opKey(op), h.opValue(op));
            else if (!lists && k == History.CAS) out.put(h.opKey(op), h.casNew(op));
        }
        return out;
    }
}
