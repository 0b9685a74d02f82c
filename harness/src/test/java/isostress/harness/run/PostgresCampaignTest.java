package isostress.harness.run;

import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.harness.config.Campaign;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static isostress.checker.model.IsolationLevel.SNAPSHOT_ISOLATION;
import static isostress.checker.model.IsolationLevel.STRICT_SERIALIZABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** End to end against embedded PostgreSQL 16: each isolation level shows what Hermitage documents for it. */
class PostgresCampaignTest {
    @TempDir
    Path store;

    static String yaml(String isolation, int txns, int keys, String levels) {
        return "name: pg-" + isolation + "\n"
                + "database: {type: postgresql, provision: embedded, isolation: " + isolation + "}\n"
                + "workload: {type: mini, sessions: 8, transactions: " + txns + ", keys: " + keys
                + ", distribution: zipfian, seed: 7}\n"
                + "check: {levels: " + levels + "}\n";
    }

    static Verdict verdict(RunOutcome o, IsolationLevel l) {
        return o.result().level(l).verdict();
    }

    @Test
    void readCommittedLosesUpdates() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml("read-committed", 2000, 10, "[snapshot-isolation]")));
        assertNull(o.error(), o.error());
        assertEquals(Verdict.INVALID, verdict(o, SNAPSHOT_ISOLATION));
        assertTrue(o.result().anomalyCounts().getOrDefault("lost-update", 0) > 0, o.result().anomalyCounts().toString());
        assertEquals(1, o.exitStatus());
    }

    @Test
    void repeatableReadIsSnapshotIsolationButWriteSkewBreaksSerializable() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml("repeatable-read", 4000, 10,
                "[snapshot-isolation, serializable]")));
        assertNull(o.error(), o.error());
        assertEquals(Verdict.VALID, verdict(o, SNAPSHOT_ISOLATION), o.result().level(SNAPSHOT_ISOLATION).reason());
        assertEquals(Verdict.INVALID, verdict(o, SERIALIZABLE));
        assertTrue(o.result().anomalies().stream().anyMatch(a -> a.type().elleName().equals("G2-item")),
                o.result().anomalyCounts().toString());
    }

    @Test
    void upsertsIntoAnEmptyTableWithPausesBehaveLikeUpdates() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, "name: pg-upsert\n"
                + "database: {type: postgresql, isolation: read-committed, writes: upsert, op-pause: 2ms}\n"
                + "workload: {type: mini, sessions: 6, transactions: 1500, keys: 8, distribution: zipfian, seed: 3,"
                + " rotate-after: 30}\n"
                + "check: {levels: [read-committed, snapshot-isolation]}\n"));
        assertNull(o.error(), o.error());
        // A read of a row not inserted yet is the initial 0: read committed holds (no thin-air reads), and read
        // committed upserts lose updates like UPDATEs do.
        assertEquals(Verdict.VALID, verdict(o, IsolationLevel.READ_COMMITTED), o.result().anomalyCounts().toString());
        assertEquals(Verdict.INVALID, verdict(o, SNAPSHOT_ISOLATION));
        assertTrue(o.result().anomalyCounts().getOrDefault("lost-update", 0) > 0, o.result().anomalyCounts().toString());
        assertTrue(o.stats().latencyMs().get("p50") >= 1.0, "op pauses stretch transactions: " + o.stats().latencyMs());
    }

    @Test
    void listAppendUpsertsCreateTheirRowsAndStaySerializable() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, "name: pg-list-upsert\n"
                + "database: {type: postgresql, isolation: serializable, writes: upsert}\n"
                + "workload: {type: list-append, sessions: 6, transactions: 3000, keys: 8, seed: 4, rotate-after: 10}\n"
                + "check: {levels: [read-committed, serializable]}\n"));
        assertNull(o.error(), o.error());
        assertTrue(o.stats().committed() > 1000, "committed " + o.stats().committed());
        assertEquals(Verdict.VALID, verdict(o, SERIALIZABLE), o.result().anomalyCounts().toString());
        // Reads of keys no append created yet are empty lists, which the list inference must accept.
        assertTrue(Files.readString(o.dir().history()).contains("[]"), "no read of an absent row");
    }

    @Test
    void serializableIsCleanWithManyCommits() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml("serializable", 7000, 200,
                "[serializable, strict-serializable]")));
        assertNull(o.error(), o.error());
        assertTrue(o.stats().committed() >= 5000, "committed " + o.stats().committed());
        assertEquals(Verdict.VALID, verdict(o, SERIALIZABLE));
        assertEquals(Verdict.VALID, verdict(o, STRICT_SERIALIZABLE));
        assertEquals(0, o.exitStatus());
        assertTrue(Files.exists(o.dir().results()) && Files.exists(o.dir().path().resolve("campaign.yaml")));
        assertTrue(Files.isSymbolicLink(store.resolve("latest")));
        assertTrue(Files.size(o.dir().logs().resolve("postgresql.log")) > 0);
    }

    @Test
    void killedDatabaseEndsTheRunWithStatusTwoAndACheckableHistory() throws Exception {
        Campaign c = Campaigns.parse(store, yaml("serializable", 500_000, 100, "[serializable]"));
        StringBuilderWriter sw = new StringBuilderWriter();
        RunOutcome o = new CampaignRunner(c, sw.writer(), false).onDatabaseStarted(db -> {
            Thread killer = new Thread(() -> {
                try {
                    Thread.sleep(2500);
                    new ProcessBuilder("kill", "-9", String.valueOf(db.serverPid())).inheritIO().start()
                            .waitFor(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            killer.setDaemon(true);
            killer.start();
        }).run(0, 7);
        System.out.print(sw);
        assertEquals(2, o.exitStatus(), "a dead database is an infrastructure error");
        assertNotNull(o.error());
        assertTrue(o.error().contains("database"), o.error());
        assertTrue(o.stats().attempted() > 0 && o.stats().attempted() < 500_000);
        History h = HistoryFormat.JSONL.read(o.dir().history()); // still readable
        Result r = Checker.check(h, List.of(SERIALIZABLE), CheckOptions.DEFAULTS);
        assertEquals(Verdict.VALID, r.verdict(), "no violation from the crash itself: " + r.levels());
        assertTrue(sw.toString().contains("ERROR: the run stopped"), sw.toString());
    }

    /** A PrintWriter over a StringBuilder, for capturing a run's summary. */
    static final class StringBuilderWriter {
        private final java.io.StringWriter sw = new java.io.StringWriter();

        java.io.PrintWriter writer() {
            return new java.io.PrintWriter(sw, true);
        }

        @Override
        public String toString() {
            return sw.toString();
        }
    }
}
