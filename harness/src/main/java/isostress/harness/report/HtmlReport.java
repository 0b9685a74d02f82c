package isostress.harness.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static isostress.harness.report.Html.esc;
import static isostress.harness.report.Html.num;

/**
 * {@code report.html}: one run for people, in one self-contained file (inline CSS and SVG, no script, nothing
 * fetched) that any browser opens offline and that can be mailed or attached to a bug report as it is. It reads
 * what the run already wrote: results.json (verdicts, counterexamples with their edges, statistics, faults) and
 * history.jsonl, streamed once for the charts. Order follows what a reader asks first: is it valid, then why not
 * (the counterexamples), then how the run went (throughput and latency with faults shaded, aborts per shape), then
 * where the raw files are.
 */
public final class HtmlReport {
    /** The file written in the run directory. */
    public static final String FILE = "report.html";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Counterexamples of one name shown open; the rest are folded. */
    private static final int OPEN_PER_NAME = 2;

    private HtmlReport() {
    }

    /** Writes {@code runDir/report.html} from the run's results.json and history.jsonl; returns its path. */
    public static Path write(Path runDir) throws IOException {
        Path results = runDir.resolve("results.json");
        if (!Files.isRegularFile(results)) throw new java.nio.file.NoSuchFileException(results.toString());
        return write(runDir, MAPPER.readTree(results.toFile()));
    }

    /** Writes {@code runDir/report.html} from {@code root} (results.json's layout) and history.jsonl. */
    public static Path write(Path runDir, JsonNode root) throws IOException {
        HistoryTimeline timeline = null;
        Path history = runDir.resolve("history.jsonl");
        if (Files.isRegularFile(history)) {
            timeline = HistoryTimeline.read(history, bucketNanos(root.path("stats").path("seconds").asDouble(0)));
        }
        Path out = runDir.resolve(FILE), tmp = runDir.resolve(FILE + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write(render(runDir, root, timeline));
        }
        Files.move(tmp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return out;
    }

    /**
     * Chart buckets: a second, as people read rates, when the run is long enough for that to show a shape; for
     * short runs (a 5,000-transaction run takes about a second) a tenth or less of it, still as rates per second.
     */
    static long bucketNanos(double seconds) {
        if (seconds <= 0 || seconds >= 30) return 1_000_000_000L;
        for (long ms : new long[] {10, 20, 50, 100, 200, 500}) if (seconds * 1000 / ms <= 40) return ms * 1_000_000L;
        return 1_000_000_000L;
    }

    static String render(Path runDir, JsonNode root, HistoryTimeline timeline) {
        StringBuilder b = new StringBuilder(64 * 1024);
        String campaign = root.path("campaign").asText("run");
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
                .append(esc(campaign)).append(" — isostress report</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        b.append("<h1>isostress report: ").append(esc(campaign)).append("</h1>\n");
        meta(b, root);
        b.append("<nav><a href=\"#verdict\">verdict</a> · <a href=\"#anomalies\">counterexamples</a> · "
                + "<a href=\"#timeline\">throughput and latency</a> · <a href=\"#aborts\">aborts per shape</a> · "
                + "<a href=\"#files\">files</a></nav>\n");
        verdict(b, root.path("check"), root.path("first_violation"));
        WitnessSection.append(b, root.path("check").path("witness"), runDir);
        counterexamples(b, runDir, root.path("check"), root.path("streaming").path("counterexample"));
        timeline(b, root, timeline, LatencyLog.read(runDir));
        shapes(b, root.path("stats"));
        links(b, runDir);
        return b.append("</body>\n</html>\n").toString();
    }

    private static void meta(StringBuilder b, JsonNode root) {
        b.append("<p class=\"meta\">");
        List<String> parts = new ArrayList<>();
        if (root.has("run")) parts.add("run " + root.path("run").asText());
        if (root.has("seed")) parts.add("seed " + root.path("seed").asText());
        if (root.has("database")) parts.add(root.path("database").asText());
        if (root.has("isolation")) parts.add("isolation " + root.path("isolation").asText());
        JsonNode w = root.path("workload");
        if (w.isObject()) {
            parts.add(w.path("type").asText() + " workload, " + w.path("sessions").asText() + " sessions, "
                    + num(w.path("transactions").asDouble()) + " transactions, " + w.path("keys").asText() + " keys"
                    + (w.has("distribution") ? ", " + w.path("distribution").asText() : "")
                    + (w.has("isolation_mix") ? ", levels " + w.path("isolation_mix") : ""));
        }
        for (int i = 0; i < parts.size(); i++) b.append(i == 0 ? "" : " · ").append(esc(parts.get(i)));
        b.append("</p>\n");
        if (root.has("error")) {
            b.append("<p class=\"error\">The run stopped early: ").append(esc(root.path("error").asText())).append("</p>\n");
        }
    }

    private static void verdict(StringBuilder b, JsonNode check, JsonNode first) {
        String v = check.path("verdict").asText("unknown").toLowerCase(Locale.ROOT);
        String cls = v.equals("valid") ? "valid" : v.equals("invalid") ? "invalid" : "unknown";
        b.append("<section id=\"verdict\">\n<div class=\"verdict ").append(cls).append("\">")
                .append(esc(v.toUpperCase(Locale.ROOT))).append("</div>\n");
        JsonNode weakest = check.path("weakest_violated");
        if (weakest.isArray() && weakest.size() > 0) {
            b.append("<p class=\"weakest\">Weakest level violated: <b>").append(esc(weakest.get(0).asText())).append("</b></p>\n");
        }
        if (check.has("reason")) b.append("<p>").append(esc(check.path("reason").asText())).append("</p>\n");
        if (first.isObject()) {
            // When the run went wrong, and how soon isostress noticed: the figure bug hunts are judged by.
            boolean streamed = first.has("latency_ms");
            b.append("<p class=\"first\">First violation: ").append(esc(first.path("txn").asText()))
                    .append(" (").append(esc(first.path("anomaly").asText())).append(") completed at ")
                    .append(esc(String.format(Locale.ROOT, "%.2f s", first.path("at_ms").asDouble() / 1000)))
                    .append(streamed ? String.format(Locale.ROOT, ", detected %.2f s later while running",
                            first.path("latency_ms").asDouble() / 1000)
                            : " or earlier (the end-of-run check's earliest listed counterexample)")
                    .append("</p>\n");
        }
        JsonNode levels = check.path("levels");
        if (levels.isObject() && levels.size() > 0) {
            b.append("<table class=\"levels\"><tr><th>level</th><th>verdict</th><th>reason</th><th>how</th></tr>\n");
            for (Iterator<Map.Entry<String, JsonNode>> it = levels.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String lv = e.getValue().path("verdict").asText("unknown");
                b.append("<tr><td>").append(esc(e.getKey())).append("</td><td class=\"v-").append(esc(lv)).append("\">")
                        .append(esc(lv)).append("</td><td>").append(esc(e.getValue().path("reason").asText(""))).append("</td><td class=\"small\">")
                        .append(esc(e.getValue().path("algorithm").asText(""))).append("</td></tr>\n");
            }
            b.append("</table>\n");
        }
        b.append("</section>\n");
    }

    /**
     * @param streamed the first violation found while running (results.json's {@code streaming.counterexample}),
     *                 shown first: when the run first went wrong, which the end-of-run list need not include
     */
    private static void counterexamples(StringBuilder b, Path runDir, JsonNode check, JsonNode streamed) {
        JsonNode anomalies = check.path("anomalies");
        if (!anomalies.isArray() || anomalies.isEmpty()) return;
        b.append("<section id=\"anomalies\">\n<h2>Counterexamples</h2>\n");
        if (streamed.isObject()) {
            b.append("<p>First counterexample, found while running:</p>\n");
            anomaly(b, runDir, streamed, 0, "");
            b.append("<p>Found by the end-of-run check:</p>\n");
        }
        b.append("<p>");
        JsonNode counts = check.path("anomaly_counts");
        boolean first = true;
        for (Iterator<Map.Entry<String, JsonNode>> it = counts.fields(); it.hasNext(); first = false) {
            Map.Entry<String, JsonNode> e = it.next();
            b.append(first ? "Found: " : ", ").append(esc(e.getKey())).append(" ×").append(esc(num(e.getValue().asDouble())));
        }
        b.append(first ? "" : ". ").append("Shown below: ").append(anomalies.size());
        if (check.path("anomalies_omitted").asLong() > 0) {
            b.append(" (").append(esc(num(check.path("anomalies_omitted").asDouble()))).append(" more were counted but not kept)");
        }
        b.append(".</p>\n");
        // Grouped by name (in order of first appearance): the first few of each open, the rest folded away in a
        // <details> (no script needed), so one frequent kind does not push the charts pages down.
        Map<String, List<JsonNode>> groups = new LinkedHashMap<>();
        for (JsonNode a : anomalies) groups.computeIfAbsent(a.path("name").asText("anomaly"), x -> new ArrayList<>()).add(a);
        int index = 0;
        for (Map.Entry<String, List<JsonNode>> g : groups.entrySet()) {
            List<JsonNode> list = g.getValue();
            for (int k = 1; k <= list.size(); k++) {
                if (k == OPEN_PER_NAME + 1) {
                    b.append("<details><summary>").append(list.size() - OPEN_PER_NAME).append(" more ")
                            .append(esc(g.getKey())).append(" counterexample(s)</summary>\n");
                }
                anomaly(b, runDir, list.get(k - 1), ++index, g.getKey() + "-" + k);
            }
            if (list.size() > OPEN_PER_NAME) b.append("</details>\n");
        }
        b.append("</section>\n");
    }

    private static void anomaly(StringBuilder b, Path runDir, JsonNode a, int index, String base) {
        // Index 0: the counterexample found while running, shown before the numbered list.
        b.append("<article class=\"anomaly\" id=\"").append(index == 0 ? "first" : "a" + index).append("\">\n<h3>")
                .append(index == 0 ? "" : index + ". ").append(esc(a.path("name").asText("anomaly")));
        if (a.has("alias")) b.append(" <span class=\"alias\">(").append(esc(a.path("alias").asText())).append(")</span>");
        String level = a.path("level").asText("");
        if (level.equals("own")) level = "the transactions' own levels"; // an SQL history's mixed-level check
        if (a.has("level")) b.append(" <span class=\"lvl\">violates ").append(esc(level)).append("</span>");
        b.append("</h3>\n<p class=\"explanation\">").append(esc(a.path("explanation").asText(""))).append("</p>\n");
        if (a.has("argument")) {
            argument(b, a.path("argument"));
        } else {
            txns(b, a);
        }
        List<String> files = new ArrayList<>();
        for (String ext : new String[] {".txt", ".dot"}) {
            if (Files.isRegularFile(runDir.resolve("anomalies").resolve(base + ext))) files.add(base + ext);
        }
        if (!files.isEmpty()) {
            b.append("<p class=\"small\">Files: ");
            for (int i = 0; i < files.size(); i++) {
                b.append(i == 0 ? "" : ", ").append("<a href=\"anomalies/").append(esc(href(files.get(i)))).append("\">")
                        .append(esc(files.get(i))).append("</a>");
            }
            b.append("</p>\n");
        }
        b.append("</article>\n");
    }

    /** A key-value counterexample: its transactions with their micro-ops, and the cycle drawn. */
    private static void txns(StringBuilder b, JsonNode a) {
        b.append("<div class=\"cx\"><table class=\"txns\"><tr><th>txn</th><th>process</th><th>outcome</th><th>ops</th><th>history line</th></tr>\n");
        for (JsonNode t : a.path("txns")) {
            StringBuilder ops = new StringBuilder();
            for (JsonNode op : t.path("ops")) {
                ops.append(ops.length() == 0 ? "" : ", ").append("<span class=\"op\">").append(esc(SvgGraph.opText(op))).append("</span>");
            }
            b.append("<tr><td>T").append(esc(t.path("id").asText())).append("</td><td>").append(esc(t.path("process").asText()))
                    .append("</td><td>").append(esc(t.path("outcome").asText())).append("</td><td class=\"ops\">")
                    .append(ops).append("</td><td>").append(esc(t.path("line").asText(""))).append("</td></tr>\n");
        }
        b.append("</table>\n");
        // A transaction that contradicts itself (an internal anomaly) has no edges: the table says it all.
        if (a.path("steps").size() > 0) b.append(SvgGraph.render(a));
        b.append("</div>\n");
    }

    /**
     * A counterexample told in sentences (isostress-sql histories): the transactions with their statements and rows
     * ("Let"), then the steps to the contradiction ("However").
     */
    private static void argument(StringBuilder b, JsonNode g) {
        b.append("<p>").append(esc(g.path("message").asText())).append("</p>\n<p>Let:</p>\n<ul class=\"mono\">");
        for (JsonNode l : g.path("let")) b.append("<li>").append(esc(l.asText())).append("</li>");
        b.append("</ul>\n<p>However:</p>\n<ol>");
        for (JsonNode st : g.path("however")) b.append("<li>").append(esc(st.asText())).append("</li>");
        b.append("</ol>\n");
    }

    private static void timeline(StringBuilder b, JsonNode root, HistoryTimeline t, LatencyLog hdr) {
        b.append("<section id=\"timeline\">\n<h2>Throughput and latency over time</h2>\n");
        List<FaultInterval> faults = faults(root.path("faults"));
        if (faults.isEmpty() && t != null) faults = t.faults();
        if (t == null || t.buckets().isEmpty()) {
            b.append("<p>No history.jsonl with completed transactions: nothing to chart.</p>\n");
        } else {
            double end = t.lastTime() / 1e9;
            String width = t.bucketNanos() >= 1_000_000_000L ? num(t.bucketNanos() / 1e9) + " s"
                    : num(t.bucketNanos() / 1e6) + " ms";
            b.append("<p class=\"small\">From history.jsonl: completions counted in buckets of ").append(esc(width))
                    .append(", as rates per second; latency from invoke to ok or fail (p50 and p99 within the bucket, 5% resolution)")
                    .append(faults.isEmpty() ? "." : "; fault intervals shaded.").append("</p>\n");
            b.append(new SvgChart("Throughput", "per second", t.times(), end).faults(faults)
                    .line("commits/s", "#1f77b4", t.commitsPerSecond()).line("aborts/s", "#d62728", t.abortsPerSecond()).render());
            if (hdr != null) {
                // From each transaction's intended start (workload.rate's schedule), so a stall shows.
                b.append("<p class=\"small\">Latency from latency.hlog (HdrHistogram, per second): from each "
                        + "transaction's intended start to its end").append(root.path("stats").has("target_rate_per_s")
                        ? " (its slot in the workload.rate schedule: waiting behind a stall counts)" : " (its start: "
                        + "closed loop)").append(".</p>\n");
                b.append(new SvgChart("Latency from the intended start", "milliseconds", hdr.times(),
                        Math.max(end, hdr.times()[hdr.times().length - 1])).faults(faults)
                        .line("p50 ms", "#2ca02c", hdr.p50()).line("p99 ms", "#ff7f0e", hdr.p99())
                        .line("max ms", "#9467bd", hdr.max()).render());
            } else {
                b.append(new SvgChart("Latency", "milliseconds", t.times(), end).faults(faults)
                        .line("p50 ms", "#2ca02c", t.latencyMs(0.5)).line("p99 ms", "#ff7f0e", t.latencyMs(0.99)).render());
            }
            if (t.skipped() > 0) {
                b.append("<p class=\"small\">").append(esc(num(t.skipped()))).append(" history line(s) could not be parsed and were skipped.</p>\n");
            }
        }
        if (!faults.isEmpty()) {
            b.append("<table class=\"faults\"><tr><th>fault</th><th>node</th><th>start (s)</th><th>end (s)</th><th>error</th></tr>\n");
            Map<Long, String> errors = new HashMap<>();
            for (JsonNode f : root.path("faults")) if (f.hasNonNull("error")) errors.put(f.path("start").asLong(), f.path("error").asText());
            for (FaultInterval f : faults) {
                b.append("<tr><td>").append(esc(f.kind())).append("</td><td>").append(esc(f.node() == null ? "" : f.node()))
                        .append("</td><td>").append(esc(String.format(Locale.ROOT, "%.3f", f.start() / 1e9))).append("</td><td>")
                        .append(f.end() < 0 ? "not healed" : esc(String.format(Locale.ROOT, "%.3f", f.end() / 1e9)))
                        .append("</td><td>").append(esc(errors.getOrDefault(f.start(), ""))).append("</td></tr>\n");
            }
            b.append("</table>\n");
        }
        b.append("</section>\n");
    }

    /** The faults listed in results.json (FaultRecord: kind, node, start, end in history nanoseconds). */
    static List<FaultInterval> faults(JsonNode list) {
        List<FaultInterval> out = new ArrayList<>();
        for (JsonNode f : list) {
            out.add(new FaultInterval(f.path("kind").asText("fault"), f.path("node").asText(""),
                    f.path("start").asLong(0), f.path("end").asLong(-1)));
        }
        return out;
    }

    private static void shapes(StringBuilder b, JsonNode stats) {
        if (!stats.isObject()) return;
        b.append("<section id=\"aborts\">\n<h2>Transactions and aborts</h2>\n<p>");
        b.append(esc(num(stats.path("attempted").asDouble()))).append(" attempted in ").append(esc(num(stats.path("seconds").asDouble())))
                .append(" s: ").append(esc(num(stats.path("committed").asDouble()))).append(" committed, ")
                .append(esc(num(stats.path("aborted").asDouble()))).append(" aborted (")
                .append(esc(String.format(Locale.ROOT, "%.2f%%", 100 * stats.path("abort_rate").asDouble()))).append("), ")
                .append(esc(num(stats.path("unknown").asDouble()))).append(" unknown; ")
                .append(esc(num(stats.path("throughput_committed_per_s").asDouble()))).append(" commits/s");
        JsonNode lat = stats.path("latency_ms");
        if (lat.isObject()) {
            b.append("; latency ms");
            if (stats.has("target_rate_per_s")) b.append(" (from the intended start)");
            for (String q : new String[] {"p50", "p95", "p99", "p99.9", "max"}) {
                if (lat.has(q)) b.append(' ').append(q).append(' ').append(esc(num(lat.path(q).asDouble())));
            }
        }
        b.append(".</p>\n");
        JsonNode shapes = stats.path("by_shape");
        String rowName = "shape";
        if (!shapes.isObject() || shapes.isEmpty()) { // sql runs written by older versions: per isolation level
            shapes = stats.path("by_level");
            rowName = "level";
        }
        if (shapes.isObject() && shapes.size() > 0) {
            double max = 0;
            for (JsonNode s : shapes) max = Math.max(max, s.path("abort_rate").asDouble());
            b.append("<table class=\"shapes\"><tr><th>").append(rowName).append("</th><th>attempted</th><th>committed</th><th>aborted</th>"
                    + "<th>unknown</th><th>abort rate</th></tr>\n");
            for (Iterator<Map.Entry<String, JsonNode>> it = shapes.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode s = e.getValue();
                double rate = s.path("abort_rate").asDouble();
                b.append("<tr><td class=\"mono\">").append(esc(e.getKey())).append("</td><td>").append(esc(num(s.path("attempted").asDouble())))
                        .append("</td><td>").append(esc(num(s.path("committed").asDouble()))).append("</td><td>")
                        .append(esc(num(s.path("aborted").asDouble()))).append("</td><td>").append(esc(num(s.path("unknown").asDouble())))
                        .append("</td><td class=\"bar\"><span style=\"width:").append(Html.f(max > 0 ? 150 * rate / max : 0))
                        .append("px\"></span><em>").append(esc(String.format(Locale.ROOT, "%.2f%%", 100 * rate))).append("</em></td></tr>\n");
            }
            b.append("</table>\n");
        }
        b.append("</section>\n");
    }

    private static void links(StringBuilder b, Path runDir) {
        b.append("<section id=\"files\">\n<h2>Files</h2>\n<ul>\n");
        String[][] files = {{"history.jsonl", "every operation as recorded (JSON lines: the Jepsen op schema; isostress-sql for sql runs)"},
                {"results.json", "verdicts, counterexamples and statistics"}, {"campaign.yaml", "the campaign as run"},
                {"anomalies/", "each counterexample as text and Graphviz DOT"}, {"logs/", "harness and database logs"}};
        for (String[] f : files) {
            boolean exists = Files.exists(runDir.resolve(f[0]));
            b.append("<li>").append(exists ? "<a href=\"" + esc(f[0]) + "\">" + esc(f[0]) + "</a>" : esc(f[0]) + " (absent)")
                    .append(" — ").append(esc(f[1])).append("</li>\n");
        }
        b.append("</ul>\n<p class=\"small\">Written by isostress from this directory's files; open it in any browser.</p>\n</section>\n");
    }

    /** A file name as a relative URL path segment. */
    static String href(String name) {
        StringBuilder s = new StringBuilder();
        for (byte c : name.getBytes(StandardCharsets.UTF_8)) {
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_') {
                s.append((char) c);
            } else {
                s.append('%').append(String.format(Locale.ROOT, "%02X", c & 0xff));
            }
        }
        return s.toString();
    }

    private static final String CSS = """
            body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#222;line-height:1.4}
            h1{font-size:1.5em;margin-bottom:4px}h2{border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:32px}
            h3{margin:0 0 6px 0;font-size:1.1em}.meta{color:#555;margin-top:0}.small{color:#666;font-size:.85em}
            .verdict{display:inline-block;font-size:2.6em;font-weight:700;padding:6px 22px;border-radius:8px;color:#fff;letter-spacing:.04em}
            .verdict.valid{background:#2e7d32}.verdict.invalid{background:#c62828}.verdict.unknown{background:#ef8f00}
            .weakest{font-size:1.2em}.error{background:#fdecea;border-left:4px solid #c62828;padding:6px 10px}
            table{border-collapse:collapse;margin:8px 0;font-size:.92em}th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
            th{background:#f5f5f5}.v-valid{color:#2e7d32;font-weight:600}.v-invalid{color:#c62828;font-weight:600}.v-unknown{color:#ef8f00;font-weight:600}
            .anomaly{border:1px solid #e3e3e3;border-radius:6px;padding:10px 14px;margin:14px 0;background:#fcfcfc}
            .alias{color:#666;font-weight:400}.lvl{color:#c62828;font-weight:400;font-size:.85em;margin-left:8px}
            .ops,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;word-break:break-word}
            .op{white-space:nowrap}nav{margin:6px 0 14px 0;font-size:.92em}details{margin:10px 0}summary{cursor:pointer;color:#1f4e8c;font-weight:600}
            .cx{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}.cx table{flex:1 1 380px}
            svg.graph{flex:0 1 auto;max-width:100%;height:auto;background:#fff;border:1px solid #eee;border-radius:4px}
            svg.graph rect{fill:#eef4fb;stroke:#5b7da8}svg.graph text{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
            svg.graph .thead{font-weight:700}svg.graph .elabel{text-anchor:middle;font-size:12px;font-weight:600;paint-order:stroke;stroke:#fff;stroke-width:4px}
            svg.chart{width:100%;height:auto;display:block;margin:8px 0 18px 0;font-size:12px}
            svg.chart .grid{stroke:#eee}svg.chart .axis{stroke:#888}svg.chart .ytick{text-anchor:end;fill:#555}
            svg.chart .xtick{text-anchor:middle;fill:#555}svg.chart .xlabel{text-anchor:middle;fill:#555}svg.chart .ylabel{text-anchor:middle;fill:#555}
            svg.chart .ctitle{font-weight:700;font-size:14px}svg.chart .legend{fill:#333}svg.chart .flabel{fill:#a12020;font-size:11px}
            td.bar{min-width:200px;position:relative}td.bar span{display:inline-block;height:12px;background:#e57373;vertical-align:middle}
            td.bar em{font-style:normal;margin-left:6px;font-size:.9em}
            """;
}
