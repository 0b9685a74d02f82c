package isostress.harness.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import isostress.checker.explain.ResultJson;
import isostress.checker.model.Result;
import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;
import isostress.harness.config.ConfigException;
import isostress.harness.store.ResultWriter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A run directory without results.json: the harness exited before the run's end (SIGKILL, a crash, the machine).
 * What the sessions completed is in history.jsonl, whole lines only ({@link HistoryRecorder}, the sql
 * {@link isostress.harness.sql.SqlHistoryRecorder}), so the verdict is rebuilt from it: checked at the levels of the
 * directory's campaign.yaml, as the run would have, into a results.json-shaped tree for the report, with
 * {@code "incomplete": true} and an {@code error} saying the run did not finish. results.json itself is not
 * written: it stays the record of runs that ended.
 */
public final class KilledRun {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private KilledRun() {
    }

    /** The results of {@code runDir}, rebuilt from its history; anomaly files go to its anomalies/ as usual. */
    public static ObjectNode results(Path runDir) throws IOException {
        Path history = runDir.resolve("history.jsonl");
        Campaign c = campaign(runDir.resolve("campaign.yaml"));
        ObjectNode root = MAPPER.createObjectNode();
        root.put("campaign", c != null ? c.name() : runDir.toAbsolutePath().getParent().getFileName().toString());
        if (c != null) {
            root.put("isolation", c.database().isolation().yamlName());
            ObjectNode wl = root.putObject("workload");
            wl.put("type", c.workload().type().yamlName());
            wl.put("sessions", c.workload().sessions());
            wl.put("transactions", c.workload().transactions());
            wl.put("keys", c.workload().keys());
        }
        root.put("incomplete", true);
        ObjectNode check = root.putObject("check");
        Result r = RunCheck.check(history, c);
        check.setAll(ResultJson.toJson(r));
        ResultWriter.write(r, runDir, false);
        long n = 0;
        for (String k : new String[] {"ok", "fail", "info"}) n += ((Number) r.stats().getOrDefault(k, 0)).longValue();
        String recorded = "the " + n + " transactions";
        String ended = watchdogLine(runDir.resolve("logs").resolve("harness.log"));
        root.put("error", "the run did not finish: the harness exited before writing results.json (killed?)"
                + (ended != null ? "; " + ended : "") + ". The verdict is from " + recorded + " it recorded in "
                + "history.jsonl.");
        return root;
    }

    /** The campaign the run ran, or null when its copy is missing or no longer loads (a newer isostress). */
    private static Campaign campaign(Path yaml) throws IOException {
        if (!Files.isRegularFile(yaml)) return null;
        try {
            return CampaignLoader.load(yaml);
        } catch (ConfigException e) {
            return null;
        }
    }

    /** What the harness's watchdog said it cleaned up, or null. */
    private static String watchdogLine(Path log) throws IOException {
        if (!Files.isRegularFile(log)) return null;
        try (var lines = Files.lines(log)) {
            return lines.filter(l -> l.contains(" watchdog: ")).map(l -> l.substring(l.indexOf(" watchdog: ") + 1))
                    .reduce((a, b) -> b).orElse(null);
        }
    }
}
