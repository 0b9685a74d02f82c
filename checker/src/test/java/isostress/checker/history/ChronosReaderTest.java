package isostress.checker.history;

import isostress.checker.Checker;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Chronos/Aion (TimeKiller) JSON histories: key-value and list, their verdicts, and bad input. */
class ChronosReaderTest {
    /** Two concurrent transactions read x=0 and y=0; one writes x, the other y: SI, not serializable. */
    static final String WRITE_SKEW = """
            [
              {"sid": 1, "tid": 1, "sts": {"p": 1, "l": 0}, "cts": {"p": 4, "l": 0},
               "ops": [{"t": "r", "k": 1, "v": 0}, {"t": "r", "k": 2, "v": 0}, {"t": "w", "k": 1, "v": 11}]},
              {"sid": 2, "tid": 1, "sts": {"p": 2, "l": 0}, "cts": {"p": 5, "l": 0},
               "ops": [{"t": "r", "k": 1, "v": 0}, {"t": "r", "k": 2, "v": 0}, {"t": "w", "k": 2, "v": 21}]},
              {"sid": 1, "tid": 2, "sts": {"p": 6, "l": 0}, "cts": {"p": 7, "l": 0},
               "ops": [{"t": "r", "k": 1, "v": 11}, {"t": "r", "k": 2, "v": 21}]}
            ]
            """;

    /** Both read x's initial value (null: reads without "v") and overwrite it: not even SI. */
    static final String LOST_UPDATE = """
            [{"sid":"a","tid":"t1","sts":{"p":"10","l":0},"cts":{"p":"12","l":0},"ops":[{"t":"read","k":5},{"t":"write","k":5,"v":1}]},
             {"sid":"b","tid":"t2","sts":{"p":"11","l":0},"cts":{"p":"13","l":0},"ops":[{"t":"R","k":5,"v":null},{"t":"W","k":5,"v":2}]}]
            """;

    /** Appends and list reads; the last read sees 1's append before 2's, as the second session did. */
    static final String LIST = """
            [{"sid":0,"tid":0,"sts":{"p":1,"l":0},"cts":{"p":2,"l":0},"ops":[{"t":"r","k":7,"v":[]},{"t":"a","k":7,"v":1}]},
             {"sid":1,"tid":1,"sts":{"p":3,"l":0},"cts":{"p":4,"l":0},"ops":[{"t":"r","k":7,"v":[1]},{"t":"a","k":7,"v":2}]},
             {"sid":0,"tid":2,"sts":{"p":5,"l":0},"cts":{"p":5,"l":1},"ops":[{"t":"r","k":7,"v":[1,2]},{"t":"r","k":8}]}]
            """;

    static History read(String json) throws IOException {
        return new ChronosReader().read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "h.json");
    }

    static InputException fails(String json) {
        return assertThrows(InputException.class, () -> read(json));
    }

    static Verdict verdict(History h, IsolationLevel level) {
        return Checker.check(h, List.of(level), CheckOptions.DEFAULTS).verdict();
    }

    @Test
    void writeSkewIsSnapshotIsolationButNotSerializable() throws IOException {
        History h = read(WRITE_SKEW);
        assertEquals(3, h.size());
        assertFalse(h.realTime(), "sts/cts are the database's timestamps, not real time");
        assertEquals(InitialState.allKeys(0L), h.initial(), "reads of 0 that no write wrote: keys start at 0");
        assertEquals(List.of(1L, 2L, 1L), List.of(h.process(0), h.process(1), h.process(2)));
        assertEquals(List.of(new MicroOp.Read(1, 0L), new MicroOp.Read(2, 0L), new MicroOp.Write(1, 11)),
                DbcopReaderTest.ops(h, 0));
        assertEquals(4, h.line(1));
        assertEquals(Verdict.VALID, verdict(h, IsolationLevel.SNAPSHOT_ISOLATION));
        assertEquals(Verdict.INVALID, verdict(h, IsolationLevel.SERIALIZABLE));
    }

    @Test
    void lostUpdateWithStringSessionsAndNullInitialValues() throws IOException {
        History h = read(LOST_UPDATE);
        assertEquals(InitialState.ABSENT, h.initial(), "a read of null: keys start absent, TimeKiller's default");
        assertEquals(List.of(0L, 1L), List.of(h.process(0), h.process(1)), "sessions numbered by first appearance");
        assertEquals(List.of(new MicroOp.Read(5, null), new MicroOp.Write(5, 2)), DbcopReaderTest.ops(h, 1));
        assertEquals(Verdict.VALID, verdict(h, IsolationLevel.READ_COMMITTED));
        assertEquals(Verdict.INVALID, verdict(h, IsolationLevel.SNAPSHOT_ISOLATION));
    }

    @Test
    void listHistory() throws IOException {
        History h = read(LIST);
        assertEquals(3, h.size());
        assertEquals(List.of(new MicroOp.ListRead(7, List.of(1L, 2L)), new MicroOp.ListRead(8, List.of())),
                DbcopReaderTest.ops(h, 2));
        assertEquals(List.of(new MicroOp.ListRead(7, List.of()), new MicroOp.Append(7, 1)),
                DbcopReaderTest.ops(h, 0));
        assertEquals(Verdict.VALID, verdict(h, IsolationLevel.SERIALIZABLE));
        // Session 1 saw [1] and appended 2, so a later read of [2, 1] has no serial order.
        History bad = read(LIST.replace("\"v\":[1,2]", "\"v\":[2,1]"));
        assertEquals(Verdict.INVALID, verdict(bad, IsolationLevel.READ_COMMITTED));
    }

    @Test
    void detectedFromTheFirstKeyAndForcedByName(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("h.json");
        Files.writeString(f, WRITE_SKEW);
        FormatDetection d = FormatDetection.of(f);
        assertEquals(HistoryFormat.CHRONOS, d.format());
        assertTrue(d.saw().startsWith("a Chronos/TimeKiller history"), d.saw());
        assertEquals(HistoryFormat.CHRONOS, HistoryFormat.byName("chronos"));
        assertEquals(3, HistoryFormat.CHRONOS.read(f).size());
        assertFalse(HistoryFormat.CHRONOS.canWrite());
        // A JSON array of Jepsen ops stays one.
        Files.writeString(f, "[{\"type\":\"invoke\",\"f\":\"txn\",\"value\":[],\"process\":0}]");
        assertEquals(HistoryFormat.JSONL, FormatDetection.of(f).format());
    }

    @Test
    void badInputNamesTheLineAndTheKey() {
        assertEquals("h.json:1: a Chronos history is a JSON array of transactions {\"sid\":..,\"tid\":..,"
                + "\"sts\":{\"p\":..,\"l\":..},\"cts\":{..},\"ops\":[..]}", fails("{\"sid\":1}").getMessage());
        assertEquals("h.json:2: the transaction has no \"cts\" (each has sid, sts, cts and ops)",
                fails("[\n{\"sid\":1,\"sts\":{\"p\":1},\"ops\":[]}]").getMessage());
        assertEquals("h.json:1: the start timestamp (5,0) is after the commit timestamp (4,9)",
                fails("[{\"sid\":1,\"sts\":{\"p\":5},\"cts\":{\"p\":4,\"l\":9},\"ops\":[]}]").getMessage());
        assertEquals("h.json:3: \"k\" must be an integer, not \"x\"",
                fails("[{\"sid\":1,\"sts\":{\"p\":1},\"cts\":{\"p\":2},\"ops\":[\n{\"t\":\"w\",\"k\":1,\"v\":1},\n"
                        + "{\"t\":\"w\",\"k\":\"x\",\"v\":1}]}]").getMessage());
        assertEquals("h.json:1: \"sts.p\" must be an integer, not a fraction",
                fails("[{\"sid\":1,\"sts\":{\"p\":1.5},\"cts\":{\"p\":2},\"ops\":[]}]").getMessage());
        assertTrue(fails("[{\"sid\":1,\"sts\":{\"p\":1},\"cts\":{\"p\":2},\"ops\":[{\"t\":\"x\",\"k\":1}]}]")
                .getMessage().startsWith("h.json:1: unknown operation type \"x\""));
        assertEquals("h.json:1: a w needs an integer value \"v\"",
                fails("[{\"sid\":1,\"sts\":{\"p\":1},\"cts\":{\"p\":2},\"ops\":[{\"t\":\"w\",\"k\":1}]}]").getMessage());
        assertTrue(fails("[{\"sid\":1,\"sts\":{\"p\":1},\"cts\":{\"p\":2},\"ops\":[{\"t\":\"a\",\"k\":1,\"v\":1},\n"
                + "{\"t\":\"r\",\"k\":1,\"v\":1}]}]").getMessage().startsWith("h.json:2: mixes the key-value data model"));
        assertTrue(fails("[]").getMessage().startsWith("h.json:1: no transactions"));
        assertTrue(fails("[{\"sid\":1,").getMessage().startsWith("h.json:1: malformed JSON"));
        assertTrue(fails("[{\"sid\":1,\"sts\":{\"p\":99999999999999999999}}]").getMessage()
                .startsWith("h.json:1: integer out of range"));
    }

    /**
     * TimeKiller's own examples ({@code examples/format-kv.json} and {@code format-list.json} of its repository,
     * which has no licence to copy them here): read when ISOSTRESS_TIMEKILLER names a TimeKiller checkout. TimeKiller
     * finds both SI (the key-value one with {@code --initial_value 0}), and so does isostress.
     */
    @Test
    void timeKillerExamples() throws IOException {
        String dir = System.getenv("ISOSTRESS_TIMEKILLER");
        assumeTrue(dir != null && Files.isDirectory(Path.of(dir, "examples")), "set ISOSTRESS_TIMEKILLER to a "
                + "checkout of github.com/FertileFragrance/TimeKiller to read its examples");
        for (String name : List.of("format-kv.json", "format-list.json")) {
            Path f = Path.of(dir, "examples", name);
            assertEquals(HistoryFormat.CHRONOS, HistoryFormat.detect(f), name);
            History h = HistoryFormat.CHRONOS.read(f);
            assertEquals(1000, h.size(), name);
            assertEquals(Verdict.VALID, verdict(h, IsolationLevel.SNAPSHOT_ISOLATION), name);
        }
    }
}
