package isostress.harness.cli;

import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code isostress export --to edn|text RUN_DIR}: the run's history in a format other checkers read, so Jepsen's
 * elle-cli (EDN) and MTC / PolySI / IsoVista (text) can re-check what isostress recorded. Written next to the
 * history ({@code history.edn}, {@code history.txt}) unless {@code --out} says otherwise ({@code -}: stdout).
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Write a run's history as Jepsen EDN or MTC/PolySI text, for other checkers.")
public final class ExportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "A run directory (or a history.jsonl file).")
    Path run;

    @Option(names = "--to", paramLabel = "FORMAT", required = true, description = "edn or text.")
    String to;

    @Option(names = "--out", paramLabel = "FILE", description = "Where to write (default: next to the history; - for stdout).")
    String out;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        HistoryFormat format = HistoryFormat.byName(to.toLowerCase(Locale.ROOT));
        if (format == null || !format.canWrite() || format == HistoryFormat.JSONL) {
            throw new Main.UsageException("--to must be edn or text, was '" + to + "'");
        }
        Path history = Files.isDirectory(run) ? run.resolve("history.jsonl") : run;
        if (!Files.exists(history)) throw new Main.UsageException(history + ": no such history");
        History h = HistoryFormat.JSONL.read(history);
        PrintWriter pw = spec.commandLine().getOut();
        if ("-".equals(out)) {
            pw.flush();
            format.write(h, System.out);
            System.out.flush();
            return 0;
        }
        Path target = out != null ? Path.of(out)
                : history.resolveSibling("history." + (format == HistoryFormat.EDN ? "edn" : "txt"));
        try (OutputStream os = Files.newOutputStream(target)) {
            format.write(h, os);
        }
        pw.printf("wrote %,d transactions to %s (%s)%n", h.size(), target, format == HistoryFormat.EDN
                ? "Jepsen EDN: elle-cli --model list-append|rw-register " + target.getFileName()
                : "MTC/PolySI text");
        return 0;
    }
}
