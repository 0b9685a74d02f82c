package isostress.harness.report;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;

import static isostress.harness.report.Html.esc;
import static isostress.harness.report.Html.num;

/**
 * The report's part for a run joined with the database's commit log (results.json's {@code check.witness},
 * docs/witness.md): the counts, then each finding with its explanation and the log transactions that are its
 * evidence. Nothing when the run had no witness.
 */
final class WitnessSection {
    private WitnessSection() {
    }

    static void append(StringBuilder b, JsonNode w, Path runDir) {
        if (!w.isObject()) return;
        b.append("<section id=\"witness\">\n<h2>The database's commit log</h2>\n<p>")
                .append(esc(num(w.path("transactions").asDouble()))).append(" log transactions in ")
                .append(Files.exists(runDir.resolve("witness.jsonl")) ? "<a href=\"witness.jsonl\">witness.jsonl</a>"
                        : "the witness")
                .append(", ").append(esc(num(w.path("matched").asDouble()))).append(" matched; info resolved ")
                .append(esc(num(w.path("info_committed").asDouble()))).append(" committed, ")
                .append(esc(num(w.path("info_aborted").asDouble()))).append(" aborted; ")
                .append(esc(num(w.path("lost_write").asDouble()))).append(" lost, ")
                .append(esc(num(w.path("split_commit").asDouble()))).append(" split, ")
                .append(esc(num(w.path("failed_but_committed").asDouble()))).append(" failed-but-committed, ")
                .append(esc(num(w.path("unrecorded_write").asDouble()))).append(" unrecorded.")
                .append(w.path("in_capture_gap").asLong() > 0 ? " " + esc(num(w.path("in_capture_gap").asDouble()))
                        + " writers no log holds ran while some primary's log was not read: judged neither way." : "")
                .append("</p>\n");
        for (JsonNode f : w.path("findings")) {
            b.append("<div class=\"anomaly\"><h3>").append(esc(f.path("name").asText())).append("</h3>\n<p>")
                    .append(esc(f.path("explanation").asText())).append("</p>\n");
            if (f.path("log").size() > 0) {
                b.append("<ul class=\"small\">\n");
                for (JsonNode l : f.path("log")) {
                    b.append("<li>").append(esc(l.path("node").asText()))
                            .append(l.has("timeline") ? " timeline " + l.path("timeline").asLong() : "").append(" pos ")
                            .append(esc(l.path("pos").asText())).append(" (txid ").append(esc(l.path("txid").asText()))
                            .append(", line ").append(esc(l.path("line").asText())).append(") = ")
                            .append(esc(l.path("writes").toString())).append("</li>\n");
                }
                b.append("</ul>\n");
            }
            b.append("</div>\n");
        }
        b.append("</section>\n");
    }
}
