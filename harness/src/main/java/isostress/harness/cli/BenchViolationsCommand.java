package isostress.harness.cli;

import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LevelResult;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.generator.KeyDistribution;
import isostress.generator.sim.HistorySink;
import isostress.generator.sim.MiniSimulation;
import isostress.generator.sim.TxnSink;
import isostress.generator.sim.ViolationSink;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import com.fasterxml.jackson.databind.json.JsonMapper;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code isostress bench violations}: does a violation cost more than validity? Simulates one valid
 * mini-transaction history and, from the same seed, the same history with injected violations
 * ({@link ViolationSink}), keeps them in memory (parsing is {@code bench check}'s business), then checks each level
 * as {@code check --level L} does (weaker levels examined after a violation), valid and invalid in turn, so every
 * ratio invalid/valid comes from one pair of adjacent runs. Fails when a verdict is not the one known by
 * construction, or is unknown. One JSON line per level and injection.
 */
@Command(name = "violations", mixinStandardHelpOptions = true,
        description = "Time checking valid vs invalid mini-transaction histories (paired, in memory).")
public final class BenchViolationsCommand implements Callable<Integer> {
    @Option(names = "--txns", paramLabel = "N", defaultValue = "1000000", description = "Transactions (default ${DEFAULT-VALUE}).")
    int txns;

    @Option(names = "--inject", paramLabel = "KIND[:N]", split = ",",
            defaultValue = "lost-update:1,lost-update:100,write-skew:1",
            description = "Injections, each compared with the valid history (default ${DEFAULT-VALUE}).")
    List<String> injections;

    @Option(names = "--level", paramLabel = "LEVEL", split = ",", defaultValue = "ser,si",
            description = "Levels (default ${DEFAULT-VALUE}).")
    List<String> levels;

    @Option(names = "--runs", defaultValue = "3", description = "Pairs per level and injection (default ${DEFAULT-VALUE}).")
    int runs;

    @CommandLine.Mixin
    RandomSeedOption random;

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || txns < 1) throw new Main.UsageException("--runs and --txns must be at least 1");
        List<ViolationSink.Spec> specs = new ArrayList<>();
        for (String s : injections) {
            ViolationSink.Spec spec = ViolationSink.Spec.parse(s);
            if (spec == null) throw new Main.UsageException("unknown --inject '" + s + "': use lost-update[:N] or write-skew[:N]");
            specs.add(spec);
        }
        List<IsolationLevel> ls = CheckCommand.parseLevels(levels);
        MiniSimulation.Config cfg = MiniSimulation.Config.serializable(txns, 20, new KeyDistribution.Uniform(100_000), random.seed);
        History valid = simulate(cfg, null);
        JsonMapper json = JsonMapper.builder().build();
        for (ViolationSink.Spec spec : specs) {
            History bad = simulate(cfg, spec);
            for (IsolationLevel l : ls) {
                long[] v = new long[runs], b = new long[runs];
                double[] ratio = new double[runs];
                for (int r = 0; r < runs; r++) {
                    v[r] = time(valid, l, IsolationLevel.STRICT_SERIALIZABLE);
                    b[r] = time(bad, l, spec.kind().strongestValid());
                    ratio[r] = (double) b[r] / Math.max(1, v[r]);
                }
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("txns", txns);
                line.put("inject", spec.toString());
                line.put("level", l.alias());
                line.put("valid_ms", stats(v));
                line.put("invalid_ms", stats(b));
                double[] sr = ratio.clone();
                Arrays.sort(sr);
                line.put("ratio_median", Math.round(sr[runs / 2] * 100) / 100.0);
                System.out.println(json.writeValueAsString(line));
                System.out.flush();
            }
        }
        return Main.VALID;
    }

    private static History simulate(MiniSimulation.Config cfg, ViolationSink.Spec spec) throws Exception {
        HistorySink out = new HistorySink();
        TxnSink sink = spec == null ? out : new ViolationSink(out, spec, cfg.txns(), cfg.keys().keys());
        MiniSimulation.run(cfg, sink);
        return out.history();
    }

    /** min, median, max */
    private static List<Long> stats(long[] a) {
        long[] s = a.clone();
        Arrays.sort(s);
        return List.of(s[0], s[s.length / 2], s[s.length - 1]);
    }

    private static long time(History h, IsolationLevel level, IsolationLevel strongestValid) {
        System.gc(); // the previous check's index is garbage: collect it outside the timed part
        long t0 = System.nanoTime();
        Result r = Checker.check(h, List.of(level), CheckOptions.DEFAULTS);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        for (LevelResult lr : r.levels()) {
            Verdict want = strongestValid.implies(lr.level()) ? Verdict.VALID : Verdict.INVALID;
            if (lr.verdict() != want) {
                throw new IllegalStateException(h.source() + ": expected " + want.jsonName() + " at " + lr.level()
                        + ", got " + lr.verdict().jsonName() + ": " + lr.reason());
            }
        }
        System.out.printf(Locale.ROOT, "%-6s %-18s %,8d ms  weakest violated: %s%n", level.alias(),
                strongestValid == IsolationLevel.STRICT_SERIALIZABLE ? "valid" : "injected", ms, r.weakestViolated());
        return ms;
    }
}
