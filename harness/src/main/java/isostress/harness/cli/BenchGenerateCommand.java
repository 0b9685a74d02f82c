package isostress.harness.cli;

import isostress.generator.sim.SnapshotStoreSimulation;
import isostress.generator.sim.SnapshotStoreSimulation.Format;
import isostress.generator.sim.SnapshotStoreSimulation.Store;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code isostress bench generate}: writes a simulated snapshot-isolation store's history
 * ({@link SnapshotStoreSimulation}) in a peer checker's format, so that isostress and that checker can be timed on
 * the same file (docs/bench/peers.sh).
 */
@Command(name = "generate", mixinStandardHelpOptions = true,
        description = "Write a simulated SI (or serializable, or RC) store's history as Chronos JSON or r(k,v,s,t) text.")
public final class BenchGenerateCommand implements Callable<Integer> {
    @Option(names = "--store", paramLabel = "STORE", defaultValue = "si",
            description = "si (first committer wins: SI, not serializable), ser (also aborts a transaction whose reads "
                    + "were overwritten: serializable) or rc (reads the latest committed values, no snapshot: read "
                    + "committed, not read atomic) (default ${DEFAULT-VALUE}).")
    String store;

    @Option(names = "--txns", paramLabel = "N", required = true, description = "Committed transactions.")
    int txns;

    @Option(names = "--sessions", paramLabel = "S", defaultValue = "20", description = "Sessions (default ${DEFAULT-VALUE}).")
    int sessions;

    @Option(names = "--keys", paramLabel = "K", defaultValue = "1000", description = "Keys (default ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "chronos",
            description = "chronos (TimeKiller's JSON, key-value) or text (r(k,v,s,t): MTC, PolySI, Plume, AWDIT) "
                    + "(default ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--out", paramLabel = "FILE", required = true, description = "The file to write.")
    Path out;

    @CommandLine.Mixin
    RandomSeedOption random;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Store st = switch (store) {
            case "si" -> Store.SI;
            case "ser" -> Store.SER;
            case "rc" -> Store.RC;
            default -> throw new Main.UsageException("unknown --store '" + store + "': use si, ser or rc");
        };
        Format fmt = switch (format) {
            case "chronos" -> Format.CHRONOS;
            case "text" -> Format.TEXT;
            default -> throw new Main.UsageException("unknown --format '" + format + "': use chronos or text");
        };
        if (txns < 1 || sessions < 1 || keys < 1) {
            throw new Main.UsageException("--txns, --sessions and --keys must be at least 1");
        }
        long t0 = System.nanoTime();
        SnapshotStoreSimulation.Stats stats;
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8), 1 << 16)) {
            stats = SnapshotStoreSimulation.run(SnapshotStoreSimulation.Config.of(txns, sessions, keys, st,
                    random.seed), fmt, w);
        }
        spec.commandLine().getOut().printf(Locale.ROOT, "generated %,d transactions (%s store, %d sessions, %,d keys, "
                + "%,d aborted) in %,d ms: %s (%,d MB)%n", stats.committed(), store, sessions, keys, stats.aborted(),
                (System.nanoTime() - t0) / 1_000_000, out, Files.size(out) >> 20);
        return Main.VALID;
    }
}
