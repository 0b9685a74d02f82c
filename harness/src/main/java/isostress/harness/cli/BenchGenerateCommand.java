package isostress.harness.cli;

import isostress.generator.sim.ListAppendStoreSimulation;
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
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code isostress bench generate}: writes a simulated snapshot-isolation store's history, of read-write registers
 * ({@link SnapshotStoreSimulation}) or of list appends ({@link ListAppendStoreSimulation}), in a peer checker's
 * format, so that isostress and that checker can be timed on the same file (docs/bench/peers.sh).
 */
@Command(name = "generate", mixinStandardHelpOptions = true,
        description = "Write a simulated SI (or serializable, or RC) store's history: read-write registers as Chronos "
                + "JSON or r(k,v,s,t) text, list appends as Chronos JSON or JSON lines.")
public final class BenchGenerateCommand implements Callable<Integer> {
    /** Lists of list-append keys are kept this short unless told otherwise (Jepsen's workload retires at 100 too). */
    static final int DEFAULT_APPENDS_PER_KEY = 100;

    @Option(names = "--workload", paramLabel = "W", defaultValue = "rw-register",
            description = "rw-register (reads and writes of single values) or list-append (appends of values unique "
                    + "per key, reads of whole lists) (default ${DEFAULT-VALUE}).")
    String workload;

    @Option(names = "--appends-per-key", paramLabel = "N",
            description = "list-append only: a key is retired, replaced by a fresh one, after N appends, so that "
                    + "lists stay short (default " + DEFAULT_APPENDS_PER_KEY + ").")
    Integer appendsPerKey;
    @Option(names = "--store", paramLabel = "STORE", defaultValue = "si",
            description = "si (first committer wins: SI, not serializable), ser (also aborts a transaction whose reads "
                    + "were overwritten: serializable) or rc (reads the latest committed values, no snapshot: read "
                    + "committed, not read atomic) (default ${DEFAULT-VALUE}).")
    String store;

    @Option(names = "--txns", paramLabel = "N", required = true, description = "Committed transactions.")
    int txns;

    @Option(names = "--sessions", paramLabel = "S", defaultValue = "20", description = "Sessions (default ${DEFAULT-VALUE}).")
    int sessions;

    @Option(names = "--keys", paramLabel = "K", defaultValue = "1000",
            description = "Keys (in use at any time, for list-append) (default ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "chronos",
            description = "chronos (TimeKiller's JSON), text (r(k,v,s,t): MTC, PolySI, Plume, AWDIT; rw-register "
                    + "only) or jsonl (isostress's JSON lines; list-append only) (default ${DEFAULT-VALUE}).")
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
        boolean lists = switch (workload) {
            case "rw-register" -> false;
            case "list-append" -> true;
            default -> throw new Main.UsageException("unknown --workload '" + workload
                    + "': use rw-register or list-append");
        };
        if (!List.of("chronos", "text", "jsonl").contains(format)) {
            throw new Main.UsageException("unknown --format '" + format + "': use chronos, text or jsonl");
        }
        if (format.equals(lists ? "text" : "jsonl")) {
            throw new Main.UsageException("--format " + format + " does not hold " + workload + " histories: use "
                    + (lists ? "chronos or jsonl" : "chronos or text"));
        }
        if (!lists && appendsPerKey != null) {
            throw new Main.UsageException("--appends-per-key is for --workload list-append");
        }
        int perKey = appendsPerKey == null ? DEFAULT_APPENDS_PER_KEY : appendsPerKey;
        if (txns < 1 || sessions < 1 || keys < 1 || perKey < 1) {
            throw new Main.UsageException("--txns, --sessions, --keys and --appends-per-key must be at least 1");
        }
        long t0 = System.nanoTime();
        SnapshotStoreSimulation.Stats stats;
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8), 1 << 16)) {
            stats = lists
                    ? ListAppendStoreSimulation.run(ListAppendStoreSimulation.Config.of(txns, sessions, keys, perKey,
                            st, random.seed), format.equals("chronos") ? ListAppendStoreSimulation.Format.CHRONOS
                            : ListAppendStoreSimulation.Format.JSONL, w)
                    : SnapshotStoreSimulation.run(SnapshotStoreSimulation.Config.of(txns, sessions, keys, st,
                            random.seed), format.equals("chronos") ? Format.CHRONOS : Format.TEXT, w);
        }
        spec.commandLine().getOut().printf(Locale.ROOT, "generated %,d transactions (%s store%s, %d sessions, %,d keys, "
                + "%,d aborted) in %,d ms: %s (%,d MB)%n", stats.committed(), store, lists ? ", list-append" : "",
                sessions, keys, stats.aborted(),
                (System.nanoTime() - t0) / 1_000_000, out, Files.size(out) >> 20);
        return Main.VALID;
    }
}
