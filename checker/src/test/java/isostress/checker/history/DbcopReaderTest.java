package isostress.checker.history;

import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** dbcop histories in their three encodings: legacy JSON, current JSON and bincode. */
class DbcopReaderTest {
    /** serde_json of the legacy {@code dbcop::db::history::History}, pretty-printed as serde_json does. */
    static final String LEGACY = String.join("\n",
            "{",
            "  \"params\": {\"id\": 0, \"n_node\": 2, \"n_variable\": 2, \"n_transaction\": 2, \"n_event\": 2},",
            "  \"info\": \"executed\",",
            "  \"start\": \"2019-06-01T10:00:00+02:00\",",
            "  \"end\": \"2019-06-01T10:00:01+02:00\",",
            "  \"data\": [",
            "    [",
            "      {\"events\": [{\"write\": false, \"variable\": 1, \"value\": 0, \"success\": true},",
            "                  {\"write\": true, \"variable\": 1, \"value\": 1, \"success\": true}], \"success\": true},",
            "      {\"events\": [{\"write\": true, \"variable\": 2, \"value\": 1, \"success\": true},",
            "                  {\"write\": true, \"variable\": 1, \"value\": 9, \"success\": false}], \"success\": false}",
            "    ],",
            "    [",
            "      {\"events\": [{\"write\": false, \"variable\": 1, \"value\": 1, \"success\": true}], \"success\": true}",
            "    ]",
            "  ]",
            "}", "");

    static History read(String json) throws IOException {
        return new DbcopReader().read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "h.json");
    }

    static InputException fails(String json) {
        return assertThrows(InputException.class, () -> read(json));
    }

    static InputException failsBinary(byte[] bytes) {
        return assertThrows(InputException.class,
                () -> new DbcopReader().read(new ByteArrayInputStream(bytes), "history.bincode"));
    }

    static void expect(InputException e, int line, String fragment) {
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith("h.json:" + line + ": ") || line == 0, e.getMessage());
        assertTrue(e.getMessage().contains(fragment), "'" + fragment + "' not in: " + e.getMessage());
    }

    static List<MicroOp> ops(History h, int t) {
        return h.txn(t).ops();
    }

    @Test
    void legacyJson() throws IOException {
        History h = read(LEGACY);
        assertLegacy(h);
        assertEquals(8, h.line(0));
        assertEquals(10, h.line(1));
        assertEquals(14, h.line(2));
    }

    /** The history of {@link #LEGACY}, however encoded. */
    static void assertLegacy(History h) {
        assertEquals(3, h.size());
        assertFalse(h.realTime());
        assertEquals(InitialState.allKeys(0L), h.initial());
        assertEquals(List.of(0L, 0L, 1L), List.of(h.process(0), h.process(1), h.process(2)));
        assertEquals(List.of(Outcome.OK, Outcome.FAIL, Outcome.OK), List.of(h.outcome(0), h.outcome(1), h.outcome(2)));
        assertEquals(List.of(new MicroOp.Read(1, 0L), new MicroOp.Write(1, 1)), ops(h, 0));
        assertEquals(List.of(new MicroOp.Write(2, 1)), ops(h, 1), "the unsuccessful event is skipped");
        assertEquals(List.of(new MicroOp.Read(1, 1L)), ops(h, 2));
        assertTrue(h.initial().isInitial(1, 0L), "a read of 0 reads the initial state");
        assertTrue(h.invokeIndex(0) < h.completeIndex(0) && h.completeIndex(0) < h.invokeIndex(1));
    }

    @Test
    void bareListOfSessions() throws IOException {
        History h = read("[[{\"events\":[{\"write\":true,\"variable\":3,\"value\":4}],\"success\":true}],[]]");
        assertEquals(1, h.size());
        assertEquals(List.of(new MicroOp.Write(3, 4)), ops(h, 0), "success defaults to true");
        InputException empty = assertThrows(InputException.class, () -> read("[]"));
        assertTrue(empty.getMessage().startsWith("h.json:1: no transactions"), empty.getMessage());
    }

    @Test
    void currentJsonTaggedAndCompactEvents() throws IOException {
        History h = read("[\n"
                + " [{\"events\": [{\"Read\": {\"variable\": 0, \"version\": null}}, [\"w\", 0, 1]], \"committed\": true},\n"
                + "  {\"events\": [[\"r\", 1, 0], {\"Write\": {\"variable\": 1, \"version\": 7}}], \"committed\": false}],\n"
                + " [{\"events\": [[\"r\", 0, 1], [\"r\", 1, null]], \"committed\": true}]\n"
                + "]\n");
        assertEquals(3, h.size());
        assertEquals(InitialState.allKeys(0L), h.initial());
        assertEquals(List.of(0L, 0L, 1L), List.of(h.process(0), h.process(1), h.process(2)));
        assertEquals(List.of(Outcome.OK, Outcome.FAIL, Outcome.OK), List.of(h.outcome(0), h.outcome(1), h.outcome(2)));
        assertEquals(List.of(new MicroOp.Read(0, 0L), new MicroOp.Write(0, 1)), ops(h, 0), "x==? reads the initial 0");
        assertEquals(List.of(new MicroOp.Read(1, 0L), new MicroOp.Write(1, 7)), ops(h, 1));
        assertEquals(List.of(new MicroOp.Read(0, 1L), new MicroOp.Read(1, 0L)), ops(h, 2));
        assertEquals(List.of(2, 3, 4), List.of(h.line(0), h.line(1), h.line(2)));
    }

    /** Current dbcop's generator writes 0 to every variable first; then a read of 0 reads that write. */
    @Test
    void keysWrittenZeroStartAbsent() throws IOException {
        History h = read("{\"params\":{\"id\":3},\"info\":\"generated\",\"data\":[\n"
                + "[{\"events\":[{\"Write\":{\"variable\":0,\"version\":0}}],\"committed\":true},\n"
                + " {\"events\":[[\"r\",0,0],[\"r\",0,null],[\"r\",5,null],[\"r\",5,0]],\"committed\":true}]]}");
        assertEquals(new InitialState(null, Map.of(5L, 0L)), h.initial());
        assertEquals(List.of(new MicroOp.Read(0, 0L), new MicroOp.Read(0, null), new MicroOp.Read(5, 0L),
                new MicroOp.Read(5, 0L)), ops(h, 1));
        assertNull(h.initial().valueOf(0), "key 0 is written 0, so it starts absent and r(0,0) reads that write");
        assertTrue(h.initial().isInitial(5, 0L), "key 5 is never written 0: it starts at 0");
    }

    @Test
    void bincode() throws IOException {
        History h = new DbcopReader().read(new ByteArrayInputStream(legacyBincode()), "history.bincode");
        assertLegacy(h);
        assertEquals(0, h.line(0), "binary: no lines");
    }

    /**
     * {@link #LEGACY} as dbcop writes it with {@code bincode::serialize_into}: bincode 1.x defaults, the layout
     * PolySI's {@code DBCopHistoryLoader.InternalDumper} (amnore/PolySI src/main/java/history/loaders/) writes.
     */
    static byte[] legacyBincode() {
        Bin b = new Bin();
        b.u64(0).u64(2).u64(2).u64(2).u64(2); // params: id, n_node, n_variable, n_transaction, n_event
        b.str("executed").str("2019-06-01T10:00:00+02:00").str("2019-06-01T10:00:01+02:00");
        b.u64(2); // sessions
        b.u64(2); // session 0: two transactions
        b.u64(2).event(false, 1, 0, true).event(true, 1, 1, true).bool(true);
        b.u64(2).event(true, 2, 1, true).event(true, 1, 9, false).bool(false);
        b.u64(1); // session 1
        b.u64(1).event(false, 1, 1, true).bool(true);
        return b.bytes();
    }

    /** A little-endian bincode writer for tests. */
    static final class Bin {
        private final ByteBuffer buf = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);

        Bin u64(long v) { buf.putLong(v); return this; }

        Bin bool(boolean v) { buf.put((byte) (v ? 1 : 0)); return this; }

        Bin str(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            u64(b.length);
            buf.put(b);
            return this;
        }

        Bin event(boolean write, long variable, long value, boolean success) {
            return bool(write).u64(variable).u64(value).bool(success);
        }

        byte[] bytes() { return Arrays.copyOf(buf.array(), buf.position()); }
    }

    @Test
    void malformedJsonNamesTheLine() {
        expect(fails("[[\n{\"events\": []}\n]]"), 2, "session 0, transaction 0: missing \"success\"");
        expect(fails("[[{\"events\": [], \"success\": true},\n {\"events\": [{\"write\": true, \"variable\": \"x\", "
                + "\"value\": 1}], \"success\": true}]]"), 2, "session 0, transaction 1, event 0: \"variable\" must be "
                + "an integer, got \"x\"");
        expect(fails("[[{\"events\": [{\"Write\": {\"variable\": 1, \"version\": null}}], \"committed\": true}]]"), 1,
                "\"version\" must be an integer, got null");
        expect(fails("[[{\"events\": [[\"x\", 1, 2]], \"committed\": true}]]"), 1, "a compact event is");
        expect(fails("{\"params\": {},\n\"info\": \"x\"}"), 2, "no \"data\" field");
        expect(fails("[[{\"events\": [], \"success\": true}],\n[{\"events\": ["), 2, "truncated");
        expect(fails("[[{\"events\": [], \"success\": tru}]]"), 1, "malformed JSON");
        expect(fails("[[{\"events\": [{\"write\": true, \"variable\": 1, \"value\": 18446744073709551615}], "
                + "\"success\": true}]]"), 1, "does not fit a signed 64-bit integer");
        expect(fails("[[]] [[]]"), 1, "after the history");
    }

    @Test
    void malformedBincodeNamesTheOffset() {
        byte[] ok = legacyBincode();
        InputException e = failsBinary(Arrays.copyOf(ok, ok.length - 5));
        assertEquals(0, e.line());
        assertTrue(e.getMessage().startsWith("history.bincode: bincode, byte "), e.getMessage());
        assertTrue(e.getMessage().contains("(session 1, transaction 0): truncated"), e.getMessage());
        byte[] badBool = ok.clone();
        badBool[badBool.length - 1] = 7;
        e = failsBinary(badBool);
        assertTrue(e.getMessage().contains("byte " + (ok.length - 1) + " (session 1, transaction 0): the "
                + "transaction success flag must be the byte 0 or 1, got 7"), e.getMessage());
        byte[] trailing = Arrays.copyOf(ok, ok.length + 1);
        assertTrue(failsBinary(trailing).getMessage().contains("unexpected bytes after the history"));
    }

    @Test
    void formatIsDetectedAndReadOnly(@TempDir Path dir) throws IOException {
        Path legacy = Files.writeString(dir.resolve("hist-00000.json"), LEGACY);
        Path bare = Files.writeString(dir.resolve("a.json"), " [ [ {\"events\":[],\"committed\":true} ] ]");
        Path emptyFirst = Files.writeString(dir.resolve("b.json"), "[[],[{\"events\":[],\"committed\":true}]]");
        Path bin = Files.write(dir.resolve("history.bincode"), legacyBincode());
        for (Path p : List.of(legacy, bare, emptyFirst, bin)) {
            assertEquals(HistoryFormat.DBCOP, HistoryFormat.detect(p), p.toString());
        }
        assertLegacy(HistoryFormat.detect(bin).read(bin));
        assertLegacy(HistoryFormat.DBCOP.read(legacy));
        assertEquals(HistoryFormat.DBCOP, HistoryFormat.byName("dbcop"));
        assertFalse(HistoryFormat.DBCOP.canWrite());
        UnsupportedOperationException u = assertThrows(UnsupportedOperationException.class,
                () -> HistoryFormat.DBCOP.write(read(LEGACY), new ByteArrayOutputStream()));
        assertTrue(u.getMessage().contains("dbcop format is read only"), u.getMessage());
        assertExistingFormatsStillDetected(dir);
    }

    /** JSONL, EDN (map, vector, comment) and text keep their detection next to dbcop's JSON. */
    static void assertExistingFormatsStillDetected(Path dir) throws IOException {
        Map<String, HistoryFormat> cases = Map.of(
                "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\",1,null]]}\n",
                HistoryFormat.JSONL,
                "{\"type\":\"header\",\"real-time\":false,\"initial-default\":0}\n", HistoryFormat.JSONL,
                "{:index 0 :type :invoke :process 1 :f :txn :value [[:r 1 nil]]}\n", HistoryFormat.EDN,
                "[{:index 0 :type :invoke :f :txn :value [[:append 1 2]]}]\n", HistoryFormat.EDN,
                "; comment\n{:index 0}\n", HistoryFormat.EDN,
                "r(1,0,1,1)\nw(1,1,1,1)\n", HistoryFormat.TEXT);
        int i = 0;
        for (Map.Entry<String, HistoryFormat> c : cases.entrySet()) {
            Path p = Files.writeString(dir.resolve("existing-" + i++ + ".log"), c.getKey());
            assertEquals(c.getValue(), HistoryFormat.detect(p), c.getKey());
        }
        for (HistoryFormat f : List.of(HistoryFormat.JSONL, HistoryFormat.EDN, HistoryFormat.TEXT)) {
            assertTrue(f.canWrite(), f.cliName());
        }
    }

    /** A history from dbcop's own tests: both sessions read the initial 0 and overwrite it (a lost update). */
    @Test
    void realDbcopHistory() throws IOException, URISyntaxException {
        Path p = Path.of(getClass().getResource("/formats/dbcop-lost-update.json").toURI());
        assertEquals(HistoryFormat.DBCOP, HistoryFormat.detect(p));
        History h = HistoryFormat.DBCOP.read(p);
        assertEquals(2, h.size());
        assertEquals(List.of(new MicroOp.Read(0, 0L), new MicroOp.Write(0, 1)), ops(h, 0));
        assertEquals(List.of(new MicroOp.Read(0, 0L), new MicroOp.Write(0, 2)), ops(h, 1));
        assertEquals(InitialState.allKeys(0L), h.initial());
        assertEquals(Verdict.INVALID,
                Checker.check(h, List.of(IsolationLevel.SERIALIZABLE), CheckOptions.DEFAULTS).verdict());
    }
}
