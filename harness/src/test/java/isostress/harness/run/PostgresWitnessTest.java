package isostress.harness.run;

import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.history.Outcome;
import isostress.checker.model.WitnessReport;
import isostress.checker.witness.WitnessJoin;
import isostress.harness.db.DatabaseAdapter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code check.witness} against embedded PostgreSQL 16: the commit log read through logical decoding during the run
 * holds every acknowledged writer, nothing else, and resolves the transactions a kill leaves unknown.
 */
class PostgresWitnessTest {
    @TempDir
    Path store;

    private RunOutcome run(String name, String workload, String extra) throws Exception {
        var campaign = Campaigns.parse(store, "name: " + name + "\n"
                + "database: {type: postgresql, isolation: serializable, timeout: 2s}\n"
                + "workload: {" + workload + "}\n" + extra
                + "check: {levels: [serializable], witness: true}\n");
        RunOutcome o = Campaigns.run(campaign);
        assertNull(o.error(), o.error());
        // The run joined the witness its capture read while writing it; the file read back gives the same report.
        assertEquals(WitnessJoin.join(HistoryFormat.JSONL.read(o.dir().history()), o.dir().witness(),
                campaign.maxAnomalies()).report(), o.result().witness());
        assertTrue(Files.exists(o.dir().witness()), "witness.jsonl");
        assertNotNull(o.result().witness(), "the result has the witness");
        assertTrue(Files.readString(o.dir().results()).contains("\"witness\""), "results.json has the witness");
        assertTrue(Files.readString(o.dir().path().resolve("report.html")).contains("The database's commit log"),
                "report.html has the witness");
        return o;
    }

    private static void assertAgrees(RunOutcome o) throws Exception {
        WitnessReport w = o.result().witness();
        assertEquals(0, w.findingCount(), w.summary());
        History h = HistoryFormat.JSONL.read(o.dir().history());
        long ok = WitnessRuns.writers(h, Outcome.OK);
        assertEquals(ok + w.infoCommitted(), w.matched(), w.summary() + "; ok writers " + ok);
        assertEquals(w.matched(), w.transactions(), w.summary());
    }

    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void miniRunLogsEveryAcknowledgedWriterAndNoSchemaRow() throws Exception {
        RunOutcome o = run("pg-witness-mini", "type: mini, sessions: 6, transactions: 3000, keys: 20, seed: 4", "");
        assertAgrees(o);
        assertTrue(o.result().witness().matched() > 1000, o.result().witness().summary());
        // The initial rows (every key = 0) were inserted before the slot: none is in the log.
        WitnessRuns.assertNoInitialRow(o.dir().witness());
    }

    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void listAppendRunLogsEachAppendedElement() throws Exception {
        RunOutcome o = run("pg-witness-lists", "type: list-append, sessions: 4, transactions: 1500, keys: 10, seed: 2",
                "");
        assertAgrees(o);
        assertTrue(Files.readString(o.dir().witness()).contains("[\"append\","), "appends in the log");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void killedServerLeavesUnknownTransactionsTheLogResolves() throws Exception {
        RunOutcome o = run("pg-witness-kill", "type: mini, sessions: 12, transactions: 1000000, keys: 100, seed: 5, "
                + "duration: 16s", "nemesis: {faults: [kill], interval: 2s, duration: 1s}\n");
        WitnessReport w = o.result().witness();
        if (w.findingCount() > 0) System.out.println("kept at " + Campaigns.keep(o));
        assertEquals(0, w.findingCount(), w.summary());
        History raw = HistoryFormat.JSONL.read(o.dir().history());
        long info = WitnessRuns.writers(raw, Outcome.INFO);
        System.out.println("kill: " + info + " info writers; " + w.summary());
        // Every info transaction that wrote is settled by the log, committed or aborted.
        assertEquals(info, w.infoCommitted() + w.infoAborted(), info + " info writers; " + w.summary());
    }

    /**
     * With hot standbys (PostgreSQL 16 decodes on a standby) each node's log is read: every standby's lines are the
     * primary's, the same commit LSNs and xids in the same order (physical replication replays the primary's WAL),
     * and the join with several nodes is clean.
     */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void standbysLogsAreReadAndRepeatThePrimarysInItsOrder() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, "name: pg-witness-standbys\n"
                + "database: {type: postgresql, isolation: repeatable-read, replicas: 2, timeout: 2s}\n"
                + "workload: {type: mini, read-from: any, sessions: 6, transactions: 3000, keys: 20, seed: 8}\n"
                + "check: {levels: [snapshot-isolation], witness: true}\n"));
        assertNull(o.error(), o.error());
        WitnessReport w = o.result().witness();
        assertEquals(0, w.findingCount(), w.summary());
        java.util.Map<String, List<String>> perNode = new java.util.TreeMap<>();
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        for (String line : Files.readAllLines(o.dir().witness())) {
            com.fasterxml.jackson.databind.JsonNode l = json.readTree(line);
            perNode.computeIfAbsent(l.get("node").asText(), k -> new java.util.ArrayList<>())
                    .add(l.get("pos").asText() + " " + l.get("txid").asText() + " " + l.get("writes"));
        }
        assertEquals(java.util.Set.of("n1", "n2", "n3"), perNode.keySet(), "every node's log is read");
        assertTrue(perNode.get("n1").size() > 500, perNode.get("n1").size() + " primary transactions");
        assertEquals(perNode.get("n1"), perNode.get("n2"), "standby n2 replays the primary's commits in its order");
        assertEquals(perNode.get("n1"), perNode.get("n3"), "standby n3 replays the primary's commits in its order");
        assertEquals(3L * perNode.get("n1").size(), w.transactions(), w.summary());
    }

    /**
     * A recorder that lies (a bug planted on purpose: one acknowledged commit recorded as {@code fail}) is caught by
     * the log, which holds that transaction's writes: failed-but-committed, and the run's verdict is invalid.
     */
    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void plantedRecorderBugIsCaughtAsFailedButCommitted() throws Exception {
        HistoryRecorder.plantedMislabelForTests = 700;
        RunOutcome o;
        try {
            o = run("pg-witness-planted", "type: mini, sessions: 4, transactions: 2000, keys: 20, seed: 7", "");
        } finally {
            HistoryRecorder.plantedMislabelForTests = 0;
        }
        WitnessReport w = o.result().witness();
        assertEquals(1, w.failedButCommitted(), w.summary());
        assertEquals(0, w.lostWrite() + w.splitCommit() + w.unrecordedWrite(), w.summary());
        long planted = Files.readAllLines(o.dir().history()).stream()
                .filter(l -> l.contains("planted: a committed transaction recorded as failed")).count();
        assertEquals(1, planted, "the history holds the one mislabelled transaction");
        assertEquals(1, o.exitStatus(), "a witness finding makes the verdict invalid");
        assertTrue(Files.readString(o.dir().results()).matches("(?s).*\"failed_but_committed\"\\s*:\\s*1\\b.*"),
                "results.json counts it");
    }

    /**
     * No workload deletes rows: a row another client deletes during the run is in the log (test_decoding's
     * {@code DELETE: k[bigint]:K}) and the join reports it, an unrecorded write naming the key; the verdict is invalid.
     */
    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void rowDeletedByAnotherClientIsAnUnrecordedWrite() throws Exception {
        RunOutcome o = WitnessRuns.runWithSideDelete(Campaigns.parse(store, "name: pg-witness-delete\n"
                + "database: {type: postgresql, isolation: serializable, timeout: 2s}\n"
                + "workload: {type: mini, sessions: 4, transactions: 3000, keys: 20, seed: 3}\n"
                + "check: {levels: [serializable], witness: true}\n"), false);
        assertTrue(Files.readString(o.dir().path().resolve("report.html")).contains("deleted key "
                + WitnessRuns.DELETED_KEY), "report.html explains the delete");
    }

    /** The same in a list table: test_decoding logs a list row's delete by its key too (the primary key). */
    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void listRowDeletedByAnotherClientIsAnUnrecordedWrite() throws Exception {
        WitnessRuns.runWithSideDelete(Campaigns.parse(store, "name: pg-witness-list-delete\n"
                + "database: {type: postgresql, isolation: serializable, timeout: 2s}\n"
                + "workload: {type: list-append, sessions: 4, transactions: 1500, keys: 10, seed: 3}\n"
                + "check: {levels: [serializable], witness: true}\n"), true);
    }

    /** A server that cannot decode its log (as an external one may be) stops the run before its workload. */
    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void serverWithoutLogicalWalStopsTheRunBeforeTheWorkload() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, "name: pg-witness-replica\n"
                + "database: {type: postgresql, settings: {wal_level: replica}}\n"
                + "workload: {type: mini, sessions: 2, transactions: 100, keys: 5, seed: 1}\n"
                + "check: {witness: true}\n"));
        assertNotNull(o.error());
        assertTrue(o.error().startsWith("check.witness needs wal_level = logical"), o.error());
        assertTrue(o.error().contains("has wal_level = replica"), o.error());
        assertEquals(2, o.exitStatus());
        assertEquals(0, o.stats().attempted(), "no transaction ran");
    }
}
