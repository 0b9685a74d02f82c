package isostress.harness.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A run's closing line names the files the run directory holds, report.html included. */
class RunDirectoryTest {
    @TempDir
    Path store;

    @Test
    void closingLineNamesOnlyWhatExists() throws Exception {
        RunDirectory d = RunDirectory.create(store, "c");
        assertEquals("run directory: " + d.path() + "  (logs/)", d.closingLine());
        Files.writeString(d.history(), "");
        Files.writeString(d.path().resolve("report.html"), "");
        assertEquals("run directory: " + d.path() + "  (history.jsonl, report.html, logs/)", d.closingLine());
        Files.writeString(d.results(), "{}");
        Files.createDirectories(d.path().resolve("anomalies"));
        assertEquals("run directory: " + d.path() + "  (history.jsonl, results.json, report.html, anomalies/, logs/)",
                d.closingLine());
    }

    @Test
    void aRunOnEmbeddedPostgresListsItsReport() throws Exception {
        var c = Campaigns.parse(store, "name: closing\n"
                + "database: {type: postgresql, provision: embedded, isolation: read-committed}\n"
                + "workload: {type: mini, sessions: 8, transactions: 2000, keys: 10, distribution: zipfian, seed: 7}\n"
                + "check: {levels: [snapshot-isolation]}\n");
        StringWriter sw = new StringWriter();
        RunOutcome o = new CampaignRunner(c, new PrintWriter(sw), false).run(0, c.workload().seed());
        assertNull(o.error(), o.error());
        Matcher m = Pattern.compile("run directory: (\\S+)  \\(([^)]*)\\)").matcher(sw.toString());
        assertTrue(m.find(), sw.toString());
        Path dir = Path.of(m.group(1));
        assertEquals(o.dir().path(), dir);
        String[] listed = m.group(2).split(", ");
        for (String name : listed) assertTrue(Files.exists(dir.resolve(name)), name + " listed but missing in " + dir);
        // Read committed loses updates on ten hot keys, so the counterexamples are there too; embedded PostgreSQL
        // captures its commit log by default (check.witness).
        assertEquals("history.jsonl, witness.jsonl, results.json, report.html, anomalies/, logs/", m.group(2),
                sw.toString());
    }
}
