package isostress.harness.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import isostress.harness.config.Campaign;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What several runs of one campaign found, the figures MTC reports for its bug hunts (e.g. "32 of 50 runs", MTC
 * §VI): how many runs found a violation, how soon (the completion of the first violating transaction, median and
 * max), and, for runs checked while running, how long detection took after that completion.
 *
 * @param campaign  the campaign's name
 * @param planned   the runs asked for
 * @param stop      the campaign's stop-on-violation
 * @param outcomes  the runs that ran, in order
 */
public record CampaignSummary(String campaign, int planned, Campaign.StopOnViolation stop,
                              List<RunOutcome> outcomes) {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public CampaignSummary {
        outcomes = List.copyOf(outcomes);
    }

    static CampaignSummary of(Campaign c, List<RunOutcome> outcomes) {
        return new CampaignSummary(c.name(), c.runs(), c.stopOnViolation(), outcomes);
    }

    /** Runs whose end-of-run check found a violation (the authoritative count). */
    public int violating() {
        return (int) outcomes.stream().filter(RunOutcome::violation).count();
    }

    /** Of those, the runs whose violation the streaming check found while running. */
    public int detectedWhileRunning() {
        return (int) firsts().stream().filter(FirstViolation::whileRunning).count();
    }

    private List<FirstViolation> firsts() {
        List<FirstViolation> out = new ArrayList<>();
        for (RunOutcome o : outcomes) {
            FirstViolation f = o.firstViolation();
            if (f != null) out.add(f);
        }
        return out;
    }

    /** Times to the first violation, s, in run order. */
    public double[] timesToFirstViolation() {
        return firsts().stream().mapToDouble(f -> f.atNs() / 1e9).toArray();
    }

    /** Detection latencies of the violations found while running, s, in run order. */
    public double[] detectionLatencies() {
        return firsts().stream().filter(FirstViolation::whileRunning).mapToDouble(f -> f.latencyNs() / 1e9)
                .toArray();
    }

    /** The one-paragraph summary: the totals line, then one line per run. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        int n = outcomes.size(), bad = violating();
        sb.append(String.format(Locale.ROOT, "%d run%s: violation in %d (%.0f%%)", n, n == 1 ? "" : "s", bad,
                n == 0 ? 0.0 : 100.0 * bad / n));
        double[] ttf = timesToFirstViolation();
        if (ttf.length > 0) {
            int streamed = detectedWhileRunning();
            sb.append("; time to first violation median ").append(seconds(median(ttf))).append(", max ")
                    .append(seconds(max(ttf))).append(" (detected while running in ").append(streamed);
            if (streamed < ttf.length) {
                // The end-of-run check lists some counterexamples (the general checker one solver core), not
                // necessarily the first violation: their time bounds the first one from above.
                sb.append(", from the end-of-run check in ").append(ttf.length - streamed)
                        .append(": its earliest listed counterexample, an upper bound");
            }
            sb.append(')');
            double[] lat = detectionLatencies();
            if (lat.length > 0) {
                sb.append("; detection latency median ").append(seconds(median(lat))).append(", max ")
                        .append(seconds(max(lat)));
            }
        }
        if (n < planned) {
            sb.append("; ").append(planned - n).append(" run(s) not started (")
                    .append(outcomes.get(n - 1).error() != null ? "an error" : "stop-on-violation: campaign")
                    .append(')');
        }
        sb.append('\n');
        for (RunOutcome o : outcomes) sb.append("  ").append(runLine(o)).append('\n');
        return sb.toString();
    }

    private static String runLine(RunOutcome o) {
        String head = String.format(Locale.ROOT, "run %d (seed %d): ", o.index() + 1, o.seed());
        String ended = String.format(Locale.ROOT, "ran %s, %,d transactions", seconds(o.stats().seconds()),
                o.stats().attempted());
        String where = " — " + o.dir().path();
        if (o.error() != null) return head + "ERROR " + o.error() + where;
        FirstViolation f = o.firstViolation();
        if (f != null) {
            String how = f.whileRunning() ? "detected " + seconds(f.latencyNs() / 1e9) + " later while running"
                    : "found by the end-of-run check";
            return head + "violation at " + seconds(f.atNs() / 1e9) + (f.whileRunning() ? "" : " or earlier")
                    + " (" + f.txn() + ", " + f.anomaly() + "), " + how + "; " + ended + where;
        }
        if (o.violation() && o.result() != null) {
            // No transaction times to place it (SQL counterexamples): the first invalid check and why.
            for (isostress.checker.model.LevelResult l : o.result().levels()) {
                if (l.verdict() == isostress.checker.model.Verdict.INVALID) {
                    return head + "violation (" + l.name() + ": " + l.reason() + "); " + ended + where;
                }
            }
        }
        if (o.violation()) return head + "violation (no counterexample listed); " + ended + where;
        String warn = o.detection() != null ? " (the streaming check reported " + o.detection().anomaly()
                + ", which the end-of-run check did not confirm)" : "";
        if (o.verdict() == null) return head + "verdict unknown: " + o.unchecked() + "; " + ended + where;
        return head + o.verdict().jsonName() + warn + "; " + ended + where;
    }

    void print(PrintWriter out) {
        out.print(text());
        out.flush();
    }

    /** Writes the summary as JSON (times in ms), with each run's directory. */
    void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        MAPPER.writeValue(file.toFile(), json());
    }

    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("campaign", campaign);
        m.put("runs_planned", planned);
        m.put("runs", outcomes.size());
        m.put("stop_on_violation", stop.yamlName());
        m.put("violations", violating());
        m.put("detection_rate", outcomes.isEmpty() ? 0.0 : Math.round(1e4 * violating() / outcomes.size()) / 1e4);
        m.put("detected_while_running", detectedWhileRunning());
        m.put("found_by_end_of_run_check", violating() - detectedWhileRunning());
        m.put("time_to_first_violation_ms", quantiles(timesToFirstViolation()));
        m.put("detection_latency_ms", quantiles(detectionLatencies()));
        List<Map<String, Object>> runs = new ArrayList<>();
        for (RunOutcome o : outcomes) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("run", o.index() + 1);
            r.put("seed", o.seed());
            r.put("dir", o.dir().path().toString());
            r.put("exit_status", o.exitStatus());
            r.put("verdict", o.verdict() == null ? "unknown" : o.verdict().jsonName());
            r.put("seconds", Math.round(o.stats().seconds() * 1000) / 1000.0);
            r.put("transactions", o.stats().attempted());
            FirstViolation f = o.firstViolation();
            if (f != null) r.put("first_violation", RunReport.firstViolation(f));
            if (o.error() != null) r.put("error", o.error());
            runs.add(r);
        }
        m.put("run_list", runs);
        return m;
    }

    private static Map<String, Object> quantiles(double[] s) {
        if (s.length == 0) return null;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", Math.round(median(s) * 1e4) / 10.0);
        m.put("max", Math.round(max(s) * 1e4) / 10.0);
        return m;
    }

    /** Seconds for people: two decimals below 10 s (sub-second detections), one above. */
    static String seconds(double s) {
        return String.format(Locale.ROOT, s < 10 ? "%.2f s" : "%.1f s", s);
    }

    /** The median (the mean of the middle two for an even count). */
    static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private static double max(double[] xs) {
        return Arrays.stream(xs).max().orElse(0);
    }
}
