package isostress.harness.store;

import isostress.checker.explain.DotRenderer;
import isostress.checker.explain.ResultJson;
import isostress.checker.explain.TextRenderer;
import isostress.checker.CheckInput;
import isostress.checker.model.Anomaly;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LevelResult;
import isostress.checker.model.Result;
import isostress.checker.model.LostWrite;
import isostress.checker.model.LostWriteReport;
import isostress.checker.model.WitnessFinding;
import isostress.checker.model.WitnessReport;
import isostress.harness.report.LevelTable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;

/** Prints a check result for people (or as JSON) and writes results.json and the anomaly files. */
public final class ResultWriter {
    private ResultWriter() {
    }

    /** The human summary: the verdict first, then each level, then the counterexamples. */
    public static String text(Result r, CheckInput in, Path file) {
        StringBuilder sb = new StringBuilder();
        Map<String, Object> s = r.stats();
        sb.append(String.format(Locale.ROOT, "history: %s (%s, %,d transactions: %s ok, %s fail, %s info",
                file, in.formatName(), in.size(), s.get("ok"), s.get("fail"), s.get("info")));
        if (((Number) s.getOrDefault("info", 0)).intValue() > 0 && s.containsKey("info_counted_committed")) {
            sb.append(", ").append(s.get("info_counted_committed")).append(" of them counted committed");
        }
        if (s.containsKey("nemesis_events_not_checked")) {
            // Nemesis events (faults) are not client transactions; say they were read and left out.
            sb.append(String.format(Locale.ROOT, "; %,d nemesis events not checked",
                    ((Number) s.get("nemesis_events_not_checked")).longValue()));
        }
        sb.append(")\n");
        if (r.witness() != null) sb.append(r.witness().summary()).append('\n');
        if (r.stats().get("version_order") instanceof java.util.Map<?, ?> vo) sb.append(versionOrder(vo)).append('\n');
        sb.append("checker: ").append(r.shape()).append('\n');
        sb.append("verdict: ").append(r.verdict().jsonName().toUpperCase(Locale.ROOT));
        List<IsolationLevel> weakest = r.weakestViolated();
        if (!weakest.isEmpty()) sb.append(" — weakest level violated: ").append(join(weakest));
        if (r.witness() != null && r.witness().findingCount() > 0) {
            sb.append(weakest.isEmpty() ? " — " : "; ").append("the history disagrees with the database's commit log");
        }
        if (r.lostWrites() != null && r.lostWrites().lost() > 0) {
            sb.append(weakest.isEmpty() ? " — " : "; ").append("the final reads lack acknowledged writes");
        }
        sb.append("\n\n");
        LevelTable table = new LevelTable();
        for (LevelResult l : r.levels()) table.add(l.name(), l.verdict().jsonName(), l.reason());
        if (s.get(Result.NOT_EXAMINED) instanceof Map<?, ?> skipped) {
            for (Map.Entry<?, ?> e : skipped.entrySet()) {
                table.add(String.valueOf(e.getKey()), "-", "not examined: " + e.getValue());
            }
        }
        sb.append(table.render("  "));
        if (!r.anomalies().isEmpty()) {
            sb.append("\nanomalies found: ");
            boolean first = true;
            for (Map.Entry<String, Integer> e : r.anomalyCounts().entrySet()) {
                if (!first) sb.append(", ");
                first = false;
                sb.append(e.getKey()).append(" ×").append(e.getValue());
            }
            if (r.anomaliesOmitted() > 0) sb.append(" (").append(r.anomaliesOmitted()).append(" not listed)");
            sb.append("\n");
            int i = 1;
            for (Anomaly a : r.anomalies()) {
                sb.append("\n").append(i++).append(". ").append(TextRenderer.render(a, in.realTime()));
            }
        }
        if (r.witness() != null && !r.witness().findings().isEmpty()) {
            WitnessReport w = r.witness();
            sb.append("\nwitness findings: ");
            String sep = "";
            for (String[] c : new String[][] {{"lost-write", "" + w.lostWrite()}, {"split-commit", "" + w.splitCommit()},
                    {"failed-but-committed", "" + w.failedButCommitted()},
                    {"unrecorded-write", "" + w.unrecordedWrite()}}) {
                if (c[1].equals("0")) continue;
                sb.append(sep).append(c[0]).append(" ×").append(c[1]);
                sep = ", ";
            }
            long omitted = w.findingCount() - w.findings().size();
            if (omitted > 0) sb.append(" (").append(omitted).append(" not listed)");
            sb.append('\n');
            int i = 1;
            for (WitnessFinding f : w.findings()) {
                sb.append("\n").append(i++).append(". ").append(TextRenderer.render(f, in.realTime()));
            }
        }
        if (r.lostWrites() != null) {
            sb.append('\n').append(lostWritesLine(r.lostWrites())).append('\n');
            int i = 1;
            for (LostWrite w : r.lostWrites().findings()) {
                sb.append("\n").append(i++).append(". ").append(LostWrite.NAME).append(" — ").append(w.explanation())
                  .append('\n');
            }
        }
        return sb.toString();
    }

    /** "final reads: 412 acknowledged writes judged, 3 lost (lost-write)". */
    public static String lostWritesLine(LostWriteReport l) {
        return String.format(Locale.ROOT, "final reads: %,d acknowledged writes judged, %,d lost%s", l.writes(),
                l.lost(), l.lost() > 0 ? " (" + LostWrite.NAME + ")" : "");
    }

    /**
     * Writes {@code dir/anomalies/<name>-<n>.txt|.dot}, and {@code dir/results.json} when {@code resultsJson} (a run
     * writes its own, richer one).
     */
    public static void write(Result r, Path dir, boolean resultsJson) throws IOException {
        Files.createDirectories(dir);
        if (resultsJson) {
            Files.writeString(dir.resolve("results.json"), ResultJson.toString(r) + "\n", StandardCharsets.UTF_8);
        }
        List<WitnessFinding> findings = r.witness() == null ? List.of() : r.witness().findings();
        List<LostWrite> lost = r.lostWrites() == null ? List.of() : r.lostWrites().findings();
        if (r.anomalies().isEmpty() && findings.isEmpty() && lost.isEmpty()) return;
        Path ad = dir.resolve("anomalies");
        Files.createDirectories(ad);
        Map<String, Integer> n = new HashMap<>();
        for (LostWrite w : lost) {
            int k = n.merge(LostWrite.NAME, 1, Integer::sum);
            Files.writeString(ad.resolve(LostWrite.NAME + "-" + k + ".txt"), w.explanation() + "\n",
                    StandardCharsets.UTF_8);
        }
        for (WitnessFinding f : findings) {
            int k = n.merge(f.name(), 1, Integer::sum);
            Files.writeString(ad.resolve(f.name() + "-" + k + ".txt"), TextRenderer.render(f, true),
                    StandardCharsets.UTF_8);
        }
        for (Anomaly a : r.anomalies()) {
            int k = n.merge(a.name(), 1, Integer::sum);
            String base = a.name() + "-" + k;
            Files.writeString(ad.resolve(base + ".txt"), TextRenderer.render(a), StandardCharsets.UTF_8);
            if (a.hasGraph()) {
                Files.writeString(ad.resolve(base + ".dot"), DotRenderer.render(a), StandardCharsets.UTF_8);
            }
        }
    }

    private static String join(List<IsolationLevel> ls) {
        StringBuilder sb = new StringBuilder();
        for (IsolationLevel l : ls) {
            if (sb.length() > 0) sb.append(" and ");
            sb.append(l.cliName());
        }
        return sb.toString();
    }

    /**
     * "version order: the database's commit log for 12 key(s); ..." for a check whose version order came from the log
     * (docs/witness.md): how many keys it ordered, and why the others were searched as without it.
     */
    public static String versionOrder(java.util.Map<?, ?> vo) {
        StringBuilder sb = new StringBuilder("version order: the database's commit log for ")
                .append(vo.get("keys_from_log")).append(" key(s)");
        Object incomplete = vo.get("keys_not_in_log_completely"), contradicted =
                vo.get("keys_whose_reads_contradict_the_log"), disagree = vo.get("keys_whose_logs_disagree");
        if (!Integer.valueOf(0).equals(incomplete)) {
            sb.append("; searched for ").append(incomplete).append(" key(s) whose committed writes the log does not "
                    + "hold completely");
        }
        if (contradicted != null && !Integer.valueOf(0).equals(contradicted)) {
            sb.append("; the reads' order for ").append(contradicted).append(" key(s) whose reads contradict the log");
        }
        if (!Integer.valueOf(0).equals(disagree)) {
            sb.append("; searched for ").append(disagree).append(" key(s) whose nodes' logs disagree (")
                    .append(String.join("; ", ((java.util.List<?>) vo.get("disagreements")).stream()
                            .map(Object::toString).toList())).append(')');
        }
        return sb.toString();
    }
}
