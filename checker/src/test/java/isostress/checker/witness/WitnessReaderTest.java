package isostress.checker.witness;

import isostress.checker.history.InputException;
import isostress.checker.history.MicroOp;
import isostress.checker.model.WitnessTxn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The witness file format: what is read, and every bad line refused with file:line and what was expected. */
class WitnessReaderTest {
    static Witness read(String text) throws IOException {
        return WitnessReader.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "w.jsonl");
    }

    @Test
    void readsEveryField(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("witness.jsonl");
        Files.writeString(f, "{\"pos\":17,\"node\":\"n1\",\"txid\":\"731\",\"writes\":[[\"w\",3,17],[\"append\",4,9]]}\n"
                + "\n"
                + "{\"commit_time\":\"12:00\",\"writes\":[],\"txid\":\"0-1-42\",\"node\":\"n2\",\"pos\":1}\r\n"
                + "{\"pos\":18,\"node\":\"n1\",\"txid\":732,\"writes\":[[\"w\",\"x\",5]]}");
        Witness w = WitnessReader.read(f);
        assertEquals(3, w.size());
        assertEquals(3, w.writeCount());
        assertEquals(new WitnessTxn("n1", 17, "731", 1, List.of(new MicroOp.Write(3, 17), new MicroOp.Append(4, 9))),
                w.txn(0));
        assertEquals(new WitnessTxn("n2", 1, "0-1-42", 3, List.of()), w.txn(1));
        assertEquals("732", w.txid(2));
        assertEquals(4, w.line(2));
        assertEquals("\"x\"", w.stringKeys().get(w.key(2)));
    }

    /**
     * Lines handed over one by one as a run writes them give the witness that reading the written file gives:
     * every transaction, its line, string keys, and the same refusal, at the same line, of a line out of order.
     */
    @Test
    void linesGivenOneByOneAreTheFileRead() throws IOException {
        List<String> lines = List.of(
                "{\"pos\":17,\"node\":\"n1\",\"txid\":\"731\",\"writes\":[[\"w\",3,17],[\"append\",4,9]]}",
                "",
                "{\"commit_time\":\"12:00\",\"writes\":[],\"txid\":\"0-1-42\",\"node\":\"n2\",\"pos\":1}",
                "{\"pos\":18,\"node\":\"n1\",\"txid\":732,\"writes\":[[\"delete\",-5],[\"w\",\"x\",5]]}",
                "{\"pos\":2,\"node\":\"n2\",\"txid\":\"0-1-43\",\"writes\":[[\"w\",\"y\",6],[\"append\",4,10]]}");
        Witness file = read(String.join("\n", lines) + "\n");
        WitnessReader.Lines given = new WitnessReader.Lines("w.jsonl");
        for (String l : lines) given.line(l);
        Witness w = given.finish();
        assertEquals(file.size(), w.size());
        assertEquals(4, w.size());
        for (int t = 0; t < w.size(); t++) assertEquals(file.txn(t), w.txn(t), "transaction " + t);
        assertEquals(file.stringKeys(), w.stringKeys());

        String behind = "{\"pos\":17,\"node\":\"n1\",\"txid\":\"733\",\"writes\":[]}";
        InputException fromFile = assertThrows(InputException.class,
                () -> read(String.join("\n", lines) + "\n" + behind + "\n"));
        WitnessReader.Lines again = new WitnessReader.Lines("w.jsonl");
        for (String l : lines) again.line(l);
        InputException fromLines = assertThrows(InputException.class, () -> again.line(behind));
        assertEquals(fromFile.getMessage(), fromLines.getMessage());
        assertEquals(6, fromLines.line());
        assertThrows(IllegalArgumentException.class, () -> new WitnessReader.Lines("w.jsonl").line("{}\n{}"));
    }

    /** A deleted row, {@code ["delete", key]}, read alike by the captures' fast path and by Jackson. */
    @Test
    void readsDeletes() throws IOException {
        String text = "{\"pos\":17,\"node\":\"n1\",\"txid\":\"731\",\"writes\":[[\"w\",3,17],[\"delete\",4]]}\n"
                + "{\"pos\":18, \"node\":\"n1\",\"txid\":\"732\",\"writes\":[[\"delete\", -5]]}\n"
                + "{\"writes\":[[\"delete\",\"x\"]],\"pos\":19,\"node\":\"n1\",\"txid\":\"733\"}\n";
        for (boolean canonical : List.of(true, false)) {
            Witness w = WitnessReader.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "w.jsonl",
                    canonical);
            assertEquals(List.of(new MicroOp.Write(3, 17), new MicroOp.Delete(4)), w.txn(0).writes());
            assertEquals(List.of(new MicroOp.Delete(-5)), w.txn(1).writes());
            assertTrue(w.isDelete(2) && w.isDelete(3) && !w.isDelete(0));
            assertEquals("\"x\"", w.stringKeys().get(w.key(3)));
        }
    }

    @Test
    void anEmptyFileIsALogWithoutCommits() throws IOException {
        assertEquals(0, read("").size());
        assertEquals(0, read("\n  \n").size());
    }

    static void refused(String text, int line, String expected) {
        InputException e = assertThrows(InputException.class, () -> read(text), text);
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith("w.jsonl:" + line + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), () -> "expected \"" + expected + "\" in: " + e.getMessage());
    }

    static final String OK = "{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[]}\n";

    @Test
    void everyBadLineIsRefusedWithFileLineAndWhatWasExpected() {
        refused(OK + "{\"pos\":1,\"node\":\"n1\",\"txid\":\"2\",\"writes\":[]}", 2,
                "\"pos\" 1 does not increase within node \"n1\" (the one before is 1): a node's log is in commit order");
        refused(OK + "{\"node\":\"n1\",\"txid\":\"2\",\"writes\":[]}", 2, "missing \"pos\"");
        refused(OK + "{\"pos\":2,\"txid\":\"2\",\"writes\":[]}", 2, "missing \"node\"");
        refused(OK + "{\"pos\":2,\"node\":\"n1\",\"writes\":[]}", 2, "missing \"txid\"");
        refused(OK + "{\"pos\":2,\"node\":\"n1\",\"txid\":\"2\"}", 2, "missing \"writes\"");
        refused("{\"pos\":\"2\",\"node\":\"n1\",\"txid\":\"2\",\"writes\":[]}", 1, "\"pos\" must be an integer, got \"2\"");
        refused("{\"pos\":2,\"node\":1,\"txid\":\"2\",\"writes\":[]}", 1, "\"node\" must be a string, got 1");
        refused("{\"pos\":2,\"node\":\"n\",\"txid\":[],\"writes\":[]}", 1, "\"txid\" must be a string or an integer");
        refused("{\"pos\":2,\"node\":\"n\",\"txid\":\"2\",\"writes\":{}}", 1, "\"writes\" must be a list");
        refused("{\"pos\":2,\"node\":\"n\",\"txid\":\"2\",\"writes\":[[\"r\",1,2]]}", 1,
                "unknown write \"r\": expected \"w\", \"append\" or \"delete\"");
        refused("{\"pos\":2,\"node\":\"n\",\"txid\":\"2\",\"writes\":[[\"delete\",1,2]]}", 1,
                "\"delete\" of key 1 has more than [\"delete\", key] (a deleted row has no value), got 2");
        refused("{\"pos\":2,\"node\":\"n\",\"txid\":\"2\",\"writes\":[[\"delete\",null]]}", 1,
                "\"delete\": the key must be an integer or a string, got null");
        refused("{\"pos\":2,\"node\":\"n\",\"txid\":\"2\",\"writes\":[[\"delete\"]]}", 1,
                "\"delete\": the key must be an integer or a string, got the end of the list");
        refused("{\"pos\":2,\"node\":\"n\",\"txid\":\"2\",\"writes\":[[\"w\",1,null]]}", 1,
                "\"w\" of key 1: the value must be an integer, got null");
        refused("{\"pos\":2,\"node\":\"n\",\"txid\":\"2\",\"writes\":[[\"append\",1,[1,2]]]}", 1,
                "the element must be an integer, got a list");
        refused("{\"pos\":2,\"node\":\"n\",\"txid\":\"2\",\"writes\":[[\"w\",[1],2]]}", 1,
                "the key must be an integer or a string");
        refused("{\"pos\":2,\"node\":\"n\",\"txid\":\"2\",\"writes\":[[\"w\",1,2,3]]}", 1, "has more than [f, key, value]");
        refused("{\"pos\":2,\"node\":\"n\",\"txid\":\"2\",\"writes\":[7]}", 1, "expected a write like [\"w\", key, value]");
        refused("{\"pos\":99999999999999999999,\"node\":\"n\",\"txid\":\"2\",\"writes\":[]}", 1, "does not fit in 64 bits");
        refused(OK + OK.replace("\"pos\":1", "\"pos\":2") + "[1]", 3, "expected a JSON object");
        refused(OK + "{\"pos\":2,", 2, "malformed JSON");
        refused(OK + "{\"pos\":2,\"pos\":3}", 2, "malformed JSON: Duplicate field 'pos'");
        refused(OK + OK.replace("\"pos\":1", "\"pos\":2").trim() + OK, 2, "more than one JSON value on the line");
        refused("{\"pos\":2,\"node\":\"n\",\"txid\":\"2\",\"writes\":[[\"w\",\"x\",1],[\"w\",-9223372036854775808,1]]}",
                1, "integer key -9223372036854775808 and string keys");
    }

    @Test
    void bytesThatAreNotUtf8AreRefusedAtTheirLine() {
        byte[] b = (OK + "{\"pos\":2,\"node\":\"n\u00e9\",\"txid\":\"1\",\"writes\":[]}\n").getBytes(StandardCharsets.UTF_8);
        b[OK.length() + 20] = (byte) 0xFF;
        InputException e = assertThrows(InputException.class, () -> WitnessReader.read(new ByteArrayInputStream(b), "w.jsonl"));
        assertTrue(e.getMessage().startsWith("w.jsonl:2: "), e.getMessage());
    }

    @Test
    void aDirectoryIsRefused(@TempDir Path dir) {
        InputException e = assertThrows(InputException.class, () -> WitnessReader.read(dir));
        assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
    }
}
