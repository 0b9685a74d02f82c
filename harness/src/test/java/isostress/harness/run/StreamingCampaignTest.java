package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.Verdict;
import isostress.harness.config.Campaign;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static isostress.checker.model.IsolationLevel.STRICT_SERIALIZABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checking while running on embedded PostgreSQL 16: repeatable read breaks serializability within
 * a second or so (write skew), so a 60-second run with stop-on-violation ends right after the streaming check finds
 * it; serializable stays clean and runs to its end.
 */
class StreamingCampaignTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path store;

    static String yaml(String name, String isolation, String duration, String extra) {
        return "name: " + name + "\n"
                + "database: {type: postgresql, provision: embedded, isolation: " + isolation + "}\n"
                + "workload: {type: mini, sessions: 8, transactions: 1000000, keys: 10, distribution: zipfian, seed: 7,"
                + " duration: " + duration + "}\n"
                + "check: {levels: [serializable]}\n" + extra;
    }

    List<RunOutcome> runAll(Campaign c, StringBuilder printed) throws Exception {
        PostgresCampaignTest.StringBuilderWriter w = new PostgresCampaignTest.StringBuilderWriter();
        List<RunOutcome> outcomes = new CampaignRunner(c, w.writer(), false).runAll(c.workload().seed());
        System.out.print(w);
        printed.append(w);
        return outcomes;
    }

    @Test
    void repeatableReadRunsEachEndAtTheirFirstViolationAndTheSummaryCountsThem() throws Exception {
        Campaign c = Campaigns.parse(store, yaml("pg-rr-stream", "repeatable-read", "60s",
                "runs: 3\nstop-on-violation: true\n"));
        StringBuilder printed = new StringBuilder();
        List<RunOutcome> outcomes = runAll(c, printed);
        assertEquals(3, outcomes.size(), "stop-on-violation: true ends runs, not the campaign");
        for (RunOutcome o : outcomes) {
            assertNull(o.error(), o.error());
            StreamingReport.Detection d = o.detection();
            assertNotNull(d, "detected while running: " + o.streaming());
            double ranS = o.stats().seconds(), detectedS = d.detectedNs() / 1e9;
            assertTrue(ranS < 15, "the run ended early, after " + ranS + " s of 60");
            assertTrue(ranS - detectedS < 2.0, "sessions stopped within ~1 s of the detection at " + detectedS
                    + " s; the run ended at " + ranS + " s");
            assertTrue(d.latencyNs() >= 0 && d.latencyNs() < 3_000_000_000L, "latency " + d.latencyNs() + " ns");
            // The end-of-run check decides, and finds the violation again.
            assertTrue(o.violation(), "the end-of-run check confirms it");
            assertEquals(Verdict.INVALID, o.result().level(SERIALIZABLE).verdict());
            // The violating transaction is named as the history file numbers it, with its completion time.
            History h = HistoryFormat.JSONL.read(o.dir().history());
            int id = Integer.parseInt(d.txn().substring(1));
            assertEquals(d.completedNs(), h.txn(id).completeTime(), d.txn() + " in " + o.dir().history());
            assertEquals(0, h.txns().stream().filter(t -> t.pending()).count(), "every session finished its txn");
            FirstViolation f = o.firstViolation();
            assertTrue(f.whileRunning() && f.atNs() == d.completedNs(), f.toString());

            JsonNode s = JSON.readTree(o.dir().results().toFile()).get("streaming");
            assertEquals(d.txn(), s.get("violating_txn").asText());
            assertTrue(s.get("latency_ms").asDouble() >= 0 && s.get("checks").asInt() >= 1, s.toString());
            assertTrue(s.get("detected_ms").asDouble() >= s.get("first_violation_ms").asDouble(), s.toString());
        }
        String out = printed.toString();
        assertTrue(out.contains("violation detected while running at "), out);
        assertTrue(out.contains("— stopping (stop-on-violation)"), out);
        assertTrue(out.contains("3 runs: violation in 3 (100%); time to first violation median "), out);
        assertTrue(out.contains("(detected while running in 3); detection latency median "), out);

        JsonNode summary = JSON.readTree(store.resolve("pg-rr-stream").resolve("campaign-summary.json").toFile());
        assertEquals(3, summary.get("runs").asInt());
        assertEquals(3, summary.get("violations").asInt());
        assertEquals(1.0, summary.get("detection_rate").asDouble());
        assertEquals(3, summary.get("detected_while_running").asInt());
        assertTrue(summary.get("detection_latency_ms").get("max").asDouble() < 3000, summary.toString());
        for (JsonNode r : summary.get("run_list")) {
            assertTrue(Files.isDirectory(Path.of(r.get("dir").asText())), r.toString());
            assertTrue(r.get("first_violation").get("found").asText().equals("while running"), r.toString());
        }
    }

    /**
     * list-append and rw-register are checked while running too: repeatable read gives write skew on lists and
     * registers alike, found while running, the run cut short, the end-of-run check agreeing.
     */
    @Test
    void generalWorkloadsEndAtTheirFirstViolationToo() throws Exception {
        for (String type : List.of("list-append", "rw-register")) {
            Campaign c = Campaigns.parse(store, yaml("pg-rr-" + type, "repeatable-read", "60s",
                    "stop-on-violation: true\n").replace("type: mini", "type: " + type));
            List<RunOutcome> outcomes = runAll(c, new StringBuilder());
            RunOutcome o = outcomes.get(0);
            assertNull(o.error(), o.error());
            StreamingReport.Detection d = o.detection();
            assertNotNull(d, type + ": detected while running: " + o.streaming());
            assertTrue(o.stats().seconds() < 30, type + ": the run ended early, after " + o.stats().seconds() + " s");
            assertEquals(Verdict.INVALID, o.result().level(SERIALIZABLE).verdict(), "the end-of-run check agrees");
            History h = HistoryFormat.JSONL.read(o.dir().history());
            int id = Integer.parseInt(d.txn().substring(1));
            assertEquals(d.completedNs(), h.txn(id).completeTime(), d.txn() + " in " + o.dir().history());
        }
    }

    @Test
    void campaignModeStartsNoRunAfterAViolatingOne() throws Exception {
        Campaign c = Campaigns.parse(store, yaml("pg-rr-campaign", "repeatable-read", "60s",
                "runs: 3\nstop-on-violation: campaign\n"));
        StringBuilder printed = new StringBuilder();
        List<RunOutcome> outcomes = runAll(c, printed);
        assertEquals(1, outcomes.size());
        assertTrue(outcomes.get(0).violation() && outcomes.get(0).stats().seconds() < 15);
        assertTrue(printed.toString().contains("1 run: violation in 1 (100%)"), printed.toString());
        assertTrue(printed.toString().contains("2 run(s) not started (stop-on-violation: campaign)"),
                printed.toString());
    }

    @Test
    void withoutStreamingTheTimeToFirstViolationComesFromTheEndOfRunCheck() throws Exception {
        Campaign c = Campaigns.parse(store, "name: pg-rr-end\n"
                + "database: {type: postgresql, provision: embedded, isolation: repeatable-read}\n"
                + "workload: {type: mini, sessions: 8, transactions: 3000, keys: 10, distribution: zipfian, seed: 7}\n"
                + "check: {levels: [serializable], streaming: false}\nruns: 2\nstop-on-violation: true\n");
        StringBuilder printed = new StringBuilder();
        List<RunOutcome> outcomes = runAll(c, printed);
        assertEquals(2, outcomes.size());
        for (RunOutcome o : outcomes) {
            assertNull(o.streaming());
            assertEquals(3000, o.stats().attempted(), "no streaming, so the run is not cut short");
            FirstViolation f = o.firstViolation();
            assertNotNull(f);
            assertFalse(f.whileRunning());
            assertTrue(f.atNs() > 0 && f.atNs() <= o.stats().seconds() * 1e9, f.toString());
        }
        assertTrue(printed.toString().contains("(detected while running in 0, from the end-of-run check in 2: its earliest listed counterexample, an upper bound)"),
                printed.toString());
    }

    @Test
    void serializableStaysCleanWhileCheckedAndRunsToItsEnd() throws Exception {
        Campaign c = Campaigns.parse(store, yaml("pg-ser-stream", "serializable", "6s", "stop-on-violation: true\n"));
        List<RunOutcome> outcomes = runAll(c.withStopOnViolation(Campaign.StopOnViolation.RUN),
                new StringBuilder());
        RunOutcome o = outcomes.get(0);
        assertNull(o.error(), o.error());
        StreamingReport s = o.streaming();
        assertNotNull(s, "mini workloads are checked while running");
        assertNull(s.detection(), "no violation while running");
        assertNull(s.gaveUp(), s.gaveUp());
        assertTrue(s.checks() >= 10, "checked every few hundred ms: " + s);
        assertTrue(s.prefixTxns() > 1000, s.toString());
        assertTrue(o.stats().seconds() >= 5.5, "ran to the end: " + o.stats().seconds() + " s");
        assertEquals(Verdict.VALID, o.result().level(SERIALIZABLE).verdict());
        assertEquals(0, o.exitStatus());
        assertNull(o.firstViolation());
        JsonNode j = JSON.readTree(o.dir().results().toFile()).get("streaming");
        assertTrue(j.get("first_violation_ms").isNull() && j.get("checks").asInt() == s.checks(), j.toString());
        assertFalse(Files.exists(store.resolve("pg-ser-stream").resolve("campaign-summary.json")), "one run");
        assertEquals(null, o.result().level(STRICT_SERIALIZABLE), "only the levels asked (and weaker) are examined");
    }
}
