package isostress.harness.run;

import isostress.harness.db.Secrets;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's directory (docs/design-principles.md, "Run directory"): {@code store/<campaign>/<yyyyMMddTHHmmss>/} with the resolved
 * campaign, the history, the results, the anomalies and the logs; {@code store/latest} links to the newest.
 */
public final class RunDirectory {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss");
    /** What a run leaves, in the order the closing line names it (a trailing slash marks a directory). */
    private static final List<String> OUTPUTS = List.of("history.jsonl", "witness.jsonl", "results.json", "report.html", "anomalies/",
            "logs/");
    private final Path dir;

    private RunDirectory(Path dir) {
        this.dir = dir;
    }

    /** Creates a new run directory for {@code campaign} under {@code store} and points store/latest at it. */
    public static RunDirectory create(Path store, String campaign) throws IOException {
        Path parent = store.resolve(campaign);
        Files.createDirectories(parent);
        String base = LocalDateTime.now().format(STAMP);
        Path dir = parent.resolve(base);
        for (int i = 2; ; i++) {
            try {
                Files.createDirectory(dir);
                break;
            } catch (FileAlreadyExistsException e) {
                dir = parent.resolve(base + "-" + i);
            }
        }
        Files.createDirectories(dir.resolve("logs"));
        Path latest = store.resolve("latest");
        Files.deleteIfExists(latest);
        Files.createSymbolicLink(latest, store.relativize(dir));
        return new RunDirectory(dir);
    }

    public Path path() {
        return dir;
    }

    public Path history() {
        return dir.resolve("history.jsonl");
    }

    /** The database's commit log captured during the run ({@code check.witness}). */
    public Path witness() {
        return dir.resolve("witness.jsonl");
    }

    /** Each second's latency histograms (HdrHistogram log, {@link RunStats}): the report's latency chart. */
    public Path latencyLog() {
        return dir.resolve("latency.hlog");
    }

    public Path results() {
        return dir.resolve("results.json");
    }

    public Path logs() {
        return dir.resolve("logs");
    }

    /**
     * The closing line of a run, {@code run directory: <path>  (history.jsonl, results.json, ...)}, naming only the
     * outputs that exist: a run that stopped early may have no history or results, and a report that failed to
     * render leaves no report.html.
     */
    public String closingLine() {
        List<String> present = new ArrayList<>();
        for (String name : OUTPUTS) {
            if (Files.exists(dir.resolve(name))) present.add(name);
        }
        return "run directory: " + dir + (present.isEmpty() ? "" : "  (" + String.join(", ", present) + ")");
    }

    /** Writes the campaign as given, its secrets masked ({@link Secrets}). */
    public void writeCampaign(String yaml) throws IOException {
        Files.writeString(dir.resolve("campaign.yaml"), Secrets.mask(yaml));
    }
}
