package isostress.harness.cli;

import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.generator.KeyDistribution;
import isostress.generator.sim.JsonlSink;
import isostress.checker.witness.Witness;
import isostress.checker.witness.WitnessJoin;
import isostress.checker.witness.WitnessReader;
import isostress.generator.sim.ListAppendSimulation;
import isostress.generator.sim.LoggingSink;
import isostress.generator.sim.SimulatedLog;
import isostress.generator.sim.MiniSimulation;
import isostress.generator.sim.TextSink;
import isostress.generator.sim.TxnSink;
import isostress.generator.sim.ViolationSink;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.BufferedWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code isostress bench check --txns N}: writes a valid synthetic history (a simulated serializable store running
 * mini-transactions, {@link MiniSimulation}, or with {@code --kind list-append} Jepsen-shaped list-append
 * transactions, {@link ListAppendSimulation}) to a file, then times parsing it and checking SER, SI, PSI and
 * SSER, and reports the peak heap; the last line is one JSON object for scripts.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Time parsing and checking a synthetic mini-transaction or list-append history.")
public final class BenchCheckCommand implements Callable<Integer> {
    @Option(names = "--txns", paramLabel = "N", required = true, description = "Transactions in the history.")
    int txns;

    @Option(names = "--sessions", paramLabel = "S", defaultValue = "20", description = "Sessions (default ${DEFAULT-VALUE}).")
    int sessions;

    @Option(names = "--keys", paramLabel = "K", defaultValue = "100000", description = "Keys (default ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--dist", paramLabel = "DIST", defaultValue = "uniform",
            description = "Key distribution: uniform, zipfian, hotspot, exponential (default ${DEFAULT-VALUE}).")
    String dist;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "jsonl",
            description = "File format: jsonl or text (default ${DEFAULT-VALUE}); text has no real time, so no SSER.")
    String format;

    @Option(names = "--file", paramLabel = "FILE",
            description = "Write the history here and keep it (default: a temporary file, deleted afterwards).")
    Path file;

    @CommandLine.Mixin
    RandomSeedOption random;

    @Option(names = "--kind", paramLabel = "KIND", defaultValue = "mt",
            description = "mt (mini-transactions) or list-append (Jepsen's shape: 1-4 ops, half reads, --active-keys "
                    + "keys each retired after --list-length appends) (default ${DEFAULT-VALUE}).")
    String kind;

    @Option(names = "--list-length", paramLabel = "L", defaultValue = "100",
            description = "list-append: appends after which a key is retired (default ${DEFAULT-VALUE}).")
    int listLength;

    @Option(names = "--reads", paramLabel = "P", defaultValue = "0.5",
            description = "list-append: probability that a micro-op is a read (default ${DEFAULT-VALUE}).")
    double reads;

    @Option(names = "--active-keys", paramLabel = "A", defaultValue = "10",
            description = "list-append: keys in use at any time (default ${DEFAULT-VALUE}).")
    int activeKeys;

    @Option(names = "--inject", paramLabel = "KIND[:N]",
            description = "Make the history invalid: N (default 1) lost updates or write skews on fresh keys, spread "
                    + "over the run: lost-update:1, lost-update:100, write-skew:1.")
    String inject;

    @Option(names = "--witness",
            description = "Also write the simulated store's commit log (a witness, in commit order) beside the history, "
                    + "and time reading it and joining it with the history, as a run that captured its log does.")
    boolean witness;

    @Override
    public Integer call() throws Exception {
        HistoryFormat fmt = CheckCommand.parseFormat(format);
        if (fmt != HistoryFormat.JSONL && fmt != HistoryFormat.TEXT) {
            throw new Main.UsageException("bench writes jsonl or text"); // EDN: no sink; dbcop, cobra: read only
        }
        boolean lists = switch (kind) {
            case "mt" -> false;
            case "list-append" -> true;
            default -> throw new Main.UsageException("unknown --kind '" + kind + "': use mt or list-append");
        };
        if (lists && fmt != HistoryFormat.JSONL) throw new Main.UsageException("list-append histories are written as jsonl");
        Path f = file != null ? file : Files.createTempFile("isostress-bench", fmt == HistoryFormat.TEXT ? ".txt" : ".jsonl");
        long g0 = System.nanoTime();
        ViolationSink.Spec violations = injected();
        if (lists && violations != null) throw new Main.UsageException("--inject applies to --kind mt");
        if (witness && (violations != null || fmt != HistoryFormat.JSONL)) {
            // Injected transactions are the history's only, so the log would call their writes lost.
            throw new Main.UsageException("--witness goes with a jsonl history without --inject");
        }
        Path wf = witness ? Path.of(f + ".witness.jsonl") : null;
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(f, StandardCharsets.UTF_8), 1 << 16);
             Writer lw = wf == null ? Writer.nullWriter()
                     : new BufferedWriter(Files.newBufferedWriter(wf, StandardCharsets.UTF_8), 1 << 16)) {
            SimulatedLog log = wf == null ? null : new SimulatedLog(lw);
            if (lists) {
                ListAppendSimulation.run(new ListAppendSimulation.Config(txns, sessions, 4, reads, activeKeys, listLength,
                        random.seed), w, log);
            } else {
                TxnSink sink = fmt == HistoryFormat.TEXT ? new TextSink(w) : new JsonlSink(w);
                if (violations != null) sink = new ViolationSink(sink, violations, txns, keys);
                if (log != null) sink = new LoggingSink(sink, log);
                MiniSimulation.run(MiniSimulation.Config.serializable(txns, sessions, distribution(), random.seed), sink);
            }
        }
        long genMs = ms(g0);
        String shape = lists ? String.format(Locale.ROOT, "list-append, %d active keys of %d appends, %.0f%% reads",
                activeKeys, listLength, reads * 100) : String.format(Locale.ROOT, "%,d keys, %s", keys, dist);
        System.out.printf(Locale.ROOT, "generated %,d transactions (%d sessions, %s%s) in %,d ms: %s (%,d MB)%n",
                txns, sessions, shape, violations == null ? "" : ", injected " + violations, genMs, f,
                Files.size(f) >> 20);
        System.gc();
        HeapMeter.reset();
        long p0 = System.nanoTime(), c0 = cpuNanos();
        History h = fmt.read(f);
        long parseMs = ms(p0), parseCpuMs = (cpuNanos() - c0) / 1_000_000;
        System.out.printf(Locale.ROOT, "parse   %,8d ms  (%,d ms cpu)%n", parseMs, parseCpuMs);
        IsolationLevel valid = violations == null ? IsolationLevel.STRICT_SERIALIZABLE
                : violations.kind().strongestValid();
        long ser = time(h, IsolationLevel.SERIALIZABLE, valid);
        long serCpu = lastCpuMs;
        long si = time(h, IsolationLevel.SNAPSHOT_ISOLATION, valid);
        long siCpu = lastCpuMs;
        long psi = time(h, IsolationLevel.PARALLEL_SNAPSHOT_ISOLATION, valid);
        long psiCpu = lastCpuMs;
        long sser = h.realTime() ? time(h, IsolationLevel.STRICT_SERIALIZABLE, valid) : -1;
        long sserCpu = lastCpuMs;
        long[] join = wf == null ? null : join(h, wf, parseMs + ser, sser < 0 ? -1 : parseMs + ser + sser);
        long peak = HeapMeter.peakMb();
        System.out.printf(Locale.ROOT, "peak heap %,d MB%n", peak);
        if (file == null) {
            Files.deleteIfExists(f);
            if (wf != null) Files.deleteIfExists(wf);
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("kind", kind);
        line.put("txns", txns);
        if (violations != null) line.put("inject", violations.toString());
        line.put("parse_ms", parseMs);
        line.put("parse_cpu_ms", parseCpuMs);
        line.put("ser_cpu_ms", serCpu);
        line.put("ser_ms", ser);
        line.put("si_ms", si);
        line.put("si_cpu_ms", siCpu);
        line.put("psi_ms", psi);
        line.put("psi_cpu_ms", psiCpu);
        line.put("sser_ms", sser < 0 ? null : sser);
        line.put("sser_cpu_ms", sser < 0 ? null : sserCpu);
        if (join != null) {
            line.put("witness_read_ms", join[0]);
            line.put("witness_join_ms", join[1]);
        }
        line.put("peak_heap_mb", peak);
        System.out.println(JsonMapper.builder().build().writeValueAsString(line));
        return Main.VALID;
    }

    /**
     * Times reading the witness and joining it with the history (what a run that captured its log adds to its
     * check), insists that the two accounts agree (the simulation logged every commit), and prints the sum against
     * parsing and checking SER (the end-of-run check of a run at serializable) and, when timed, SER and SSER (the
     * quickstart's levels); returns {read ms, join ms}.
     */
    private static long[] join(History h, Path wf, long checkMs, long quickstartMs) throws java.io.IOException {
        System.gc();
        // In code not yet run in this JVM, as at the end of a run.
        long r0 = System.nanoTime();
        Witness w = WitnessReader.read(wf);
        long readMs = ms(r0);
        long j0 = System.nanoTime();
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        long joinMs = ms(j0), bothMs = readMs + joinMs;
        if (j.report().findingCount() > 0 || j.report().matched() != j.report().transactions()) {
            throw new IllegalStateException("the simulated log should agree with its history: " + j.report().summary());
        }
        // A run's capture reads each line as it writes it (WitnessLines), so the end of a run pays the join
        // alone; `isostress check --witness FILE` reads the file first.
        System.out.printf(Locale.ROOT, "witness read %,d ms + join %,d ms (%,d log transactions; target: the "
                + "end-of-run join at most 20%%)%n", readMs, joinMs, j.report().transactions());
        System.out.printf(Locale.ROOT, "  end of a run (join): %.1f%% of parsing and checking SER%s%n",
                100.0 * joinMs / Math.max(1, checkMs), quickstartMs < 0 ? "" : String.format(Locale.ROOT,
                        ", %.1f%% of parsing and checking SER and SSER", 100.0 * joinMs / Math.max(1, quickstartMs)));
        System.out.printf(Locale.ROOT, "  check --witness FILE (read + join): %.1f%% of parsing and checking SER%s%n",
                100.0 * bothMs / Math.max(1, checkMs), quickstartMs < 0 ? "" : String.format(Locale.ROOT,
                        ", %.1f%% of parsing and checking SER and SSER", 100.0 * bothMs / Math.max(1, quickstartMs)));
        return new long[] {readMs, joinMs};
    }

    /** CPU time of the last {@link #time} call. */
    private long lastCpuMs;

    private ViolationSink.Spec injected() {
        if (inject == null) return null;
        ViolationSink.Spec s = ViolationSink.Spec.parse(inject);
        if (s == null) {
            throw new Main.UsageException("unknown --inject '" + inject + "': use lost-update[:N] or write-skew[:N]");
        }
        return s;
    }

    /**
     * Times the check of {@code level} as {@code check --level} runs it (with the weaker levels examined when it is
     * violated), and insists on the verdict the synthetic history has by construction: valid at {@code valid} and
     * every level it implies, invalid above, never unknown.
     */
    private long time(History h, IsolationLevel level, IsolationLevel valid) {
        System.gc(); // the previous check's index is garbage: collect it outside the timed part, as JMH does
        long t0 = System.nanoTime(), c0 = cpuNanos();
        Result r = Checker.check(h, List.of(level), CheckOptions.DEFAULTS);
        long t = ms(t0);
        lastCpuMs = (cpuNanos() - c0) / 1_000_000;
        Verdict expected = valid.implies(level) ? Verdict.VALID : Verdict.INVALID;
        System.out.printf(Locale.ROOT, "%-7s %,8d ms  (%,d ms cpu)  %s%s%n", level.alias(), t, lastCpuMs,
                r.level(level).verdict().jsonName(),
                expected == Verdict.VALID ? "" : "  weakest violated: " + r.weakestViolated());
        for (var l : r.levels()) {
            Verdict want = valid.implies(l.level()) ? Verdict.VALID : Verdict.INVALID;
            if (l.verdict() != want) {
                throw new IllegalStateException("the synthetic history should be " + want.jsonName() + " at "
                        + l.level() + ": " + l.verdict().jsonName() + ", " + l.reason());
            }
        }
        return t;
    }

    private KeyDistribution distribution() {
        switch (dist.toLowerCase(Locale.ROOT)) {
            case "uniform": return new KeyDistribution.Uniform(keys);
            case "zipfian": return new KeyDistribution.Zipfian(keys, 1.0);
            case "hotspot": return new KeyDistribution.Hotspot(keys, 0.2, 0.8);
            case "exponential": return new KeyDistribution.Exponential(keys, 0.1);
            default: throw new Main.UsageException("unknown --dist '" + dist
                    + "': use uniform, zipfian, hotspot or exponential");
        }
    }

    /**
     * CPU time of the whole process (all threads, GC included): beside wall time because this machine is shared, and
     * CPU time is what a busy neighbour does not inflate.
     */
    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
