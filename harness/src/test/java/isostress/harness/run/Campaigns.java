package isostress.harness.run;

import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;
import isostress.harness.db.Provision;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/** Campaigns for tests: YAML text in, outcome out. */
final class Campaigns {
    private Campaigns() {
    }

    static Campaign parse(Path store, String yaml) {
        return parse(store, yaml, null);
    }

    /** With {@code database.provision} replaced as {@code isostress run --provision} replaces it (null: as written). */
    static Campaign parse(Path store, String yaml, Provision provision) {
        return CampaignLoader.parse(Path.of("test.yaml"), yaml + "\nstore: " + store + "\n", provision);
    }

    /**
     * Copies a run's directory (history, results, anomalies, logs) to {@code target/kept-runs/} of the module, where
     * CI artifacts and a person find it after the test's temporary store is gone; returns the copy's path.
     */
    static Path keep(RunOutcome o) throws IOException {
        Path from = o.dir().path();
        Path to = Path.of("target", "kept-runs", from.getParent().getFileName() + "-" + from.getFileName())
                .toAbsolutePath();
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (Files.isSymbolicLink(f)) continue;
                Path t = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(t);
                else Files.copy(f, t, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return to;
    }

    /**
     * The failure message for a violation that may be a database's known rare anomaly: what was found, the finding it
     * may be, and where the run directory was kept ({@link #keep}) for a person to look.
     */
    static String possiblyKnownFinding(RunOutcome o, String database, String finding) throws IOException {
        return database + " let a violation through (" + o.result().anomalyCounts() + "; counterexample above). "
                + "It may be the known rare PostgreSQL SSI finding, " + finding + ", which this test's campaign is "
                + "sized to make rare (see the test's Javadoc), or a bug of ours; the run directory is kept at "
                + keep(o) + " (history.jsonl, anomalies/, logs/).";
    }

    static RunOutcome run(Campaign c) throws Exception {
        StringWriter sw = new StringWriter();
        RunOutcome o = new CampaignRunner(c, new PrintWriter(sw), false).run(0, c.workload().seed());
        System.out.print(sw);
        return o;
    }
}
