package isostress.harness.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import isostress.checker.explain.ResultJson;
import isostress.checker.explain.TextRenderer;
import isostress.checker.model.Anomaly;
import isostress.checker.model.LevelResult;
import isostress.checker.model.Result;
import isostress.harness.report.LevelTable;
import isostress.generator.workload.WorkloadSpec;
import isostress.harness.config.Campaign;
import isostress.harness.store.ResultWriter;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;

/** A run's results.json (verdicts, anomalies, statistics) and its summary for people. */
public final class RunReport {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RunReport() {
    }

    static void write(RunOutcome o, Campaign c) throws IOException {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("campaign", c.name());
        root.put("run", o.index() + 1);
        root.put("seed", o.seed());
        if (o.database() != null) root.put("database", o.database());
        root.put("isolation", c.database().isolation().yamlName());
        WorkloadSpec w = c.workload();
        ObjectNode wl = root.putObject("workload");
        wl.put("type", w.type().yamlName());
        wl.put("sessions", w.sessions());
        wl.put("transactions", w.transactions());
        wl.put("keys", w.keys());
        wl.put("distribution", w.distribution().toString());
        if (!w.isolationMix().isEmpty()) {
            wl.put("groups", w.groups());
            wl.set("isolation_mix", MAPPER.valueToTree(w.isolationMix()));
        }
        if (o.error() != null) root.put("error", o.error());
        if (o.interrupted()) root.put("interrupted", true);
        root.put("exit_status", o.exitStatus());
        root.set("stats", MAPPER.valueToTree(stats(o.stats())));
        if (!o.faults().isEmpty() || c.nemesis() != null) {
            root.set("faults", MAPPER.valueToTree(o.faults()));
        }
        if (o.nodes().size() > 2 || !o.faults().isEmpty()) root.set("nodes", MAPPER.valueToTree(o.nodes()));
        if (o.streaming() != null) root.set("streaming", MAPPER.valueToTree(streaming(o.streaming())));
        FirstViolation first = o.firstViolation();
        if (first != null) root.set("first_violation", MAPPER.valueToTree(firstViolation(first)));
        if (o.result() != null) {
            root.set("check", ResultJson.toJson(o.result()));
            ResultWriter.write(o.result(), o.dir().path(), false);
        } else {
            ObjectNode ch = root.putObject("check");
            ch.put("verdict", "unknown");
            ch.put("reason", o.unchecked() != null ? o.unchecked() : "no history was recorded");
        }
        MAPPER.writeValue(o.dir().results().toFile(), root);
        try {
            isostress.harness.report.HtmlReport.write(o.dir().path());
        } catch (Exception | OutOfMemoryError e) {
            // The report is for people; the verdict is already in results.json, so a report problem never fails a run.
            System.err.println("warning: report.html not written: " + e);
        }
    }

    /** Why an interrupted run has no verdict, and how to get one from what it recorded. */
    static String interruptedReason(RunDirectory dir) {
        if (!java.nio.file.Files.exists(dir.history())) return "interrupted (Ctrl-C) before the workload started";
        return "interrupted (Ctrl-C) before the end-of-run check; isostress check " + dir.history()
                + " checks what was recorded";
    }

    static Map<String, Object> stats(RunStats s) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("seconds", Math.round(s.seconds() * 1000) / 1000.0);
        m.put("attempted", s.attempted());
        m.put("committed", s.committed());
        m.put("aborted", s.aborted());
        m.put("unknown", s.unknown());
        m.put("abort_rate", Math.round(s.abortRate() * 1e4) / 1e4);
        m.put("throughput_committed_per_s", Math.round(s.throughput() * 10) / 10.0);
        if (s.targetRate() > 0) m.put("target_rate_per_s", s.targetRate());
        m.put("attempted_per_s", Math.round(s.attemptRate() * 10) / 10.0);
        m.put("latency_ms", s.latencyMs());
        m.put("service_time_ms", s.serviceMs());
        if (s.staged()) m.put("session_time_ms", s.sessionTimeMs());
        m.put("by_shape", s.byShape());
        return m;
    }

    /** results.json's {@code streaming}: the first detection while running (times in ms since the run started). */
    static Map<String, Object> streaming(StreamingReport s) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        StreamingReport.Detection d = s.detection();
        m.put("first_violation_ms", d == null || d.completedNs() < 0 ? null : ms(d.completedNs()));
        m.put("detected_ms", d == null ? null : ms(d.detectedNs()));
        m.put("violating_txn", d == null ? null : d.txn());
        m.put("anomaly", d == null ? null : d.anomaly());
        m.put("latency_ms", d == null || d.completedNs() < 0 ? null : ms(d.latencyNs()));
        if (d != null && d.counterexample() != null) m.put("counterexample", ResultJson.anomaly(d.counterexample()));
        m.put("checks", s.checks());
        m.put("check_ms_max", s.checkMsMax());
        m.put("last_prefix_txns", s.prefixTxns());
        m.put("last_check_ms", s.lastCheckMs());
        if (s.gaveUp() != null) m.put("gave_up", s.gaveUp());
        return m;
    }

    /** results.json's {@code first_violation}: when, which transaction, and whether found while running. */
    static Map<String, Object> firstViolation(FirstViolation f) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("at_ms", ms(f.atNs()));
        m.put("txn", f.txn());
        m.put("anomaly", f.anomaly());
        m.put("found", f.whileRunning() ? "while running" : "by the end-of-run check");
        if (f.whileRunning()) m.put("latency_ms", ms(f.latencyNs()));
        return m;
    }

    /**
     * The summary's first counterexample: the first violation found while running when there was one
     * ({@link FirstCounterexample}), else the end-of-run check's first.
     */
    static void printFirstCounterexample(Result r, StreamingReport streaming, PrintWriter out) {
        Anomaly first = FirstCounterexample.of(r, streaming);
        if (first == null) return;
        out.println(first == FirstCounterexample.streamed(streaming)
                ? "  first counterexample (found while running):" : "  first counterexample:");
        for (String line : TextRenderer.render(first).split("\n")) out.println("    " + line);
    }

    /** ns to ms with one decimal. */
    static double ms(long ns) {
        return Math.round(ns / 1e5) / 10.0;
    }

    static void print(RunOutcome o, PrintWriter out) {
        RunStats s = o.stats();
        Map<String, Double> lat = s.latencyMs();
        if (s.attempted() > 0) out.printf(Locale.ROOT, "  %,d transactions in %.1f s: %,d committed, %,d aborted (%.1f%%), %,d unknown; "
                        + "%,.0f commits/s; latency ms p50 %.2f p95 %.2f p99 %.2f max %.1f%n", s.attempted(),
                s.seconds(), s.committed(), s.aborted(), 100 * s.abortRate(), s.unknown(), s.throughput(),
                lat.get("p50"), lat.get("p95"), lat.get("p99"), lat.get("max"));
        if (s.staged()) {
            Map<String, Object> st = s.sessionTimeMs();
            out.printf(Locale.ROOT, "  %s; session time: database %,d ms, recorder %,d ms (%.1f%%), waiting for "
                            + "the schedule %,d ms, other %,d ms%n",
                    s.targetRate() > 0 ? String.format(Locale.ROOT, "rate %,.1f/s of %,.1f/s asked, latency from "
                            + "the intended start", s.attemptRate(), s.targetRate()) : "closed loop",
                    st.get("database"), st.get("recorder"), 100 * (double) st.get("recorder_share"), st.get("schedule"),
                    st.get("other"));
        }
        if (!o.faults().isEmpty()) {
            Map<String, Long> kinds = new java.util.TreeMap<>();
            for (isostress.harness.faults.FaultRecord f : o.faults()) kinds.merge(f.kind(), 1L, Long::sum);
            long failed = o.faults().stream().filter(f -> f.error() != null).count();
            out.printf(Locale.ROOT, "  faults: %d injected %s%s%n", o.faults().size(), kinds,
                    failed == 0 ? "" : ", " + failed + " with errors (see results.json)");
            for (isostress.harness.faults.FaultRecord f : o.faults()) {
                if (f.newPrimaryMillis() == null) continue; // no failover manager
                out.printf(Locale.ROOT, "  %s on %s at %.3f s: leader %s -> %s, %s, no commit for %s%n", f.kind(),
                        f.node(), f.start() / 1e9, f.leaderBefore(), f.leaderAfter(),
                        f.newPrimaryMillis() < 0 ? "no new primary" : "new primary in " + f.newPrimaryMillis() + " ms",
                        f.noCommitMillis() < 0 ? "- (the sessions had stopped)" : f.noCommitMillis() + " ms");
            }
            Object all = o.nodes().get("all");
            if (all instanceof Map) {
                Map<?, ?> a = (Map<?, ?>) all;
                out.printf(Locale.ROOT, "  transactions untouched by a fault on their node: %s ok, %s fail, %s info "
                        + "(%.2f%% determinate)%n", a.get("untouched_ok"), a.get("untouched_fail"),
                        a.get("untouched_info"), 100 * ((Number) a.get("untouched_determinate_ratio")).doubleValue());
            }
        }
        StreamingReport st = o.streaming();
        if (st != null && st.checks() == 0) {
            out.println("  checked while running: no prefix (the run ended before the first check)"
                    + (st.gaveUp() != null ? "; gave up: " + st.gaveUp() : ""));
        } else if (st != null) {
            out.printf(Locale.ROOT, "  checked while running: %,d prefix%s, the last of %,d transactions in %d ms "
                    + "(longest %d ms)%s%n", st.checks(), st.checks() == 1 ? "" : "es", st.prefixTxns(),
                    st.lastCheckMs(), st.checkMsMax(),
                    st.detection() != null ? "; violation detected at "
                            + CampaignSummary.seconds(st.detection().detectedNs() / 1e9)
                            : st.gaveUp() != null ? "; gave up: " + st.gaveUp() : "");
        }
        if (o.error() != null) out.println("  ERROR: the run stopped: " + o.error());
        Result r = o.result();
        if (r == null) {
            out.println("  verdict: UNKNOWN — " + (o.unchecked() != null ? o.unchecked() : "no history"));
        } else {
            if (r.witness() != null) out.println("  " + r.witness().summary());
            if (r.lostWrites() != null) {
                out.println("  " + isostress.harness.store.ResultWriter.lostWritesLine(r.lostWrites()));
                if (!r.lostWrites().findings().isEmpty()) {
                    out.println("    first: " + r.lostWrites().findings().get(0).explanation());
                }
            }
            if (r.stats().get("version_order") instanceof java.util.Map<?, ?> vo) {
                out.println("  " + isostress.harness.store.ResultWriter.versionOrder(vo));
            }
            out.print("  verdict: " + r.verdict().jsonName().toUpperCase(Locale.ROOT));
            if (!r.weakestViolated().isEmpty()) {
                out.print(" — weakest level violated: " + r.weakestViolated().get(0));
            }
            out.println();
            LevelTable table = new LevelTable();
            for (LevelResult l : r.levels()) table.add(l.name(), l.verdict().jsonName(), l.reason());
            out.print(table.render("    "));
            if (!r.anomalies().isEmpty()) {
                out.print("  anomalies: ");
                boolean first = true;
                for (Map.Entry<String, Integer> e : r.anomalyCounts().entrySet()) {
                    out.print((first ? "" : ", ") + e.getKey() + " ×" + e.getValue());
                    first = false;
                }
                out.println();
                printFirstCounterexample(r, o.streaming(), out);
            }
        }
        out.println("  " + o.dir().closingLine());
        out.flush();
    }
}
