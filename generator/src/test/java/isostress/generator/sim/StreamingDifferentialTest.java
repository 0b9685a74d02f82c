package isostress.generator.sim;

import isostress.checker.Checker;
import isostress.checker.CompletedPrefix;
import isostress.checker.StreamingChecker;
import isostress.checker.history.History;
import isostress.checker.history.KeyValueNumbers;
import isostress.checker.history.Txn;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.MtcAnomaly;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.stream.ListScreen;
import isostress.checker.stream.MiniScreen;
import isostress.checker.stream.Screen;
import isostress.generator.KeyDistribution;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The streaming check ({@link StreamingChecker}) against the end-of-run check of the whole history, on random general
 * histories: valid executions of a simulated store at each level ({@link GeneralSimulation}, with aborted and
 * {@code info} transactions in some), half of them mutated ({@link HistoryMutations}), rw-register and list-append,
 * and mini-transaction histories ({@link RandomMiniHistories}, {@link MiniSimulation} with injected anomalies).
 * Each history's completed transactions are fed in a random order (a prefix need not follow real time: any set of
 * completions is one some run could have had), checked after each completion (small histories) or after random
 * batches (medium ones), each level alone. The streaming verdict (invalid at the first violating prefix, else the
 * check of everything at the end) must be the batch verdict at every level: a prefix found violating when the whole
 * history is valid would be a false alarm, a violation only the end finds is counted (it comes from {@code info}
 * transactions, which no prefix holds, or from the last completion).
 * Sizes: {@code -Disostress.sdiff.small=N} (default 4,000 per workload), {@code -Disostress.sdiff.medium=N} (400).
 */
class StreamingDifferentialTest {
    private static final IsolationLevel[] LEVELS = {IsolationLevel.READ_COMMITTED, IsolationLevel.READ_ATOMIC,
            IsolationLevel.CAUSAL, IsolationLevel.PREFIX, IsolationLevel.SNAPSHOT_ISOLATION,
            IsolationLevel.SERIALIZABLE, IsolationLevel.STRICT_SERIALIZABLE};
    private static final GeneralSimulation.Level[] LIST_SIM_LEVELS = {GeneralSimulation.Level.PREFIX,
            GeneralSimulation.Level.SNAPSHOT_ISOLATION, GeneralSimulation.Level.SERIALIZABLE,
            GeneralSimulation.Level.STRICT_SERIALIZABLE};

    @Test
    void smallRegisterHistoriesGetTheBatchVerdictAtEveryLevel() {
        Tally t = run(Integer.getInteger("isostress.sdiff.small", 4_000), GeneralSimulation.Workload.RW_REGISTER,
                false);
        t.print("rw-register, small, checked after each completion");
        t.assertAgreement();
    }

    @Test
    void smallListHistoriesGetTheBatchVerdictAtEveryLevel() {
        Tally t = run(Integer.getInteger("isostress.sdiff.small", 4_000), GeneralSimulation.Workload.LIST_APPEND,
                false);
        t.print("list-append, small, checked after each completion");
        t.assertAgreement();
    }

    @Test
    void mediumHistoriesGetTheBatchVerdictAtEveryLevel() {
        int count = Integer.getInteger("isostress.sdiff.medium", 400);
        for (GeneralSimulation.Workload w : GeneralSimulation.Workload.values()) {
            Tally t = run(count, w, true);
            t.print(w.name().toLowerCase().replace('_', '-') + ", medium, checked after random batches");
            t.assertAgreement();
        }
    }

    /**
     * The incremental screen of list-append prefixes ({@link ListScreen}) alone, against the whole check of the same
     * prefix at serializable: a cycle it finds is a violation (else it would be a false alarm, which the streaming
     * check catches by switching it off, costing time), and a violation whose anomalies are all cycles (lost updates
     * included) is a cycle it finds. Each history's completions in a random order, small and medium histories.
     */
    @Test
    void theListScreenFindsExactlyTheSerializabilityCycles() {
        int count = Integer.getInteger("isostress.sdiff.small", 4_000);
        screenAgreement("list screen", count, seed -> {
            SplittableRandom rnd = new SplittableRandom(seed * 31 + 5);
            GeneralSimulation.Level sim = LIST_SIM_LEVELS[(int) (seed % LIST_SIM_LEVELS.length)];
            boolean medium = seed % 4 == 0;
            History h = GeneralSimulation.history(medium ? mediumConfig(sim, GeneralSimulation.Workload.LIST_APPEND,
                    rnd) : SmallConfigs.random(sim, GeneralSimulation.Workload.LIST_APPEND, rnd));
            return rnd.nextInt(4) == 0 ? HistoryMutations.any(h, rnd) : h;
        }, numbers -> new ListScreen(true, numbers));
    }

    /** The same for the screen of mini-transaction prefixes ({@link MiniScreen}). */
    @Test
    void theMiniScreenFindsExactlyTheSerializabilityCycles() {
        int count = Integer.getInteger("isostress.sdiff.small", 4_000);
        screenAgreement("mini-transaction screen", count, StreamingDifferentialTest::miniHistory,
                numbers -> new MiniScreen(true, true, numbers));
    }

    @Test
    void miniTransactionHistoriesGetTheBatchVerdictAtEveryLevel() {
        int count = Integer.getInteger("isostress.sdiff.small", 4_000);
        for (boolean medium : new boolean[] {false, true}) {
            Tally tally = new Tally();
            LongStream.range(0, medium ? count / 10 : count).parallel().forEach(seed -> {
                long s = medium ? seed * 4 : seed * 4 + 1; // miniHistory makes a medium one when seed % 4 == 0
                History h = miniHistory(s);
                SplittableRandom rnd = new SplittableRandom(s * 7 + 3);
                List<Txn> order = new ArrayList<>();
                for (Txn t : h) if (!t.pending()) order.add(t);
                Collections.shuffle(order, new java.util.Random(rnd.nextLong()));
                for (int i = 0; i < LEVELS.length; i++) compare(h, order, i, medium, rnd, tally, s);
            });
            tally.print("mini-transactions, " + (medium ? "medium, checked after random batches"
                    : "small, checked after each completion"));
            tally.assertAgreement();
        }
    }

    /**
     * A mini-transaction history: small ones ({@link RandomMiniHistories}, valid and mutated) and, for one seed in
     * four, 20-80 transactions of a simulated SER or SI store over 3-5 sessions and 3-8 keys, half with an injected
     * anomaly.
     */
    private static History miniHistory(long seed) {
        if (seed % 4 != 0) return RandomMiniHistories.sample(seed).history();
        SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 11);
        boolean failures = rnd.nextInt(3) == 0;
        MiniSimulation.Config c = new MiniSimulation.Config(20 + rnd.nextInt(61), 3 + rnd.nextInt(3),
                new KeyDistribution.Uniform(3 + rnd.nextInt(6)), rnd.nextBoolean()
                ? MiniSimulation.Isolation.SERIALIZABLE : MiniSimulation.Isolation.SNAPSHOT_ISOLATION,
                failures ? 0.05 : 0, failures ? 0.05 : 0, rnd.nextLong());
        History h = MiniSimulation.history(c);
        if (rnd.nextBoolean()) {
            h = AnomalyInjector.inject(h, MtcAnomaly.values()[rnd.nextInt(MtcAnomaly.values().length)]);
        }
        return h;
    }

    /**
     * A screen alone against the whole check of the same prefix at serializable, on {@code count} histories whose
     * completions come in a random order.
     */
    private static void screenAgreement(String what, int count, java.util.function.LongFunction<History> histories,
                                        java.util.function.Function<KeyValueNumbers, Screen> screens) {
        java.util.concurrent.atomic.AtomicLong cycles = new java.util.concurrent.atomic.AtomicLong(),
                valid = new java.util.concurrent.atomic.AtomicLong(), other = new java.util.concurrent.atomic.AtomicLong();
        List<String> disagreements = Collections.synchronizedList(new ArrayList<>());
        LongStream.range(0, count).parallel().forEach(seed -> {
            History h = histories.apply(seed);
            SplittableRandom rnd = new SplittableRandom(seed * 131 + 7);
            List<Txn> order = new ArrayList<>();
            for (Txn t : h) if (!t.pending()) order.add(t);
            Collections.shuffle(order, new java.util.Random(rnd.nextLong()));
            CompletedPrefix prefix = new CompletedPrefix(h.initial(), h.realTime());
            Screen screen = screens.apply(prefix.numbers());
            boolean[] readable = {true};
            prefix.onAdmit((t, versions) -> {
                if (readable[0] && screen.accepts(t)) screen.add(t, versions);
                else readable[0] = false;
            });
            for (Txn t : order) prefix.add(t);
            CompletedPrefix.Prefix p = prefix.history();
            if (p.history().size() == 0 || !readable[0]) return;
            Result r = Checker.check(p.history(), List.of(IsolationLevel.SERIALIZABLE), CheckOptions.DEFAULTS);
            boolean invalid = r.verdict() == Verdict.INVALID;
            boolean cyclesOnly = invalid && r.anomalies().stream().allMatch(a -> a.type().cycle()
                    || a.type() == isostress.checker.model.AnomalyType.LOST_UPDATE);
            if (screen.cycle() && !invalid || cyclesOnly && !screen.cycle()) {
                disagreements.add("seed " + seed + ": prefix " + r.verdict() + " " + r.anomalyCounts() + ", screen "
                        + (screen.cycle() ? "cycle" : "no cycle") + "\n" + MiniCheckerDifferentialTest.describe(h));
            } else if (screen.cycle()) {
                cycles.incrementAndGet();
            } else if (!invalid) {
                valid.incrementAndGet();
            } else {
                other.incrementAndGet();
            }
        });
        System.out.printf("%s vs whole check of the prefix at serializable: %,d cycles found by both, %,d "
                + "valid, %,d violations that are not only cycles (flagged or left to the whole checks); "
                + "disagreements: %d%n", what, cycles.get(), valid.get(), other.get(), disagreements.size());
        assertTrue(disagreements.isEmpty(), disagreements.size() + " disagreements; first ones:\n"
                + disagreements.stream().limit(3).collect(Collectors.joining("\n")));
        assertTrue(cycles.get() > count / 50 && valid.get() > count / 50, "the test must see both");
    }

    private static Tally run(int count, GeneralSimulation.Workload workload, boolean medium) {
        Tally tally = new Tally();
        boolean lists = workload == GeneralSimulation.Workload.LIST_APPEND;
        LongStream.range(0, count).parallel().forEach(seed -> {
            SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + workload.ordinal()
                    + (medium ? 17 : 0));
            GeneralSimulation.Level[] sims = lists ? LIST_SIM_LEVELS : GeneralSimulation.Level.values();
            GeneralSimulation.Level sim = sims[(int) (seed % sims.length)];
            History h = GeneralSimulation.history(medium ? mediumConfig(sim, workload, rnd)
                    : SmallConfigs.random(sim, workload, rnd));
            if (rnd.nextBoolean()) {
                h = HistoryMutations.any(h, rnd);
                if (rnd.nextBoolean()) h = HistoryMutations.any(h, rnd);
            }
            List<Txn> order = new ArrayList<>();
            for (Txn t : h) if (!t.pending()) order.add(t);
            Collections.shuffle(order, new java.util.Random(rnd.nextLong()));
            for (int i = 0; i < LEVELS.length; i++) compare(h, order, i, medium, rnd, tally, seed);
        });
        return tally;
    }

    /** Streams {@code order} through a check at {@code LEVELS[i]} alone and compares with the batch check. */
    private static void compare(History h, List<Txn> order, int i, boolean medium, SplittableRandom rnd, Tally tally,
                                long seed) {
        IsolationLevel l = LEVELS[i];
        Verdict batch = Checker.check(h, List.of(l), CheckOptions.DEFAULTS).level(l).verdict();
        StreamingChecker s = new StreamingChecker(List.of(l), CheckOptions.DEFAULTS, h.initial(), h.realTime());
        int fed = 0;
        for (Txn t : order) {
            s.add(t);
            fed++;
            if (!medium || rnd.nextInt(8) == 0 || fed == order.size()) s.check();
            if (s.violation() != null) break;
        }
        Verdict streamed = s.violation() != null ? Verdict.INVALID : s.finish().level(l).verdict();
        if (streamed == Verdict.UNKNOWN || batch == Verdict.UNKNOWN) {
            tally.unknown.incrementAndGet(i);
        } else if (streamed != batch) {
            tally.disagreements.add("seed " + seed + " at " + l + ": batch " + batch + ", streamed " + streamed
                    + (s.violation() != null ? " (prefix of " + s.violation().prefix().history().size() + " txns: "
                    + s.violation().result().anomalyCounts() + ")" : "") + "\n"
                    + MiniCheckerDifferentialTest.describe(h));
        } else if (batch == Verdict.VALID) {
            tally.valid.incrementAndGet(i);
        } else if (s.violation() == null) {
            tally.atTheEnd.incrementAndGet(i);
        } else if (fed < order.size()) {
            tally.early.incrementAndGet(i);
        } else {
            tally.last.incrementAndGet(i);
        }
    }

    /** 20-80 transactions over 3-5 sessions, 2-5 operations, 3-8 keys; a third with aborts and info outcomes. */
    private static GeneralSimulation.Config mediumConfig(GeneralSimulation.Level sim, GeneralSimulation.Workload w,
                                                         SplittableRandom rnd) {
        int sessions = 3 + rnd.nextInt(3);
        boolean failures = rnd.nextInt(3) == 0;
        return new GeneralSimulation.Config(20 + rnd.nextInt(61), sessions, 2 + rnd.nextInt(4), false,
                0.3 + 0.4 * rnd.nextDouble(), new KeyDistribution.Uniform(3 + rnd.nextInt(6)), w, sim,
                failures ? 0.05 : 0, failures ? 0.05 : 0, rnd.nextLong());
    }

    private static final class Tally {
        final AtomicLongArray valid = new AtomicLongArray(LEVELS.length);
        /** Invalid, found by a prefix before the last completion / by the check after the last / only at the end. */
        final AtomicLongArray early = new AtomicLongArray(LEVELS.length), last = new AtomicLongArray(LEVELS.length),
                atTheEnd = new AtomicLongArray(LEVELS.length);
        final AtomicLongArray unknown = new AtomicLongArray(LEVELS.length);
        final List<String> disagreements = Collections.synchronizedList(new ArrayList<>());

        void print(String what) {
            StringBuilder sb = new StringBuilder(what + ":\n");
            for (int i = 0; i < LEVELS.length; i++) {
                sb.append(String.format("  %-20s valid %,6d; invalid found early %,6d, by the last completion %,6d, "
                                + "only by the end-of-run check %,6d; unknown %,d%n", LEVELS[i], valid.get(i),
                        early.get(i), last.get(i), atTheEnd.get(i), unknown.get(i)));
            }
            sb.append("  disagreements: ").append(disagreements.size()).append('\n');
            System.out.print(sb);
        }

        void assertAgreement() {
            assertTrue(disagreements.isEmpty(), disagreements.size() + " disagreements; first ones:\n"
                    + disagreements.stream().limit(3).collect(Collectors.joining("\n")));
            for (int i = 0; i < LEVELS.length; i++) {
                assertTrue(valid.get(i) > 0 && early.get(i) > 0, "the test must see valid histories and "
                        + "violations found early at " + LEVELS[i]);
                assertTrue(unknown.get(i) == 0, unknown.get(i) + " unknowns at " + LEVELS[i]);
            }
        }
    }
}
