package isostress.harness.cli;

import isostress.harness.report.HtmlReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code isostress report RUN_DIR}: (re)writes a run directory's report.html. Every run writes one at its end; this
 * is for runs recorded before the report existed, runs whose report failed, or after results.json was re-made
 * with {@code check}.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Write RUN_DIR/report.html: verdict, counterexample graphs, throughput and latency charts.")
public final class ReportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "A run directory (with results.json and history.jsonl).")
    Path run;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(run)) throw new Main.UsageException(run + ": not a run directory");
        if (!Files.isRegularFile(run.resolve("results.json"))) {
            throw new Main.UsageException(run + ": no results.json (is it a run directory?)");
        }
        Path written = HtmlReport.write(run);
        spec.commandLine().getOut().println(written);
        spec.commandLine().getOut().flush();
        return 0;
    }
}
