package isostress.harness.cli;

import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.generator.KeyDistribution;
import isostress.generator.sim.GeneralSimulation;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code isostress bench general}: times the general checker on synthetic general histories of the shapes the issue
 * and PolySI's evaluation use (PolySI §5.1: 20 sessions x 100 txns x 15 ops, 50% reads, 10k zipfian keys; GeneralRH,
 * GeneralRW, GeneralWH: 25 x 400 x 8 at 95/50/30% reads), valid executions of a simulated store at the level
 * checked. Each history is written as JSONL and parsed back (parse time reported apart), then checked {@code --runs}
 * times per level (min and median reported). With {@code --exact} the verdicts are compared with Biswas &amp;
 * Enea's exact prefix search. The last line is one JSON object per preset, for scripts.
 */
@Command(name = "general", mixinStandardHelpOptions = true,
        description = "Time the general checker (polygraph + SAT, list-append) on synthetic general histories.")
public final class BenchGeneralCommand implements Callable<Integer> {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A benchmark shape. */
    record Preset(String name, GeneralSimulation.Workload workload, int sessions, int txnsPerSession, int ops,
                  double reads, int keys, String dist, List<IsolationLevel> levels) {
    }

    static final Map<String, Preset> PRESETS = new LinkedHashMap<>();

    static {
        List<IsolationLevel> siSer = List.of(IsolationLevel.SNAPSHOT_ISOLATION, IsolationLevel.SERIALIZABLE);
        GeneralSimulation.Workload rw = GeneralSimulation.Workload.RW_REGISTER;
        add(new Preset("polysi-default", rw, 20, 100, 15, 0.5, 10_000, "zipfian", siSer));
        add(new Preset("general-rh", rw, 25, 400, 8, 0.95, 10_000, "zipfian", siSer));
        add(new Preset("general-rw", rw, 25, 400, 8, 0.5, 10_000, "zipfian", siSer));
        add(new Preset("general-wh", rw, 25, 400, 8, 0.3, 10_000, "zipfian", siSer));
        add(new Preset("default-100k", rw, 20, 5_000, 15, 0.5, 10_000, "zipfian", siSer));
        add(new Preset("list-1m", GeneralSimulation.Workload.LIST_APPEND, 20, 50_000, 4, 0.5, 100_000, "uniform",
                List.of(IsolationLevel.SERIALIZABLE)));
    }

    private static void add(Preset p) {
        PRESETS.put(p.name(), p);
    }

    @Option(names = "--preset", paramLabel = "NAME", split = ",", defaultValue = "polysi-default,general-rh,general-rw,general-wh",
            description = "Shapes to run, comma-separated: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).",
            completionCandidates = PresetNames.class)
    List<String> presets;

    @Option(names = "--runs", defaultValue = "3", description = "Timed checks per level (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--exact", description = "Also decide each level by the exact prefix search and compare verdicts.")
    boolean exact;

    @Option(names = "--exact-budget", defaultValue = "20000000",
            description = "States the exact search may visit (default ${DEFAULT-VALUE}).")
    long exactBudget;

    @CommandLine.Mixin
    RandomSeedOption random;

    /** The preset names, for help. */
    static final class PresetNames extends ArrayList<String> {
        PresetNames() {
            super(PRESETS.keySet());
        }
    }

    @Override
    public Integer call() throws Exception {
        List<String> json = new ArrayList<>();
        boolean same = true;
        for (String name : presets) {
            Preset p = PRESETS.get(name);
            if (p == null) throw new Main.UsageException("unknown preset '" + name + "': use " + PRESETS.keySet());
            for (IsolationLevel level : p.levels()) {
                Map<String, Object> r = run(p, level);
                json.add(toJson(r));
                same &= !Boolean.FALSE.equals(r.get("same_as_exact"));
            }
        }
        for (String j : json) System.out.println(j);
        return same ? Main.VALID : Main.INVALID;
    }

    private Map<String, Object> run(Preset p, IsolationLevel level) throws Exception {
        GeneralSimulation.Level sim = GeneralSimulation.Level.of(level);
        int txns = p.sessions() * p.txnsPerSession();
        GeneralSimulation.Config cfg = new GeneralSimulation.Config(txns, p.sessions(), p.ops(), true, p.reads(),
                distribution(p), p.workload(), sim, 0, 0, random.seed);
        long g0 = System.nanoTime();
        History generated = GeneralSimulation.history(cfg);
        long genMs = ms(g0);
        Path f = Files.createTempFile("isostress-bench-general", ".jsonl");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(f), 1 << 16)) {
            HistoryFormat.JSONL.write(generated, out);
        }
        generated = null;
        System.gc();
        long p0 = System.nanoTime();
        History h = HistoryFormat.JSONL.read(f);
        long parseMs = ms(p0);
        long size = Files.size(f);
        Files.deleteIfExists(f);
        System.out.printf(Locale.ROOT, "%s at %s: %,d txns (%d sessions x %d, %d ops, %.0f%% reads, %,d %s keys, %s), "
                        + "simulated %s in %,d ms, JSONL %,d MB parsed in %,d ms%n", p.name(), level.alias(), txns,
                p.sessions(), p.txnsPerSession(), p.ops(), p.reads() * 100, p.keys(), p.dist(),
                p.workload().name().toLowerCase(Locale.ROOT).replace('_', '-'), sim, genMs, size >> 20, parseMs);
        long[] times = new long[runs];
        Result last = null;
        long peak = 0;
        for (int i = 0; i < runs; i++) {
            System.gc(); // the previous run's graph is garbage: collect it outside the timed part
            HeapMeter.reset();
            long t0 = System.nanoTime();
            last = Checker.check(h, List.of(level), CheckOptions.DEFAULTS);
            times[i] = ms(t0);
            peak = Math.max(peak, HeapMeter.peakMb());
        }
        Arrays.sort(times);
        Verdict v = last.level(level).verdict();
        System.out.printf(Locale.ROOT, "  check %s: min %,d ms, median %,d ms, max %,d ms (%d runs), peak heap %,d MB, "
                        + "verdict %s (%s)%n", level.alias(), times[0], times[runs / 2], times[runs - 1], runs, peak,
                v.jsonName(), last.level(level).reason());
        Object poly = last.stats().get(level.alias() + "_polygraph");
        if (poly != null) System.out.println("  polygraph: " + poly);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("preset", p.name());
        r.put("level", level.alias());
        r.put("txns", txns);
        r.put("parse_ms", parseMs);
        r.put("check_min_ms", times[0]);
        r.put("check_median_ms", times[runs / 2]);
        r.put("peak_heap_mb", peak);
        r.put("verdict", v.jsonName());
        if (exact && level != IsolationLevel.STRICT_SERIALIZABLE) {
            long e0 = System.nanoTime();
            Checker.Exact o = Checker.checkExact(h, level, exactBudget);
            long exactMs = ms(e0);
            Verdict ev = o.verdict();
            System.out.printf(Locale.ROOT, "  exact prefix search: %s in %,d ms (%,d states)%s%n", ev.jsonName(),
                    exactMs, o.states(), ev == Verdict.UNKNOWN ? " — budget exhausted, no comparison" : "");
            r.put("exact_ms", exactMs);
            r.put("exact_verdict", ev.jsonName());
            if (ev != Verdict.UNKNOWN) r.put("same_as_exact", ev == v);
        }
        return r;
    }

    private static KeyDistribution distribution(Preset p) {
        return p.dist().equals("zipfian") ? new KeyDistribution.Zipfian(p.keys(), 1.0)
                : new KeyDistribution.Uniform(p.keys());
    }

    private static String toJson(Map<String, Object> r) throws JsonProcessingException {
        return JSON.writeValueAsString(r);
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
