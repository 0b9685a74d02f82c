package isostress.harness.cli;

import com.fasterxml.jackson.databind.json.JsonMapper;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code isostress bench pgbench}: the harness's committed mini-transaction throughput against pgbench running the
 * same shapes on the same embedded PostgreSQL, in its simple and its prepared query mode; medians of paired rounds.
 * Needs pgbench (Debian: postgresql-client). The JSON line's {@code pgbench_tps} and {@code ratio} are the simple
 * mode's (as before), {@code pgbench_prepared_tps} and {@code ratio_prepared} the prepared mode's.
 */
@Command(name = "pgbench", mixinStandardHelpOptions = true,
        description = "Compare isostress's committed MT throughput with pgbench's on the same server and shapes.")
public final class BenchPgbenchCommand implements Callable<Integer> {
    @Option(names = "--sessions", defaultValue = "8", description = "Clients (default ${DEFAULT-VALUE}).")
    int sessions;

    @Option(names = "--seconds", defaultValue = "20", description = "Seconds per side (default ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--keys", defaultValue = "1000", description = "Uniform keys (default ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--runs", defaultValue = "3", description = "Rounds, each isostress then pgbench -M simple then "
            + "-M prepared; medians reported (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--isolation", defaultValue = "serializable", description = "Isolation (default ${DEFAULT-VALUE}).")
    String isolation;

    @CommandLine.Mixin
    BenchServerVersionOption postgres;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || sessions < 1 || seconds < 1 || keys < 2) {
            throw new Main.UsageException("--runs, --sessions and --seconds must be at least 1, --keys at least 2");
        }
        double[] r;
        try {
            r = isostress.harness.bench.Benchmarks.pgbench(postgres.version, sessions, seconds, keys, isolation, runs,
                    spec.commandLine().getOut());
        } catch (java.io.IOException e) {
            if (String.valueOf(e.getMessage()).contains("pgbench") && e.getCause() == null
                    && e.getMessage().contains("Cannot run program")) {
                throw new Main.UsageException("pgbench is missing: apt-get install -y postgresql-client");
            }
            throw e;
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("sessions", sessions);
        line.put("runs", runs);
        line.put("isostress_commits_per_s", Math.round(r[0] * 10) / 10.0);
        line.put("pgbench_tps", Math.round(r[1] * 10) / 10.0);
        line.put("pgbench_prepared_tps", Math.round(r[2] * 10) / 10.0);
        line.put("ratio", Math.round(r[3] * 1000) / 1000.0);
        line.put("ratio_prepared", Math.round(r[4] * 1000) / 1000.0);
        spec.commandLine().getOut().println(JsonMapper.builder().build().writeValueAsString(line));
        return Main.VALID;
    }
}
