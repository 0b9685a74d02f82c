package isostress.harness.report;

import isostress.harness.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** report.html from a small run directory: verdict, counterexamples and their graphs, charts, faults, escaping. */
class HtmlReportTest {
    @TempDir
    Path dir;

    @Test
    void firstViolationAndItsDetectionAreSaidUnderTheVerdict() throws Exception {
        Path runDir = RunDirFixture.write(dir, true);
        Path results = runDir.resolve("results.json");
        String streamed = Files.readString(results).replaceFirst("\\{", "{\"first_violation\": {\"at_ms\": 460.4, "
                + "\"txn\": \"T472\", \"anomaly\": \"G-single\", \"found\": \"while running\", \"latency_ms\": 81.0},");
        Files.writeString(results, streamed);
        String html = Files.readString(HtmlReport.write(runDir));
        assertTrue(html.contains("First violation: T472 (G-single) completed at 0.46 s, detected 0.08 s later while running"),
                html.substring(0, Math.min(html.length(), 3000)));
        assertTrue(html.indexOf("First violation") < html.indexOf("id=\"anomalies\""), "under the verdict");

        Files.writeString(results, streamed.replace(", \"latency_ms\": 81.0", "")
                .replace("\"while running\"", "\"by the end-of-run check\""));
        html = Files.readString(HtmlReport.write(runDir));
        assertTrue(html.contains("completed at 0.46 s or earlier (the end-of-run check"), "an upper bound, said so");
    }

    /** The counterexample found while running comes first, before the end-of-run check's list. */
    @Test
    void theCounterexampleFoundWhileRunningIsShownFirst() throws Exception {
        Path runDir = RunDirFixture.write(dir, true);
        Path results = runDir.resolve("results.json");
        String streamed = Files.readString(results).replaceFirst("\\{", "{\"streaming\": {\"checks\": 2, "
                + "\"counterexample\": {\"name\": \"G2-item\", \"type\": \"G2-item\", \"level\": \"serializable\", "
                + "\"explanation\": \"found while running\", \"txns\": [{\"id\": 305, "
                + "\"process\": 1, \"outcome\": \"ok\", \"ops\": [[\"r\", 1, 0]]}], \"steps\": []}},");
        Files.writeString(results, streamed);
        String html = Files.readString(HtmlReport.write(runDir));
        int first = html.indexOf("First counterexample, found while running");
        assertTrue(first > html.indexOf("id=\"anomalies\""), html.substring(0, Math.min(html.length(), 3000)));
        assertTrue(html.indexOf("<article class=\"anomaly\" id=\"first\">\n<h3>G2-item") > first, "shown first");
        assertTrue(html.indexOf("found while running</p>") < html.indexOf("id=\"a1\""), "before the numbered list");
        assertTrue(html.contains("Found by the end-of-run check:"));
    }

    /** A real sql run (configs/sql-mixed.yaml, seed 1): its SQL counterexample, the per-level aborts, the charts. */
    @Test
    void sqlRunsShowTheirPredicateCounterexamplesAndLevels() throws Exception {
        for (String f : new String[] {"results.json", "history.jsonl"}) {
            try (java.io.InputStream in = HtmlReportTest.class.getResourceAsStream("sql/" + f)) {
                Files.copy(in, dir.resolve(f));
            }
        }
        String html = Files.readString(HtmlReport.write(dir));
        assertTrue(html.contains("<div class=\"verdict invalid\">INVALID</div>"));
        assertTrue(html.contains("<td>own</td><td class=\"v-valid\">valid</td>"), "own levels valid");
        assertTrue(html.contains("1. commit-order-cycle <span class=\"lvl\">violates serializable</span>"), html);
        assertTrue(html.contains("cycle in so ∪ wr ∪ saturated co: every commit order would need T16 &lt; T26 &lt; T16"),
                "the SQL checker's kind and message");
        assertTrue(html.contains("UPDATE acct (s2-t8-1) WHERE grp = 0 AND NOT deleted"), "the statements in Let");
        assertTrue(html.contains("So T16 &lt; T26 &lt; T16 in every commit order: a contradiction!"), "the steps, escaped");
        assertTrue(html.contains("<th>level</th><th>attempted</th>") && html.contains("<td class=\"mono\">rc</td><td>12</td>"),
                "aborts per isolation level");
        HistoryTimeline t = HistoryTimeline.read(dir.resolve("history.jsonl"), 10_000_000L);
        double[] ok = t.commitsPerSecond(), fail = t.abortsPerSecond();
        double commits = 0, aborts = 0;
        for (int i = 0; i < ok.length; i++) {
            long w = t.bucketNanos(), from = i * w;
            double seconds = (i < ok.length - 1 ? w : Math.max(t.lastTime() - from, w / 10)) / 1e9; // last: partial
            commits += ok[i] * seconds;
            aborts += fail[i] * seconds;
        }
        assertEquals(26, Math.round(commits), "the sql history's 26 commits, from its txn lines");
        assertEquals(4, Math.round(aborts));
        assertEquals(0, t.skipped());
    }

    @Test
    void verdictCounterexamplesChartsAndLinks() throws Exception {
        Path out = HtmlReport.write(RunDirFixture.write(dir, true));
        assertEquals(dir.resolve("report.html"), out);
        String html = Files.readString(out);
        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertTrue(html.contains("<div class=\"verdict invalid\">INVALID</div>"), "the verdict, big");
        assertTrue(html.contains("Weakest level violated: <b>read-atomic</b>"));
        assertTrue(html.contains("<td>snapshot-isolation</td><td class=\"v-invalid\">invalid</td>"), "the per-level table");
        // Verdict first, then counterexamples, charts, aborts per shape, files.
        int verdict = html.indexOf("id=\"verdict\""), anomalies = html.indexOf("id=\"anomalies\""),
                timeline = html.indexOf("id=\"timeline\""), aborts = html.indexOf("id=\"aborts\""), files = html.indexOf("id=\"files\"");
        assertTrue(0 < verdict && verdict < anomalies && anomalies < timeline && timeline < aborts && aborts < files);

        // Each counterexample, with its explanation (escaped: "T460 < T472") and a graph of its transactions.
        for (String name : new String[] {"internal", "G-single", "lost-update"}) assertTrue(html.contains(". " + name + " <span"), name);
        assertTrue(html.contains("T460 &lt; T472 because T460 read key 2 = 1129"));
        assertFalse(html.contains("T460 < T472"));
        Matcher graph = Pattern.compile("(?s)<svg class=\"graph\".*?</svg>").matcher(html);
        assertTrue(graph.find(), "a graph");
        String g = graph.group();
        assertTrue(g.contains("T460 (p3, ok)") && g.contains("T472 (p4, ok)") && g.contains("r 2 1129"), g);
        assertTrue(g.contains("marker-end=\"url(#arrow-rw)\"") && g.contains(">rw 2=1129→403</text>") && g.contains(">wr</text>"), g);
        assertTrue(graph.find() && graph.group().contains("T55 (p1, ok)") && graph.group().contains("rw 13=24→174"), "lost update");
        assertFalse(graph.find(), "no graph for the internal anomaly, which has no edges");
        assertTrue(html.contains("<a href=\"anomalies/G-single-1.dot\">"));

        // Charts from the history, with the kill of n2 (1.0 s to 1.8 s of 3 s) shaded and labelled in both.
        assertTrue(html.contains("aria-label=\"Throughput\"") && html.contains("aria-label=\"Latency\""));
        Matcher fault = Pattern.compile("<g class=\"fault\"><title>kill n2: 1.00 s – 1.80 s</title><rect x=\"([0-9.]+)\" "
                + "y=\"26\" width=\"([0-9.]+)\"[^>]*fill-opacity[^>]*/><text[^>]*>kill n2</text></g>").matcher(html);
        assertTrue(fault.find(), "a shaded fault");
        double x = Double.parseDouble(fault.group(1)), w = Double.parseDouble(fault.group(2));
        double plot = 1000 - 64 - 16, end = 2.99; // the chart's plot width; the history's last event (s)
        assertEquals(64 + plot * 1.0 / end, x, 15);
        assertEquals(plot * 0.8 / end, w, 15);
        assertTrue(fault.find(), "shaded in the latency chart too");
        assertTrue(html.contains("1 history line(s) could not be parsed"), "the cut-short last line is skipped");

        // Aborts per shape, and the rest of the page.
        assertTrue(html.contains("<td class=\"mono\">R1W1R2W2</td><td>318</td><td>310</td><td>8</td>"));
        assertTrue(html.contains("2.52%"));
        for (String f : new String[] {"history.jsonl", "results.json", "campaign.yaml", "anomalies/", "logs/"}) {
            assertTrue(html.contains("<a href=\"" + f + "\">"), f);
        }
        // Text from outside is escaped wherever it appears.
        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;"));
        assertFalse(html.contains("<script"), "no script at all");
        assertFalse(html.contains("http://") && html.replace("http://www.w3.org/2000/svg", "").contains("http://"), "nothing fetched");
    }

    @Test
    void faultsFromTheNemesisEventsWhenResultsHaveNone() throws Exception {
        String html = Files.readString(HtmlReport.write(RunDirFixture.write(dir, false)));
        assertTrue(html.contains("<g class=\"fault\"><title>kill n2: 1.00 s – 1.80 s</title>"), "from start-kill / stop-kill");
    }

    @Test
    void timelineMeasuresRatesAndLatencies() throws Exception {
        RunDirFixture.write(dir, true);
        HistoryTimeline t = HistoryTimeline.read(dir.resolve("history.jsonl"), 100_000_000L);
        assertEquals(100_000_000L, t.bucketNanos());
        double[] commits = t.commitsPerSecond(), p50 = t.latencyMs(0.5);
        // 40 per second commit or abort (2 sessions × 20), 1 in 10 aborts; 8 ms latency, 40 ms while n2 is down.
        assertEquals(36, commits[5], 10);
        assertEquals(8, p50[5], 0.5);
        assertEquals(40, p50[14], 2);
        assertEquals(1, t.skipped());
        // Buckets double when the history is longer than MAX_BUCKETS of them: bounded, whatever the run length.
        HistoryTimeline fine = HistoryTimeline.read(dir.resolve("history.jsonl"), 1_000_000L);
        assertTrue(fine.buckets().size() <= HistoryTimeline.MAX_BUCKETS);
        assertEquals(4_000_000L, fine.bucketNanos());
    }

    @Test
    void reportCommandWritesAndPrintsThePath() throws Exception {
        RunDirFixture.write(dir, true);
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter(), err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        assertEquals(0, cl.execute("report", dir.toString()), err.toString());
        assertEquals(dir.resolve("report.html").toString(), out.toString().trim());
        assertTrue(Files.size(dir.resolve("report.html")) > 10_000);
        assertEquals(Main.BAD_INPUT, cl.execute("report", dir.resolve("nothing-here").toString()));
        assertTrue(err.toString().contains("not a run directory"), err.toString());
    }
}
