package isostress.harness.cli;

import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Verdict;
import isostress.generator.KeyDistribution;
import isostress.generator.sim.GeneralSimulation;
import isostress.generator.sim.MiniSimulation;
import isostress.harness.run.StreamingReplay;
import isostress.harness.run.StreamingReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code isostress bench streaming}: replays a history through the check while running, as fast as it goes (or at
 * {@code --rate}), and prints the transactions examined per second and the longest lag (from a transaction's
 * completion being handed over to the end of the first check that examined it). The history is a recorded one
 * (FILE, any format {@code check} reads) or simulated ({@code --simulate}: a valid execution of a simulated store,
 * written as JSONL and read back). With {@code --compare} the end-of-run check of the whole file runs afterwards and
 * its verdict is compared with the streaming one.
 */
@Command(name = "streaming", mixinStandardHelpOptions = true,
        description = "Replay a history through the check while running; print txns/s and the longest lag.")
public final class BenchStreamingCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE", description = "A recorded history.")
    Path file;

    @Option(names = "--simulate", paramLabel = "KIND",
            description = "Instead of FILE: simulate a serializable history of KIND: mini, rw-register or list-append.")
    String simulate;

    @Option(names = "--txns", paramLabel = "N", defaultValue = "1000000",
            description = "--simulate: transactions (default ${DEFAULT-VALUE}).")
    int txns;

    @Option(names = "--keys", paramLabel = "K", defaultValue = "100000",
            description = "--simulate: uniform keys (default ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--level", paramLabel = "LEVEL", split = ",", defaultValue = "serializable",
            description = "Levels checked (default ${DEFAULT-VALUE}).")
    List<String> levels;

    @Option(names = "--rate", paramLabel = "TXNS/S", defaultValue = "0",
            description = "Hand transactions over at this rate (default 0: as fast as possible).")
    double rate;

    @Option(names = "--compare", description = "Then check the whole history at the end and compare the verdicts.")
    boolean compare;

    @CommandLine.Mixin
    RandomSeedOption random;

    @Override
    public Integer call() throws Exception {
        if ((file == null) == (simulate == null)) throw new Main.UsageException("give a FILE or --simulate KIND");
        if (rate < 0) throw new Main.UsageException("--rate must be at least 0");
        List<IsolationLevel> ls = CheckCommand.parseLevels(levels);
        long r0 = System.nanoTime();
        History h = file != null ? HistoryFormat.detect(file).read(file) : simulated();
        System.out.printf(Locale.ROOT, "%s: %,d transactions, read in %,d ms%n", file != null ? file : simulate,
                h.size(), (System.nanoTime() - r0) / 1_000_000);
        System.gc();
        CheckOptions options = CheckOptions.DEFAULTS;
        StreamingReplay.Report r = StreamingReplay.replay(h, ls, options, rate);
        System.out.printf(Locale.ROOT, "streamed at %s%s: %,d of %,d completed transactions examined in %,.0f ms "
                        + "(handed over in %,.0f ms): %,.0f txns/s; longest lag %,.0f ms; %,d checks (%,d of the "
                        + "whole prefix), last prefix %,d txns; checking thread CPU %,.0f ms (%,.0f txns per CPU "
                        + "second)%n", levelNames(ls), rate > 0 ? String.format(Locale.ROOT, ", handed over at %,.0f/s",
                        rate) : "", r.examined(), r.txns(), r.doneMs(), r.fedMs(), r.perSecond(), r.maxLagMs(),
                r.checks(), r.wholeChecks(), r.lastPrefix(), r.cpuMs(),
                r.cpuMs() <= 0 ? 0 : r.examined() / (r.cpuMs() / 1000));
        StreamingReport.Detection d = r.detection();
        if (d != null) {
            System.out.printf(Locale.ROOT, "violation found while streaming: %s (%s) by %s, %,.0f ms into the replay%n",
                    d.anomaly(), d.level().cliName(), d.txn(), d.detectedNs() / 1e6);
        }
        if (r.gaveUp() != null) System.out.println("the streaming check gave up: " + r.gaveUp());
        if (!compare) return d != null ? Main.INVALID : Main.VALID;
        long c0 = System.nanoTime();
        Verdict whole = Checker.check(h, ls, options.withWeakerLevels(false)).verdict();
        Verdict streamed = d != null ? Verdict.INVALID : r.gaveUp() != null ? Verdict.UNKNOWN : whole;
        System.out.printf(Locale.ROOT, "end-of-run check of the whole history: %s in %,d ms; streaming: %s%s%n",
                whole.jsonName(), (System.nanoTime() - c0) / 1_000_000, streamed.jsonName(),
                d == null ? " (no prefix violated; the end-of-run check decides)" : "");
        if (d != null && whole != Verdict.INVALID) {
            System.out.println("DISAGREEMENT: a prefix violated a level the whole history satisfies");
            return Main.INVALID;
        }
        return whole == Verdict.INVALID ? Main.INVALID : Main.VALID;
    }

    private static String levelNames(List<IsolationLevel> ls) {
        StringBuilder sb = new StringBuilder();
        for (IsolationLevel l : ls) sb.append(sb.length() == 0 ? "" : ", ").append(l.cliName());
        return sb.toString();
    }

    /** A serializable simulated history of {@code --simulate}'s kind, written as JSONL and read back. */
    private History simulated() throws Exception {
        KeyDistribution k = new KeyDistribution.Uniform(keys);
        History h = switch (simulate) {
            case "mini" -> MiniSimulation.history(MiniSimulation.Config.serializable(txns, 20, k, random.seed));
            case "rw-register" -> GeneralSimulation.history(GeneralSimulation.Config.of(
                    GeneralSimulation.Level.SERIALIZABLE, GeneralSimulation.Workload.RW_REGISTER, txns, 20, 4, k,
                    random.seed));
            case "list-append" -> GeneralSimulation.history(GeneralSimulation.Config.of(
                    GeneralSimulation.Level.SERIALIZABLE, GeneralSimulation.Workload.LIST_APPEND, txns, 20, 4, k,
                    random.seed));
            default -> throw new Main.UsageException("unknown --simulate '" + simulate
                    + "': use mini, rw-register or list-append");
        };
        Path f = Files.createTempFile("isostress-bench-streaming", ".jsonl");
        try {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(f), 1 << 16)) {
                HistoryFormat.JSONL.write(h, out);
            }
            return HistoryFormat.JSONL.read(f);
        } finally {
            Files.deleteIfExists(f);
        }
    }
}
