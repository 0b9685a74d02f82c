package isostress.harness.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code isostress bench aborts}: abort rates at serializable as sessions grow, MT beside 20-op transactions. */
@Command(name = "aborts", mixinStandardHelpOptions = true,
        description = "Abort rates at serializable on embedded PostgreSQL: mini-transactions vs rw-register.")
public final class BenchAbortsCommand implements Callable<Integer> {
    @Option(names = "--sessions", split = ",", defaultValue = "4,8,16,24", description = "Session counts (default ${DEFAULT-VALUE}).")
    List<Integer> sessions;

    @Option(names = "--txns", defaultValue = "20000", description = "Transactions per run (default ${DEFAULT-VALUE}).")
    int txns;

    @Option(names = "--keys", defaultValue = "1000", description = "Keys (default ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--dist", defaultValue = "uniform", description = "Key distribution (default ${DEFAULT-VALUE}).")
    String dist;

    @Option(names = "--ops", defaultValue = "20", description = "Ops per rw-register transaction (default ${DEFAULT-VALUE}).")
    int ops;

    @CommandLine.Mixin
    BenchServerVersionOption postgres;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        isostress.harness.bench.Benchmarks.aborts(postgres.version, sessions, txns, keys, dist, ops, spec.commandLine().getOut());
        return Main.VALID;
    }
}
