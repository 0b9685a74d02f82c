package isostress.harness.run;

import isostress.checker.history.Outcome;
import isostress.generator.sql.SqlWorkload;
import isostress.harness.cli.Main;
import isostress.harness.sql.SqlHistoryRecorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code isostress report} on a run directory whose harness was killed: no results.json, only the history. */
class KilledRunTest {
    @TempDir
    Path dir;

    /** Two concurrent read-modify-writes of x that both commit: a lost update, found from the history alone. */
    @Test
    void reportChecksTheHistoryAndSaysTheRunDidNotFinish() throws Exception {
        Files.writeString(dir.resolve("campaign.yaml"), "name: killed\n"
                + "database: {type: postgresql, isolation: serializable}\n"
                + "workload: {type: mini, sessions: 2, transactions: 100, keys: 5, seed: 1}\n");
        Files.createDirectories(dir.resolve("logs"));
        Files.writeString(dir.resolve("logs/harness.log"), "2026-11-25T16:00:28.284 run 1 of killed\n"
                + "2026-11-25T16:00:35.577Z watchdog: harness 42 exited without stopping what it started: killed 3 "
                + "process(es), removed 0 container(s) and 1 data directory(ies) in 812 ms\n");
        Files.writeString(dir.resolve("history.jsonl"), String.join("\n",
                "{\"type\":\"header\",\"real-time\":true,\"initial-default\":0}",
                "{\"index\":0,\"type\":\"invoke\",\"process\":0,\"time\":1000,\"f\":\"txn\",\"value\":[[\"r\",1,null],[\"w\",1,1]]}",
                "{\"index\":1,\"type\":\"invoke\",\"process\":1,\"time\":1100,\"f\":\"txn\",\"value\":[[\"r\",1,null],[\"w\",1,2]]}",
                "{\"index\":2,\"type\":\"ok\",\"process\":0,\"time\":2000,\"f\":\"txn\",\"value\":[[\"r\",1,0],[\"w\",1,1]]}",
                "{\"index\":3,\"type\":\"ok\",\"process\":1,\"time\":2100,\"f\":\"txn\",\"value\":[[\"r\",1,0],[\"w\",1,2]]}",
                // invoked, never completed: the harness died first
                "{\"index\":4,\"type\":\"invoke\",\"process\":0,\"time\":3000,\"f\":\"txn\",\"value\":[[\"r\",1,null]]}",
                ""));
        StringWriter out = new StringWriter();
        assertEquals(0, report(out, dir));
        assertTrue(out.toString().contains("has no results.json"), out.toString());
        assertTrue(out.toString().contains("Verdict: invalid"), out.toString());
        assertTrue(out.toString().contains("killed 3 process(es)"), out.toString());
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("The run stopped early: the run did not finish"), html);
        assertTrue(html.contains("INVALID"));
        assertFalse(Files.exists(dir.resolve("results.json")), "results.json stays the record of runs that ended");
    }

    @Test
    void anSqlHistoryIsCheckedByTheSqlChecker() throws Exception {
        try (SqlHistoryRecorder h = new SqlHistoryRecorder(dir.resolve("history.jsonl"), "killed",
                List.of(new SqlWorkload.Row(0, 0, 100)))) {
            h.txn(0, 0, "ser", Outcome.OK, h.now(), List.of());
        }
        StringWriter out = new StringWriter();
        assertEquals(0, report(out, dir));
        assertTrue(out.toString().contains("Verdict: valid"), out.toString());
        assertTrue(Files.readString(dir.resolve("report.html")).contains("did not finish"));
    }

    @Test
    void aRunKilledBeforeItsWorkloadHasNothingToReport() throws Exception {
        Files.createDirectories(dir.resolve("logs"));
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        assertEquals(Main.BAD_INPUT, cl.execute("report", dir.toString()));
        assertTrue(err.toString().contains("no results.json and no history.jsonl"), err.toString());
    }

    private static int report(StringWriter out, Path dir) {
        CommandLine cl = Main.commandLine();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute("report", dir.toString());
        if (code != 0) System.out.println(err);
        return code;
    }
}
