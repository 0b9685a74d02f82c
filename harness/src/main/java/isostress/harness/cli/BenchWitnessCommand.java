package isostress.harness.cli;

import com.fasterxml.jackson.databind.json.JsonMapper;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code isostress bench witness}: the committed throughput of the quickstart's campaign with the database's commit
 * log captured ({@code check.witness: true}) and without, in alternating pairs; the last line is one JSON object.
 */
@Command(name = "witness", mixinStandardHelpOptions = true,
        description = "Commits/s of the quickstart campaign with and without the commit-log capture, paired.")
public final class BenchWitnessCommand implements Callable<Integer> {
    @Option(names = "--pairs", defaultValue = "4", description = "Pairs of runs (default ${DEFAULT-VALUE}).")
    int pairs;

    @Option(names = "--txns", defaultValue = "20000", description = "Transactions per run (default ${DEFAULT-VALUE}).")
    int txns;

    @CommandLine.Mixin
    BenchServerVersionOption postgres;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (pairs < 1 || txns < 100) throw new Main.UsageException("--pairs must be at least 1, --txns at least 100");
        double[] r = isostress.harness.bench.Benchmarks.witness(postgres.version, pairs, txns,
                spec.commandLine().getOut());
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("pairs", pairs);
        line.put("transactions", txns);
        line.put("commits_per_s_without", Math.round(r[0] * 10) / 10.0);
        line.put("commits_per_s_with", Math.round(r[1] * 10) / 10.0);
        line.put("cost", Math.round((1 - r[1] / r[0]) * 1000) / 1000.0);
        line.put("median_pair_ratio", Math.round(r[2] * 1000) / 1000.0);
        spec.commandLine().getOut().println(JsonMapper.builder().build().writeValueAsString(line));
        return Main.VALID;
    }
}
