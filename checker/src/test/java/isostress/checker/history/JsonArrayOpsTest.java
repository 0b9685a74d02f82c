package isostress.checker.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * elle-cli's JSON input, one JSON array of op maps, reads as the same history as its JSON-lines twin, on one line or
 * pretty-printed over many; its errors name the file and the line where the element starts. Format detection says
 * what it saw.
 */
class JsonArrayOpsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static String jsonl(History h) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        HistoryFormat.JSONL.write(h, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The JSON lines as one array on one line. */
    static String oneLine(String jsonl) {
        return "[" + String.join(",", jsonl.strip().split("\n")) + "]";
    }

    /** The JSON lines as one array, pretty-printed: each op spread over several lines. */
    static String pretty(String jsonl) throws IOException {
        ArrayNode a = JSON.createArrayNode();
        for (String line : jsonl.strip().split("\n")) a.add(JSON.readTree(line));
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(a) + "\n";
    }

    static History read(String text) throws IOException {
        return HistoryFormat.JSONL.reader().read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                "h.json");
    }

    @Test
    void anArrayReadsAsItsJsonLinesTwinOnOneLineAndPrettyPrinted() throws IOException {
        for (long seed = 0; seed < 300; seed++) {
            String lines = jsonl(RoundTripTest.random(seed));
            History twin = read(lines);
            RoundTripTest.assertSame(twin, read(oneLine(lines)), "seed " + seed + " one line");
            String pretty = pretty(lines);
            assertTrue(pretty.lines().count() > lines.lines().count(), "spread over more lines than the twin");
            RoundTripTest.assertSame(twin, read(pretty), "seed " + seed + " pretty");
        }
    }

    @Test
    void anElementsErrorNamesTheLineWhereItStarts() throws IOException {
        String ok = pretty(BadInputTest.OK1); // 2 ops of 11 lines each after the "[" line: lines 2-12 and 13-23
        String bad = ok.substring(0, ok.lastIndexOf(']')).stripTrailing()
                + ",\n  {\n    \"index\": \"two\",\n    \"type\": \"invoke\"\n  }\n]\n";
        int elementLine = (int) bad.substring(0, bad.lastIndexOf("{")).lines().count();
        InputException e = assertThrows(InputException.class, () -> read(bad));
        assertEquals(elementLine, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith("h.json:" + elementLine + ": \"index\" must be an integer"),
                e.getMessage());
    }

    @Test
    void malformedArraysAreOneSentenceEach() {
        String op = BadInputTest.OK1.strip().split("\n")[0], done = BadInputTest.OK1.strip().split("\n")[1];
        expect("[" + op + ",\n" + done, 1, "does not end");
        expect("[" + op + ",\n1]", 2, "expected a JSON object (an op like");
        expect("[" + op + "]\n[" + op + "]", 2, "more input after the JSON array of ops, which ends on line 1");
        expect("[\n" + op + ",\n{\"index\":1,\"type\":\"ok\",\"process\":1,\"val", 3, "truncated: the op that starts here");
        expect("[\n" + op + ",,\n" + op + "]", 2, "malformed JSON");
        expect("[]", 1, "no transactions");
    }

    private static void expect(String text, int line, String fragment) {
        InputException e = assertThrows(InputException.class, () -> read(text));
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith("h.json:"), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), "'" + fragment + "' not in: " + e.getMessage());
        assertFalse(e.getMessage().contains("\tat "), "no stack trace: " + e.getMessage());
    }

    @Test
    void detectionSaysWhatItSaw(@TempDir Path tmp) throws IOException {
        String lines = BadInputTest.OK1;
        assertDetected(tmp, "a.json", oneLine(lines), HistoryFormat.JSONL, "a JSON array of ops");
        assertDetected(tmp, "b.json", pretty(lines), HistoryFormat.JSONL, "a JSON array of ops");
        assertDetected(tmp, "c.txt", lines, HistoryFormat.JSONL, "JSON lines (it starts with '{\"index\":0,");
        assertDetected(tmp, "d.data", "[{:type :invoke, :f :txn, :value [[:append 1 2]], :process 0, :index 0}]",
                HistoryFormat.EDN, "EDN (it starts with '[{:type :invoke, :f :txn, :value [[:appe'...)");
        assertDetected(tmp, "e.edn", "   ", HistoryFormat.EDN, "the name's .edn");
        assertDetected(tmp, "f.json", "", HistoryFormat.JSONL, "the name's .json (the file is empty");
    }

    private static void assertDetected(Path tmp, String name, String text, HistoryFormat format, String saw)
            throws IOException {
        Path f = Files.writeString(tmp.resolve(name), text);
        FormatDetection d = FormatDetection.of(f);
        assertEquals(format, d.format(), d.saw());
        assertTrue(d.saw().startsWith(saw), "'" + saw + "' does not start: " + d.saw());
        assertEquals(format, HistoryFormat.detect(f));
    }

    @Test
    void undetectableInputSaysWhatItsFirstBytesLookedLikeAndWhatIsAccepted(@TempDir Path tmp) throws IOException {
        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {"hello world\nmore", "the file starts with 'hello world', which is none of"});
        cases.add(new String[] {"", "the file is empty, which is none of"});
        cases.add(new String[] {"\"type\",\"invoke\"\n", "the file starts with '\"type\",\"invoke\"'"});
        cases.add(new String[] {"\u00e9t\u00e9\u0001", "the file starts with '\u00e9t\u00e9\\x01'"});
        cases.add(new String[] {"x".repeat(100), "'" + "x".repeat(40) + "'..."});
        for (String[] c : cases) {
            Path f = Files.writeString(tmp.resolve("history.dat"), c[0]);
            InputException e = assertThrows(InputException.class, () -> FormatDetection.of(f));
            String m = e.getMessage();
            assertTrue(m.startsWith(f + ":1: cannot tell the history format: "), m);
            assertTrue(m.contains(c[1]), "'" + c[1] + "' not in: " + m);
            assertTrue(m.contains("a JSON array of ops or JSON lines (--format jsonl), Jepsen EDN (edn)"), m);
            assertTrue(m.endsWith("give --format jsonl|edn|text|dbcop|cobra|chronos"), m);
        }
    }

    @Test
    void aReadersErrorOnADetectedFileSaysWhatTheFileWasTakenFor(@TempDir Path tmp) throws IOException {
        Path f = Files.writeString(tmp.resolve("h.json"), "[1, 2, 3]\n");
        FormatDetection d = FormatDetection.of(f);
        InputException e = assertThrows(InputException.class, () -> d.format().read(f));
        String m = d.explain(e).getMessage();
        assertEquals(f + ":1: " + e.detail() + " (read as edn: detected EDN (it starts with '[1, 2, 3]'); --format "
                + "jsonl|edn|text|dbcop|cobra|chronos chooses another)", m);
        assertEquals(1, d.explain(e).line());
    }
}
