package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.history.Outcome;
import isostress.checker.model.WitnessReport;
import isostress.harness.Services;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.mariadb.LocalMariaDbProvisioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code check.witness} against local MariaDB and a local Galera cluster: the binary log read during the run holds
 * every acknowledged writer and nothing else, resolves the transactions a kill leaves unknown, and on Galera holds
 * every node's log.
 */
class MariaDbWitnessTest {
    private static final Pattern NODE = Pattern.compile("\"node\":\"([^\"]+)\"");

    @TempDir
    Path store;

    /** A run with the witness on by default (local MariaDB, a key-value workload). */
    private RunOutcome run(String name, String database, String workload, String extra) throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, "name: " + name + "\n"
                + "database: {type: mariadb, provision: local, " + database + "}\n"
                + "workload: {" + workload + "}\n" + extra
                + "check: {levels: [read-committed]}\n"));
        assertNull(o.error(), o.error());
        assertTrue(Files.exists(o.dir().witness()), "witness.jsonl");
        assertNotNull(o.result().witness(), "the result has the witness");
        assertTrue(Files.readString(o.dir().results()).contains("\"witness\""), "results.json has the witness");
        return o;
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void miniRunLogsEveryAcknowledgedWriterAndNoSchemaRow() throws Exception {
        Services.requireLocalMariaDb();
        RunOutcome o = run("maria-witness-mini", "isolation: repeatable-read",
                "type: mini, sessions: 6, transactions: 3000, keys: 20, seed: 4", "");
        WitnessReport w = o.result().witness();
        assertEquals(0, w.findingCount(), w.summary());
        History h = HistoryFormat.JSONL.read(o.dir().history());
        long ok = WitnessRuns.writers(h, Outcome.OK);
        assertEquals(ok + w.infoCommitted(), w.matched(), w.summary() + "; ok writers " + ok);
        assertEquals(w.matched(), w.transactions(), w.summary());
        assertTrue(w.matched() > 1000, w.summary());
        WitnessRuns.assertNoInitialRow(o.dir().witness());
        assertTrue(Files.readString(o.dir().witness()).contains("\"txid\":\"0-1-"), Files.readAllLines(o.dir().witness()).get(0));
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void listAppendRunLogsEachAppendedElement() throws Exception {
        Services.requireLocalMariaDb();
        RunOutcome o = run("maria-witness-lists", "isolation: serializable",
                "type: list-append, sessions: 4, transactions: 1500, keys: 10, seed: 2", "");
        WitnessReport w = o.result().witness();
        assertEquals(0, w.findingCount(), w.summary());
        History h = HistoryFormat.JSONL.read(o.dir().history());
        assertEquals(WitnessRuns.writers(h, Outcome.OK) + w.infoCommitted(), w.matched(), w.summary());
        assertTrue(Files.readString(o.dir().witness()).contains("[\"append\","), "appends in the log");
    }

    /**
     * No workload deletes rows: a row another client deletes during the run is in the binary log (a delete-rows event
     * with the row's before image) and the join reports it, an unrecorded write naming the key; the verdict is invalid.
     */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void rowDeletedByAnotherClientIsAnUnrecordedWrite() throws Exception {
        Services.requireLocalMariaDb();
        WitnessRuns.runWithSideDelete(Campaigns.parse(store, "name: maria-witness-delete\n"
                + "database: {type: mariadb, provision: local, isolation: repeatable-read}\n"
                + "workload: {type: mini, sessions: 4, transactions: 3000, keys: 20, seed: 3}\n"
                + "check: {levels: [read-committed]}\n"), false);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void killedServerLeavesUnknownTransactionsTheLogResolves() throws Exception {
        Services.requireLocalMariaDb();
        RunOutcome o = run("maria-witness-kill", "isolation: repeatable-read, timeout: 2s",
                "type: mini, sessions: 12, transactions: 1000000, keys: 100, seed: 5, duration: 20s",
                "nemesis: {faults: [kill], interval: 3s, duration: 1s}\n");
        assertTrue(o.faults().size() >= 2, "kills: " + o.faults());
        WitnessReport w = o.result().witness();
        if (w.findingCount() > 0) System.out.println("kept at " + Campaigns.keep(o));
        History raw = HistoryFormat.JSONL.read(o.dir().history());
        long info = WitnessRuns.writers(raw, Outcome.INFO);
        JsonNode counts = new ObjectMapper().readTree(o.dir().results().toFile()).path("check").path("witness");
        System.out.println("mariadb kill: " + o.faults().size() + " kills, " + info + " info writers; results.json "
                + "witness: " + counts.path("transactions") + " transactions, lost_write " + counts.path("lost_write")
                + ", failed_but_committed " + counts.path("failed_but_committed") + ", unrecorded_write "
                + counts.path("unrecorded_write") + ", split_commit " + counts.path("split_commit")
                + ", info_committed " + counts.path("info_committed") + ", info_aborted "
                + counts.path("info_aborted"));
        assertEquals(0, counts.path("lost_write").asLong(-1), w.summary());
        assertEquals(0, counts.path("failed_but_committed").asLong(-1), w.summary());
        assertEquals(0, counts.path("unrecorded_write").asLong(-1), w.summary());
        assertEquals(0, w.findingCount(), w.summary());
        // Every info transaction that wrote is settled by the log, committed or aborted.
        assertEquals(info, counts.path("info_committed").asLong(-1) + counts.path("info_aborted").asLong(-1),
                info + " info writers; " + w.summary());
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void galeraWitnessHoldsEveryNodesLogAndJoinsClean() throws Exception {
        Services.require(LocalMariaDbProvisioner.galeraAvailable(), "a local MariaDB Galera cluster",
                "apt-get install -y mariadb-server galera-4 rsync");
        RunOutcome o = run("galera-witness", "nodes: 3, isolation: repeatable-read",
                "type: mini, sessions: 6, transactions: 3000, keys: 20, seed: 2", "");
        WitnessReport w = o.result().witness();
        System.out.println("galera witness: " + w.summary());
        assertEquals(0, w.findingCount(), w.summary());
        List<String> lines = Files.readAllLines(o.dir().witness());
        Set<String> nodes = new HashSet<>();
        for (String line : lines) {
            Matcher m = NODE.matcher(line);
            assertTrue(m.find(), line);
            nodes.add(m.group(1));
        }
        assertEquals(Set.of("n1", "n2", "n3"), nodes);
        History h = HistoryFormat.JSONL.read(o.dir().history());
        long ok = WitnessRuns.writers(h, Outcome.OK);
        // Each node logs every writeset: three lines for each committed writer.
        assertEquals(3 * (ok + w.infoCommitted()), w.matched(), w.summary() + "; ok writers " + ok);
        WitnessRuns.assertNoInitialRow(o.dir().witness());
    }
}
