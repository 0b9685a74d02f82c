package isostress.checker.witness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.checker.Checker;
import isostress.checker.Hist;
import isostress.checker.explain.ResultJson;
import isostress.checker.explain.TextRenderer;
import isostress.checker.history.History;
import isostress.checker.history.InputException;
import isostress.checker.history.Outcome;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.model.WitnessFinding;
import isostress.checker.model.WitnessFinding.Kind;
import isostress.checker.model.WitnessReport;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hand-made history and witness pairs: a clean pair, each finding (lost write, split commit, failed but committed,
 * unrecorded write), info transactions resolved both ways (and the aborted read the resolution exposes), several
 * nodes logging one commit, a planted mislabel, and a million transactions joined in bounded time.
 */
class WitnessJoinTest {
    static Witness witness(String... lines) throws IOException {
        return WitnessReader.read(new ByteArrayInputStream(String.join("\n", lines).getBytes(StandardCharsets.UTF_8)),
                "witness.jsonl");
    }

    static Result check(WitnessJoin.Joined j, IsolationLevel level) {
        return Checker.check(j.resolved(), List.of(level), CheckOptions.DEFAULTS).withWitness(j.report());
    }

    static WitnessFinding only(WitnessReport r, Kind kind) {
        assertEquals(1, r.findings().size(), () -> "findings: " + r.findings());
        WitnessFinding f = r.findings().get(0);
        assertEquals(kind, f.kind());
        return f;
    }

    /**
     * The join names a write's transaction by its value: a value two transactions wrote is refused, naming the first
     * such write in the history's order (here T2's of key 1, before T3's of key 2), while a transaction writing a
     * value twice is one write.
     */
    @Test
    void aValueTwoTransactionsWroteIsRefusedAtItsFirstOccurrence() throws IOException {
        History h = new Hist().ok(1, "w 1 1, w 1 1").ok(2, "w 2 5").ok(3, "r 2 5, w 1 1").ok(4, "w 2 5").build();
        InputException e = assertThrows(InputException.class, () -> WitnessJoin.join(h, witness(), 10));
        assertTrue(e.getMessage().contains("key 1 value 1 is written by T0 (line "), e.getMessage());
        assertTrue(e.getMessage().contains(") and T2: the witness join names a write's transaction by its value"),
                e.getMessage());
        History once = new Hist().ok(1, "w 1 1, w 1 1, w 2 3").ok(2, "r 1 1").build();
        WitnessJoin.Joined j = WitnessJoin.join(once, witness(
                "{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"w\",1,1],[\"w\",2,3]]}"), 10);
        assertEquals(1, j.report().matched(), j.report().summary());
        assertEquals(0, j.report().findingCount(), j.report().summary());
    }

    /**
     * Joined from a file as from the witness read from it: the same report, order and log; a bad file's error comes
     * before the history's own.
     */
    @Test
    void aFileIsJoinedAsAWitnessReadFirstAndItsErrorComesFirst(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws IOException {
        History h = new Hist().ok(1, "w 1 1, w 2 1").ok(2, "r 1 1, w 1 2").fail(3, "w 3 1").info(4, "w 4 1").build();
        String text = "{\"pos\":1,\"node\":\"n1\",\"txid\":\"700\",\"writes\":[[\"w\",1,1],[\"w\",2,1]]}\n"
                + "{\"pos\":2,\"node\":\"n1\",\"txid\":701,\"writes\":[[\"w\",1,2],[\"w\",9,9]]}\n";
        java.nio.file.Path f = dir.resolve("witness.jsonl");
        java.nio.file.Files.writeString(f, text);
        WitnessJoin.Joined fromFile = WitnessJoin.join(h, f, 10);
        WitnessJoin.Joined read = WitnessJoin.join(h, WitnessReader.read(f), 10);
        assertEquals(read.report(), fromFile.report());
        assertEquals(1, fromFile.report().infoAborted(), fromFile.report().summary());
        assertEquals(1, fromFile.report().unrecordedWrite(), fromFile.report().summary());
        assertEquals(read.log().size(), fromFile.log().size());
        for (int t = 0; t < read.log().size(); t++) assertEquals(read.log().txn(t), fromFile.log().txn(t));
        assertEquals(read.order(), fromFile.order());

        History dup = new Hist().ok(1, "w 1 1").ok(2, "w 1 1").build();
        java.nio.file.Files.writeString(f, text + "{\"pos\":2,\"node\":\"n1\",\"txid\":\"9\",\"writes\":[]}\n");
        InputException bad = assertThrows(InputException.class, () -> WitnessJoin.join(dup, f, 10));
        assertTrue(bad.getMessage().startsWith(f + ":3: "), bad.getMessage());
        assertThrows(java.nio.file.NoSuchFileException.class, () -> WitnessJoin.join(dup, dir.resolve("none"), 10));
        java.nio.file.Files.writeString(f, text);
        InputException history = assertThrows(InputException.class, () -> WitnessJoin.join(dup, f, 10));
        assertTrue(history.getMessage().contains("values must be unique"), history.getMessage());
    }

    @Test
    void cleanPairIsValidAndEverythingMatched() throws IOException {
        History h = new Hist().ok(1, "w 1 1, w 2 1").ok(2, "r 1 1, w 1 2").fail(3, "w 3 1").ok(1, "r 2 1").build();
        Witness w = witness("{\"pos\":1,\"node\":\"n1\",\"txid\":\"700\",\"writes\":[[\"w\",1,1],[\"w\",2,1]]}",
                "{\"pos\":2,\"node\":\"n1\",\"txid\":701,\"writes\":[[\"w\",1,2]]}",
                "{\"pos\":3,\"node\":\"n1\",\"txid\":\"702\",\"writes\":[]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        WitnessReport r = j.report();
        assertEquals(3, r.transactions());
        assertEquals(2, r.matched(), "the log transaction without writes is not matched");
        assertEquals(0, r.findingCount());
        assertTrue(r.findings().isEmpty());
        Result res = check(j, IsolationLevel.SERIALIZABLE);
        assertEquals(Verdict.VALID, res.verdict());
        assertEquals("witness: 3 log transactions; 2 matched; info resolved 0 committed, 0 aborted; 0 lost, 0 split, "
                + "0 failed-but-committed, 0 unrecorded", r.summary());
    }

    @Test
    void acknowledgedCommitMissingFromTheLogIsALostWrite() throws IOException {
        History h = new Hist().ok(1, "w 1 1").ok(2, "w 2 1, w 3 9").build();
        Witness w = witness("{\"pos\":5,\"node\":\"n1\",\"txid\":\"71\",\"writes\":[[\"w\",1,1]]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        WitnessFinding f = only(j.report(), Kind.LOST_WRITE);
        assertEquals(1, f.txn().id());
        assertTrue(f.log().isEmpty());
        assertEquals(2, f.writes().size());
        Result res = check(j, IsolationLevel.SERIALIZABLE);
        assertEquals(Verdict.INVALID, res.verdict(), "a lost write makes the result invalid though every level holds");
        assertTrue(res.weakestViolated().isEmpty());
        String text = TextRenderer.render(f, true);
        assertTrue(text.startsWith("lost-write — the history disagrees with the database's commit log\n"), text);
        assertTrue(text.contains("T1 = {w 2 1, w 3 9} (process 2, ok"), text);
        assertTrue(text.contains("The history: T1 committed (ok)."), text);
        assertTrue(text.contains("The log: no log transaction holds any of its writes."), text);
        assertTrue(text.contains("none of its writes (w 2 1, w 3 9) is in the database's commit log"), text);
    }

    @Test
    void partOfAnAcknowledgedCommitMissingIsALostWriteNamingThePartThere() throws IOException {
        History h = new Hist().ok(1, "w 1 1, w 2 1").build();
        Witness w = witness("{\"pos\":5,\"node\":\"n1\",\"txid\":\"71\",\"writes\":[[\"w\",1,1]]}");
        WitnessFinding f = only(WitnessJoin.join(h, w, 10).report(), Kind.LOST_WRITE);
        assertEquals(List.of(new isostress.checker.history.MicroOp.Write(2, 1)), f.writes());
        String text = TextRenderer.render(f, true);
        assertTrue(text.contains("  n1 pos 5 (txid 71, line 1) = {w 1 1}"), text);
        assertTrue(text.contains("w 2 1 is in no log transaction"), text);
    }

    @Test
    void writesOverSeveralLogTransactionsAreASplitCommit() throws IOException {
        History h = new Hist().ok(1, "w 1 1, w 2 1").info(2, "w 3 1, w 4 1").build();
        Witness w = witness("{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"w\",1,1]]}",
                "{\"pos\":2,\"node\":\"n1\",\"txid\":\"2\",\"writes\":[[\"w\",2,1]]}",
                "{\"pos\":3,\"node\":\"n1\",\"txid\":\"3\",\"writes\":[[\"w\",3,1]]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        WitnessReport r = j.report();
        assertEquals(2, r.splitCommit());
        assertEquals(0, r.lostWrite());
        WitnessFinding ok = r.findings().get(0), info = r.findings().get(1);
        assertEquals(0, ok.txn().id());
        assertEquals(2, ok.log().size());
        assertTrue(TextRenderer.render(ok, true).contains("has its writes in 2 log transactions (n1 pos 1 (txid 1, "
                + "line 1) and n1 pos 2 (txid 2, line 2))"), TextRenderer.render(ok, true));
        assertEquals(1, info.txn().id());
        assertTrue(TextRenderer.render(info, true).contains("w 4 1 in none: it committed in part"),
                TextRenderer.render(info, true));
        assertEquals(Outcome.INFO, j.resolved().outcome(1), "a transaction committed in part is neither ok nor fail");
        assertEquals(Verdict.INVALID, check(j, IsolationLevel.READ_COMMITTED).verdict());
    }

    @Test
    void failedTransactionInTheLogIsFailedButCommitted() throws IOException {
        History h = new Hist().ok(1, "w 1 1").fail(2, "w 1 2, w 2 2").build();
        Witness w = witness("{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"w\",1,1]]}",
                "{\"pos\":2,\"node\":\"n1\",\"txid\":\"2\",\"writes\":[[\"w\",1,2]]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        WitnessFinding f = only(j.report(), Kind.FAILED_BUT_COMMITTED);
        assertEquals(1, f.txn().id());
        assertEquals(List.of(new isostress.checker.history.MicroOp.Write(1, 2)), f.writes(), "what the log holds");
        String text = TextRenderer.render(f, true);
        assertTrue(text.contains("The history: T1 aborted (fail: the client was told it did not commit)."), text);
        assertTrue(text.contains("  n1 pos 2 (txid 2, line 2) = {w 1 2}"), text);
        assertTrue(text.contains("T1 failed (the client was told it aborted), but the commit log holds w 1 2 in n1 pos "
                + "2 (txid 2, line 2): it committed."), text);
        assertEquals(Verdict.INVALID, check(j, IsolationLevel.SERIALIZABLE).verdict());
    }

    @Test
    void writeNoTransactionMadeIsUnrecorded() throws IOException {
        History h = new Hist().ok(1, "w 1 1").build();
        Witness w = witness("{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"w\",1,1]]}",
                "{\"pos\":2,\"node\":\"n1\",\"txid\":\"9\",\"writes\":[[\"w\",7,3],[\"append\",8,4]]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        WitnessFinding f = only(j.report(), Kind.UNRECORDED_WRITE);
        assertNull(f.txn());
        assertEquals(1, j.report().unrecordedWrite());
        assertEquals(1, j.report().matched());
        String text = TextRenderer.render(f, true);
        assertTrue(text.contains("The history: no transaction of the history wrote w 7 3, append 8 4."), text);
        assertTrue(text.contains("n1 pos 2 (txid 9, line 2) wrote w 7 3, append 8 4, which no transaction of the "
                + "history wrote"), text);
        assertEquals(Verdict.INVALID, check(j, IsolationLevel.SERIALIZABLE).verdict());
    }

    /**
     * No workload deletes rows: a deleted row in the log is someone else's write, an unrecorded write naming the key;
     * a delete has no value, so it is never taken for a write of one (here key 1's value 0, which T0 wrote).
     */
    @Test
    void aDeletedRowIsAnUnrecordedWriteNamingItsKey() throws Exception {
        History h = new Hist().ok(1, "w 1 0").ok(2, "w 2 5").build();
        Witness w = witness("{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"w\",1,0]]}",
                "{\"pos\":2,\"node\":\"n1\",\"txid\":\"2\",\"writes\":[[\"w\",2,5]]}",
                "{\"pos\":3,\"node\":\"n1\",\"txid\":\"9\",\"writes\":[[\"delete\",1]]}",
                "{\"pos\":4,\"node\":\"n1\",\"txid\":\"10\",\"writes\":[[\"w\",7,3],[\"delete\",2],[\"delete\",8]]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        WitnessReport r = j.report();
        assertEquals(2, r.unrecordedWrite(), r.summary());
        assertEquals(2, r.matched(), "each history write in one log transaction");
        assertEquals(0, r.lostWrite() + r.splitCommit() + r.failedButCommitted(), r.summary());
        WitnessFinding first = r.findings().get(0), second = r.findings().get(1);
        assertEquals(Kind.UNRECORDED_WRITE, first.kind());
        assertEquals(List.of(new isostress.checker.history.MicroOp.Delete(1)), first.writes());
        String text = TextRenderer.render(first, true);
        assertTrue(text.contains("The history: no transaction of the history deleted key 1."), text);
        assertTrue(text.contains("  n1 pos 3 (txid 9, line 3) = {delete 1}"), text);
        assertTrue(text.contains("n1 pos 3 (txid 9, line 3) deleted key 1, which no transaction of the history did "
                + "(no workload deletes a row): the log holds a commit the history does not account for."), text);
        String both = TextRenderer.render(second, true);
        assertTrue(both.contains("n1 pos 4 (txid 10, line 4) wrote w 7 3 and deleted keys 2 and 8, which no "
                + "transaction of the history did"), both);
        Result res = check(j, IsolationLevel.SERIALIZABLE);
        assertEquals(Verdict.INVALID, res.verdict());
        JsonNode f = new ObjectMapper().readTree(ResultJson.toString(res)).get("witness").get("findings").get(0);
        assertEquals("unrecorded-write", f.get("name").asText());
        assertEquals("[[\"delete\",1]]", f.get("writes").toString());
        assertEquals("[[\"delete\",1]]", f.get("log").get(0).get("writes").toString());
        assertTrue(f.get("explanation").asText().contains("deleted key 1"), f.toString());
    }

    @Test
    void initialValuesInTheLogAreNotUnrecorded() throws IOException {
        History h = new Hist().initial(isostress.checker.history.InitialState.allKeys(0L)).ok(1, "r 1 0, w 1 1")
                .build();
        Witness w = witness("{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"w\",1,0],[\"w\",2,0]]}",
                "{\"pos\":2,\"node\":\"n1\",\"txid\":\"2\",\"writes\":[[\"w\",1,1]]}");
        assertEquals(0, WitnessJoin.join(h, w, 10).report().findingCount());
    }

    @Test
    void infoWriterTheLogLacksIsAbortedAndItsReadAnAbortedRead() throws IOException {
        History h = new Hist().info(1, "w 1 1").ok(2, "r 1 1").info(3, "r 1 1").build();
        // Without the witness, the read makes the info writer committed: valid.
        assertEquals(Verdict.VALID, Checker.check(h, List.of(IsolationLevel.READ_COMMITTED), CheckOptions.DEFAULTS)
                .verdict());
        WitnessJoin.Joined j = WitnessJoin.join(h, witness(), 10);
        assertEquals(1, j.report().infoAborted());
        assertEquals(0, j.report().findingCount());
        assertEquals(Outcome.FAIL, j.resolved().outcome(0));
        assertEquals(Outcome.INFO, j.resolved().outcome(2), "a read-only info transaction stays info");
        assertEquals(Outcome.INFO, h.outcome(0), "the history joined is unchanged");
        Result res = check(j, IsolationLevel.READ_COMMITTED);
        assertEquals(Verdict.INVALID, res.verdict());
        assertTrue(res.anomalyCounts().containsKey("G1a"), res.anomalyCounts().toString());
    }

    @Test
    void infoWriterInTheLogIsCommitted() throws IOException {
        History h = new Hist().info(1, "w 1 1, w 2 1").ok(2, "r 1 1, r 2 1").begin(3, "w 3 1").build();
        Witness w = witness("{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"w\",2,1],[\"w\",1,1]]}",
                "{\"pos\":2,\"node\":\"n1\",\"txid\":\"2\",\"writes\":[[\"w\",3,1]]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        assertEquals(2, j.report().infoCommitted());
        assertEquals(0, j.report().infoAborted());
        assertEquals(Outcome.INFO, j.resolved().outcome(0), "committed, but when is not known: counted, stays info");
        assertEquals(Outcome.INFO, j.resolved().outcome(2), "never completed: committed, stays info");
        assertEquals(Verdict.VALID, check(j, IsolationLevel.SERIALIZABLE).verdict());
    }

    @Test
    void committedInfoTransactionWithAReadNotKnownStaysInfo() throws IOException {
        // An info completion's null read means "not known"; made ok, it would mean "read the initial value".
        History h = new Hist().ok(1, "w 1 1").info(2, "r 1 nil, w 1 2").build();
        Witness w = witness("{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"w\",1,1]]}",
                "{\"pos\":2,\"node\":\"n1\",\"txid\":\"2\",\"writes\":[[\"w\",1,2]]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        assertEquals(1, j.report().infoCommitted());
        assertEquals(Outcome.INFO, j.resolved().outcome(1));
        assertEquals(Verdict.VALID, check(j, IsolationLevel.STRICT_SERIALIZABLE).verdict(), "no stale read is made up");
        // Made ok, its read of key 1 would be a read of the initial value after T0 wrote 1 and completed: a cycle.
        assertEquals(Verdict.INVALID, Checker.check(h.withOutcomes(java.util.Map.of(1, Outcome.OK)),
                List.of(IsolationLevel.STRICT_SERIALIZABLE), CheckOptions.DEFAULTS).verdict());
    }

    @Test
    void replicasLoggingTheSameCommitMatchButOneNodeLoggingItTwiceIsSplit() throws IOException {
        History h = new Hist().ok(1, "w 1 1, w 2 1").ok(2, "w 1 2").build();
        Witness w = witness("{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"w\",1,1],[\"w\",2,1]]}",
                "{\"pos\":1,\"node\":\"n2\",\"txid\":\"0-1-1\",\"writes\":[[\"w\",1,1],[\"w\",2,1]]}",
                "{\"pos\":2,\"node\":\"n2\",\"txid\":\"0-1-2\",\"writes\":[[\"w\",1,2]]}",
                "{\"pos\":3,\"node\":\"n2\",\"txid\":\"0-1-3\",\"writes\":[[\"w\",1,2]]}");
        WitnessReport r = WitnessJoin.join(h, w, 10).report();
        WitnessFinding f = only(r, Kind.SPLIT_COMMIT);
        assertEquals(1, f.txn().id());
        assertEquals(List.of("0-1-2", "0-1-3"), f.log().stream().map(l -> l.txid()).toList());
    }

    @Test
    void stringKeysJoinTheHistorysStringKeys() throws IOException {
        History h = isostress.checker.history.HistoryFormat.JSONL.reader().read(new ByteArrayInputStream((
                "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"value\":[[\"w\",\"x\",1]]}\n"
                + "{\"index\":1,\"type\":\"ok\",\"process\":1,\"value\":[[\"w\",\"x\",1]]}\n")
                .getBytes(StandardCharsets.UTF_8)), "h.jsonl");
        assertEquals(0, WitnessJoin.join(h, witness("{\"pos\":1,\"node\":\"n\",\"txid\":\"1\",\"writes\":[[\"w\",\"x\",1]]}"),
                10).report().findingCount());
        WitnessReport r = WitnessJoin.join(h, witness("{\"pos\":1,\"node\":\"n\",\"txid\":\"1\",\"writes\":"
                + "[[\"w\",\"x\",1],[\"w\",\"y\",1]]}"), 10).report();
        WitnessFinding f = only(r, Kind.UNRECORDED_WRITE);
        assertTrue(TextRenderer.render(f, true).contains("wrote w \"y\" 1,"), TextRenderer.render(f, true));
    }

    @Test
    void aValueWrittenTwiceIsRefusedWithASentence() {
        History h = new Hist().ok(1, "w 1 1").ok(2, "w 1 1").build();
        InputException e = assertThrows(InputException.class, () -> WitnessJoin.join(h, witness(), 10));
        assertTrue(e.getMessage().contains("key 1 value 1 is written by T0") && e.getMessage().contains("and T1"),
                e.getMessage());
    }

    @Test
    void findingsAreListedUpToTheLimitAndAllCounted() throws IOException {
        Hist b = new Hist();
        for (int i = 0; i < 5; i++) b.ok(1, "w " + i + " 1");
        WitnessReport r = WitnessJoin.join(b.build(), witness(), 2).report();
        assertEquals(5, r.lostWrite());
        assertEquals(2, r.findings().size());
    }

    @Test
    void resultsJsonCarriesTheWitnessObject() throws Exception {
        History h = new Hist().ok(1, "w 1 1").fail(2, "w 2 1").build();
        Witness w = witness("{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"w\",2,1]]}");
        Result res = check(WitnessJoin.join(h, w, 10), IsolationLevel.SERIALIZABLE);
        JsonNode j = new ObjectMapper().readTree(ResultJson.toString(res));
        assertEquals("invalid", j.get("verdict").asText());
        JsonNode o = j.get("witness");
        for (String k : List.of("transactions", "matched", "info_committed", "info_aborted", "lost_write",
                "split_commit", "failed_but_committed", "unrecorded_write")) {
            assertTrue(o.has(k), k + " in " + o);
        }
        assertEquals(1, o.get("lost_write").asInt());
        assertEquals(1, o.get("failed_but_committed").asInt());
        JsonNode lost = o.get("findings").get(0);
        assertEquals("lost-write", lost.get("name").asText());
        assertEquals(0, lost.get("txn").get("id").asInt());
        JsonNode fbc = o.get("findings").get(1);
        assertEquals("failed-but-committed", fbc.get("name").asText());
        assertEquals("n1", fbc.get("log").get(0).get("node").asText());
        assertEquals(1, fbc.get("log").get(0).get("pos").asLong());
        assertEquals("1", fbc.get("log").get(0).get("txid").asText());
        assertTrue(fbc.get("explanation").asText().contains("it committed"), fbc.toString());
        // Without a witness there is no witness object.
        assertTrue(!new ObjectMapper().readTree(ResultJson.toString(Checker.check(h))).has("witness"));
    }

    /** A random clean pair: every ok transaction's writes one log transaction, in id order. */
    static String[] cleanPair(Hist b, int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        String[] log = new String[n];
        long[] last = new long[8];
        int pos = 0;
        for (int t = 0; t < n; t++) {
            int k1 = r.nextInt(8), k2 = (k1 + 1 + r.nextInt(7)) % 8;
            long v1 = t * 2L + 1, v2 = t * 2L + 2;
            b.ok(t % 4, "r " + k1 + " " + (last[k1] == 0 ? "nil" : last[k1]) + ", w " + k1 + " " + v1 + ", w " + k2
                    + " " + v2);
            last[k1] = v1;
            last[k2] = v2;
            log[t] = "{\"pos\":" + (++pos) + ",\"node\":\"n1\",\"txid\":\"" + (1000 + t) + "\",\"writes\":[[\"w\","
                    + k1 + "," + v1 + "],[\"w\"," + k2 + "," + v2 + "]]}";
        }
        return log;
    }

    @Test
    void aPlantedMislabelIsCaughtAsFailedButCommitted() throws IOException {
        String[] log = cleanPair(new Hist(), 200, 5);
        History clean = rebuild(200, 5, -1);
        WitnessJoin.Joined j = WitnessJoin.join(clean, witness(log), 10);
        assertEquals(0, j.report().findingCount());
        assertEquals(200, j.report().matched());
        assertEquals(Verdict.VALID, check(j, IsolationLevel.STRICT_SERIALIZABLE).verdict());
        History flipped = rebuild(200, 5, 137);
        WitnessFinding f = only(WitnessJoin.join(flipped, witness(log), 10).report(), Kind.FAILED_BUT_COMMITTED);
        assertEquals(137, f.txn().id());
        assertEquals("1137", f.log().get(0).txid());
    }

    /** The clean pair's history with transaction {@code flip} recorded as failed (none when -1). */
    private static History rebuild(int n, long seed, int flip) {
        Hist b = new Hist();
        cleanPair(b, n, seed);
        History h = b.build();
        if (flip < 0) return h;
        return h.withOutcomes(java.util.Map.of(flip, Outcome.FAIL));
    }

    @Test
    void aMillionTransactionsJoinInBoundedTime() {
        int n = 1_000_000;
        History.Builder hb = History.builder().source("big");
        Witness.Builder wb = Witness.builder("big-witness");
        for (int t = 0; t < n; t++) {
            hb.beginTxn(t % 64, t % 100 == 0 ? Outcome.INFO : Outcome.OK, 2L * t, 2L * t + 1, -1, -1, t + 1);
            hb.read(t % 1000, t >= 1000 ? Long.valueOf(t - 1000) : null);
            hb.write(t % 1000, t);
            hb.endTxn();
            wb.begin("n1", t, Integer.toString(t), t + 1);
            wb.write(t % 1000, t);
        }
        History h = hb.build();
        Witness w = wb.build();
        long t0 = System.nanoTime();
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("WitnessJoinTest: joined " + n + " transactions in " + ms + " ms");
        assertEquals(n, j.report().matched());
        assertEquals(n / 100, j.report().infoCommitted());
        assertEquals(0, j.report().findingCount());
        assertTrue(ms < 15_000, "the join took " + ms + " ms");
    }
}
