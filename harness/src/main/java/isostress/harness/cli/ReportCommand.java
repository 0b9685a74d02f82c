package isostress.harness.cli;

import isostress.harness.report.HtmlReport;
import isostress.harness.run.KilledRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code isostress report RUN_DIR}: (re)writes a run directory's report.html. Every run writes one at its end; this
 * is for runs recorded before the report existed, runs whose report failed, or after results.json was re-made
 * with {@code check}; and for runs that never ended (the harness was killed, so there is no results.json): their
 * history is checked and the report says the run did not finish ({@link KilledRun}).
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Write RUN_DIR/report.html: verdict, counterexample graphs, throughput and latency charts.")
public final class ReportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "A run directory (with history.jsonl, and results.json unless the run was killed).")
    Path run;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(run)) throw new Main.UsageException(run + ": not a run directory");
        Path written;
        if (Files.isRegularFile(run.resolve("results.json"))) {
            written = HtmlReport.write(run);
        } else if (Files.isRegularFile(run.resolve("history.jsonl"))) {
            // A run that never ended (its harness was killed): checked from what it recorded.
            com.fasterxml.jackson.databind.JsonNode root = KilledRun.results(run);
            spec.commandLine().getOut().println("isostress: " + run + " has no results.json: "
                    + root.path("error").asText() + " Verdict: " + root.path("check").path("verdict").asText());
            written = HtmlReport.write(run, root);
        } else {
            throw new Main.UsageException(run + ": no results.json and no history.jsonl (is it a run directory?)");
        }
        spec.commandLine().getOut().println(written);
        spec.commandLine().getOut().flush();
        return 0;
    }
}
