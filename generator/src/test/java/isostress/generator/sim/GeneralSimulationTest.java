package isostress.generator.sim;

import isostress.checker.history.History;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;
import isostress.checker.model.IsolationLevel;
import isostress.checker.reference.BruteForceChecker;
import isostress.generator.KeyDistribution;
import isostress.generator.sim.GeneralSimulation.Config;
import isostress.generator.sim.GeneralSimulation.Level;
import isostress.generator.sim.GeneralSimulation.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link GeneralSimulation} histories are valid at their level (by the brute-force reference, Biswas &amp; Enea's
 * axioms by enumeration), and the weak levels really produce weak behaviour (some histories invalid at stronger
 * levels). The reference ignores list operations, so list-append histories are checked for well-formedness (every
 * list read consistent with one append order per key) and through their register projection (see
 * {@link #registerProjection}).
 */
class GeneralSimulationTest {
    private static final int HISTORIES = Integer.getInteger("isostress.gensim.count", 2000);
    private static final IsolationLevel[] CHECKED = {IsolationLevel.READ_COMMITTED, IsolationLevel.READ_ATOMIC,
            IsolationLevel.CAUSAL, IsolationLevel.PREFIX, IsolationLevel.SNAPSHOT_ISOLATION,
            IsolationLevel.SERIALIZABLE, IsolationLevel.STRICT_SERIALIZABLE};

    @Test
    void registerHistoriesAreValidAtTheirLevelAndWeakLevelsShowWeakBehaviour() {
        StringBuilder report = new StringBuilder(String.format(
                "GeneralSimulation, RW_REGISTER, %d small histories per level: invalid at each checked level%n", HISTORIES));
        report.append(String.format("  %-20s", "simulated \\ checked"));
        for (IsolationLevel l : CHECKED) report.append(String.format(" %6s", l.alias()));
        report.append('\n');
        List<String> failures = new ArrayList<>();
        Map<Level, int[]> invalid = new EnumMap<>(Level.class);
        for (Level level : Level.values()) {
            int[] counts = run(level, Workload.RW_REGISTER, h -> h, failures);
            invalid.put(level, counts);
            report.append(String.format("  %-20s", level));
            for (int x : counts) report.append(String.format(" %6d", x));
            report.append('\n');
        }
        System.out.print(report);
        assertTrue(failures.isEmpty(), failures.size() + " simulated histories invalid at their level; first:\n"
                + String.join("\n", failures.subList(0, Math.min(3, failures.size()))));
        // Weak behaviour: a good fraction of each weak level's histories violate the next stronger level.
        int min = HISTORIES / 100;
        assertAtLeast(invalid, Level.READ_COMMITTED, IsolationLevel.READ_ATOMIC, min);
        assertAtLeast(invalid, Level.READ_ATOMIC, IsolationLevel.CAUSAL, min);
        assertAtLeast(invalid, Level.CAUSAL, IsolationLevel.PREFIX, Math.max(1, HISTORIES / 400));
        assertAtLeast(invalid, Level.PREFIX, IsolationLevel.SNAPSHOT_ISOLATION, min);
        assertAtLeast(invalid, Level.SNAPSHOT_ISOLATION, IsolationLevel.SERIALIZABLE, min);
        assertAtLeast(invalid, Level.SERIALIZABLE, IsolationLevel.STRICT_SERIALIZABLE, min);
    }

    @Test
    void listAppendHistoriesAreWellFormedAndTheirRegisterProjectionIsValid() {
        StringBuilder report = new StringBuilder(String.format(
                "GeneralSimulation, LIST_APPEND, %d small histories per level: register projection invalid at%n",
                HISTORIES));
        List<String> failures = new ArrayList<>();
        for (Level level : Level.values()) {
            if (!level.supports(Workload.LIST_APPEND)) continue;
            int[] counts = run(level, Workload.LIST_APPEND, GeneralSimulationTest::registerProjection, failures);
            report.append(String.format("  %-20s", level));
            for (int i = 0; i < CHECKED.length; i++) report.append(String.format(" %s %d", CHECKED[i].alias(), counts[i]));
            report.append('\n');
        }
        System.out.print(report);
        assertTrue(failures.isEmpty(), failures.size() + " failures; first:\n"
                + String.join("\n", failures.subList(0, Math.min(3, failures.size()))));
    }

    /**
     * Simulates {@link #HISTORIES} small histories at {@code level}; checks well-formedness and (through
     * {@code view}) validity at the level; returns how many are invalid at each of {@link #CHECKED}.
     */
    private static int[] run(Level level, Workload w, java.util.function.UnaryOperator<History> view,
                             List<String> failures) {
        AtomicIntegerArray invalid = new AtomicIntegerArray(CHECKED.length);
        List<String> f = Collections.synchronizedList(new ArrayList<>());
        IntStream.range(0, HISTORIES).parallel().forEach(i -> {
            Config c = SmallConfigs.random(level, w, new SplittableRandom(level.ordinal() * 1_000_003L + i));
            History h = GeneralSimulation.history(c);
            List<String> problems = new ArrayList<>(HistoryMutations.wellFormedness(h));
            if (w == Workload.LIST_APPEND) problems.addAll(listProblems(h));
            Map<IsolationLevel, Boolean> ref = BruteForceChecker.check(view.apply(h));
            for (int l = 0; l < CHECKED.length; l++) if (!ref.get(CHECKED[l])) invalid.incrementAndGet(l);
            if (!ref.get(level.isolationLevel())) problems.add("invalid at " + level);
            if (!problems.isEmpty()) f.add(c + ": " + problems + "\n" + MiniCheckerDifferentialTest.describe(h));
        });
        failures.addAll(f);
        int[] out = new int[CHECKED.length];
        for (int l = 0; l < out.length; l++) out[l] = invalid.get(l);
        return out;
    }

    private static void assertAtLeast(Map<Level, int[]> invalid, Level sim, IsolationLevel checked, int min) {
        int i = List.of(CHECKED).indexOf(checked);
        int got = invalid.get(sim)[i];
        assertTrue(got >= min, sim + " histories invalid at " + checked + ": " + got + ", expected >= " + min);
    }

    /**
     * List-append well-formedness: per key, the list reads of ok transactions are pairwise
     * prefix-comparable (one append order), contain only elements appended by ok or info transactions, and end
     * with the reader's own earlier appends to that key, in order; a failed transaction's reads, minus its own
     * appends, are prefixes of that order too.
     */
    static List<String> listProblems(History h) {
        List<String> problems = new ArrayList<>();
        Map<Long, Set<Long>> committable = new HashMap<>();
        for (Txn t : h) {
            if (t.outcome() == Outcome.FAIL) continue;
            for (MicroOp m : t.ops()) {
                if (m instanceof MicroOp.Append) {
                    committable.computeIfAbsent(m.key(), k -> new HashSet<>()).add(((MicroOp.Append) m).value());
                }
            }
        }
        Map<Long, List<List<Long>>> observed = new HashMap<>();
        for (Txn t : h) {
            Map<Long, List<Long>> own = new HashMap<>();
            for (MicroOp m : t.ops()) {
                if (m instanceof MicroOp.Append) {
                    own.computeIfAbsent(m.key(), k -> new ArrayList<>()).add(((MicroOp.Append) m).value());
                    continue;
                }
                if (!(m instanceof MicroOp.ListRead)) {
                    problems.add(t.label() + " has a register op " + m);
                    continue;
                }
                List<Long> vs = ((MicroOp.ListRead) m).values();
                if (vs == null) {
                    if (t.outcome() != Outcome.INFO) problems.add(t.label() + " (" + t.outcome() + ") unknown read");
                    continue;
                }
                List<Long> mine = own.getOrDefault(m.key(), List.of());
                if (vs.size() < mine.size() || !vs.subList(vs.size() - mine.size(), vs.size()).equals(mine)) {
                    problems.add(t.label() + " read " + vs + " of key " + m.key() + " does not end with own " + mine);
                    continue;
                }
                List<Long> external = t.outcome() == Outcome.OK ? vs : vs.subList(0, vs.size() - mine.size());
                for (Long v : external) {
                    if (!committable.getOrDefault(m.key(), Set.of()).contains(v)) {
                        problems.add(t.label() + " read " + vs + " shows an element of a failed transaction");
                    }
                }
                observed.computeIfAbsent(m.key(), k -> new ArrayList<>()).add(external);
            }
        }
        for (Map.Entry<Long, List<List<Long>>> e : observed.entrySet()) {
            List<List<Long>> reads = e.getValue();
            for (List<Long> a : reads) {
                for (List<Long> b : reads) {
                    List<Long> s = a.size() <= b.size() ? a : b, l = a.size() <= b.size() ? b : a;
                    if (!l.subList(0, s.size()).equals(s)) {
                        problems.add("key " + e.getKey() + ": reads " + a + " and " + b + " are not one order");
                    }
                }
            }
        }
        return problems;
    }

    /**
     * The register history with the same read-from: an append becomes a write of its element, a list read a read
     * of its last element (null when empty; unknown stays unknown). For histories whose list reads are prefixes of
     * one append order, list-append validity at a level implies the projection's (the lists only add version-order
     * information), so the projection must pass the reference at the simulated level.
     */
    static History registerProjection(History h) {
        History.Builder b = History.builder().initial(h.initial()).realTime(h.realTime());
        for (Txn t : h) {
            List<MicroOp> ops = new ArrayList<>();
            for (MicroOp m : t.ops()) {
                if (m instanceof MicroOp.Append) {
                    ops.add(new MicroOp.Write(m.key(), ((MicroOp.Append) m).value()));
                } else if (m instanceof MicroOp.ListRead) {
                    List<Long> vs = ((MicroOp.ListRead) m).values();
                    ops.add(new MicroOp.Read(m.key(), vs == null || vs.isEmpty() ? null : vs.get(vs.size() - 1)));
                } else {
                    ops.add(m);
                }
            }
            b.add(new Txn(t.id(), t.process(), t.outcome(), ops, t.invokeIndex(), t.completeIndex(),
                    t.invokeTime(), t.completeTime(), t.line(), t.node(), t.isolation()));
        }
        return b.build();
    }

    @Test
    void sameSeedSameHistory() {
        for (Level level : Level.values()) {
            for (Workload w : Workload.values()) {
                if (!level.supports(w)) continue;
                Config c = new Config(200, 5, 6, false, 0.5, new KeyDistribution.Zipfian(30, 1.1), w, level, 0.05,
                        0.05, 42);
                List<Txn> a = new ArrayList<>(GeneralSimulation.history(c).txns());
                List<Txn> b = new ArrayList<>(GeneralSimulation.history(c).txns());
                assertEquals(a, b, level + " " + w);
                List<Txn> other = new ArrayList<>(GeneralSimulation.history(c.withSeed(43)).txns());
                assertNotEquals(a, other, level + " " + w);
            }
        }
    }

    @Test
    void listAppendNeedsAPrefixLevel() {
        for (Level level : List.of(Level.READ_COMMITTED, Level.READ_ATOMIC, Level.CAUSAL)) {
            assertThrows(IllegalArgumentException.class, () -> Config.of(level, Workload.LIST_APPEND, 10, 2, 3,
                    new KeyDistribution.Uniform(3), 1));
        }
        assertThrows(IllegalArgumentException.class, () -> new Config(10, 0, 3, false, 0.5,
                new KeyDistribution.Uniform(3), Workload.RW_REGISTER, Level.SERIALIZABLE, 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new Config(10, 2, 3, false, 0.5,
                new KeyDistribution.Uniform(3), Workload.RW_REGISTER, Level.SERIALIZABLE, 0.6, 0.6, 1));
    }

    @Test
    void shapeFollowsTheConfig() {
        Config c = new Config(300, 4, 5, true, 0.25, new KeyDistribution.Uniform(20), Workload.RW_REGISTER,
                Level.SNAPSHOT_ISOLATION, 0.1, 0.1, 7);
        History h = GeneralSimulation.history(c);
        assertEquals(300, h.size());
        int reads = 0, ops = 0, info = 0, fail = 0;
        for (Txn t : h) {
            assertEquals(5, t.ops().size());
            for (MicroOp m : t.ops()) {
                ops++;
                if (m instanceof MicroOp.Read) reads++;
            }
            if (t.outcome() == Outcome.INFO) {
                info++;
                for (MicroOp m : t.ops()) if (m instanceof MicroOp.Read) assertEquals(null, ((MicroOp.Read) m).value());
            }
            if (t.outcome() == Outcome.FAIL) fail++;
        }
        assertTrue(Math.abs(reads / (double) ops - 0.25) < 0.05, "read ratio " + reads / (double) ops);
        assertTrue(info > 10 && fail > 10, info + " info, " + fail + " fail");
        assertTrue(HistoryMutations.wellFormedness(h).isEmpty(), HistoryMutations.wellFormedness(h).toString());
    }

    @Test
    void largeRunsAreFastAndWellFormed() {
        KeyDistribution keys = new KeyDistribution.Zipfian(10_000, 1.0);
        for (Level level : Level.values()) {
            for (Workload w : Workload.values()) {
                if (!level.supports(w)) continue;
                Config c = new Config(2000, 20, 15, true, 0.5, keys, w, level, 0.02, 0.02, 99);
                long start = System.nanoTime();
                History h = GeneralSimulation.history(c);
                long ms = (System.nanoTime() - start) / 1_000_000;
                System.out.printf("large run %-20s %-12s %,d txns, %,d ops in %d ms%n", level, w, h.size(),
                        h.opCount(), ms);
                assertEquals(2000, h.size());
                assertEquals(30_000, h.opCount());
                assertTrue(ms < 5_000, level + " took " + ms + " ms");
                assertTrue(HistoryMutations.wellFormedness(h).isEmpty(), level + " " + w);
                if (w == Workload.LIST_APPEND) {
                    List<String> p = listProblems(h);
                    assertTrue(p.isEmpty(), p.subList(0, Math.min(3, p.size())).toString());
                }
            }
        }
    }

    private static final Level[] MUTATED_LEVELS = {Level.READ_ATOMIC, Level.CAUSAL, Level.SNAPSHOT_ISOLATION,
            Level.SERIALIZABLE};

    @Test
    void mutationsKeepHistoriesWellFormedAndOftenBreakThem() {
        Map<HistoryMutations.Kind, int[]> stats = new EnumMap<>(HistoryMutations.Kind.class); // applied, invalid
        for (HistoryMutations.Kind k : HistoryMutations.Kind.values()) stats.put(k, new int[2]);
        for (int i = 0; i < 800; i++) {
            SplittableRandom rnd = new SplittableRandom(i);
            Level level = MUTATED_LEVELS[i % MUTATED_LEVELS.length];
            Workload w = (i / MUTATED_LEVELS.length) % 4 == 3 && level.supports(Workload.LIST_APPEND)
                    ? Workload.LIST_APPEND : Workload.RW_REGISTER;
            History h = GeneralSimulation.history(SmallConfigs.random(level, w, rnd));
            for (HistoryMutations.Kind k : HistoryMutations.Kind.values()) {
                History m = HistoryMutations.apply(k, h, rnd);
                if (m == h) continue;
                List<String> problems = HistoryMutations.wellFormedness(m);
                assertTrue(problems.isEmpty(), k + ": " + problems);
                stats.get(k)[0]++;
                History checked = w == Workload.LIST_APPEND ? registerProjection(m) : m;
                if (w == Workload.RW_REGISTER && !BruteForceChecker.check(checked).get(level.isolationLevel())) {
                    stats.get(k)[1]++;
                }
            }
            assertTrue(HistoryMutations.wellFormedness(HistoryMutations.any(h, rnd)).isEmpty());
        }
        StringBuilder sb = new StringBuilder("HistoryMutations on 800 small RA/CC/SI/SER histories (applied, register "
                + "ones invalid at their level):\n");
        stats.forEach((k, v) -> sb.append(String.format("  %-20s %4d %4d%n", k, v[0], v[1])));
        System.out.print(sb);
        for (HistoryMutations.Kind k : HistoryMutations.Kind.values()) {
            assertTrue(stats.get(k)[0] > 50, k + " applied " + stats.get(k)[0]);
        }
        assertTrue(stats.get(HistoryMutations.Kind.CHANGE_READ)[1] > 20);
        assertTrue(stats.get(HistoryMutations.Kind.DROP_TXN)[1] > 0);
        assertTrue(stats.get(HistoryMutations.Kind.SWAP_PROCESSES)[1] > 0); // only weak levels notice
    }
}
