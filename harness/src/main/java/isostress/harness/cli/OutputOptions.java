package isostress.harness.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** Where and how results go: shared by the commands that produce results. */
public final class OutputOptions {
    @Option(names = "--json", description = "Print the result as JSON instead of text.")
    public boolean json;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Also write DIR/results.json and DIR/anomalies/<anomaly>-<n>.txt and .dot.")
    public Path out;
}
