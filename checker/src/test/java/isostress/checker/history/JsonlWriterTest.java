package isostress.checker.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The JSONL writer goes through Jackson's generator: the lines it always wrote stay byte for byte,
 * and every string a history can hold (node and isolation names, side-event fields, string and keyword keys) comes
 * back from the reader as it went in, each line being JSON.
 */
class JsonlWriterTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Strings that need escaping in JSON, and some that only look as if they do. */
    static final List<String> NASTY = List.of("plain", "quote \" in", "back\\slash", "new\nline", "tab\tand\rcr",
            "nul\u0000and\u001f", "é ü ß", "emoji \uD83D\uDE00", "</script>", "\\u0041 not an escape", "", "007", "-1");

    @Test
    void writesTheLinesItAlwaysWrote() throws IOException {
        History.Builder b = History.builder().initial(new InitialState(0L, Map.of(3L, 9L))).realTime(false);
        int t0 = b.beginTxn(1, Outcome.OK, 0, 1, 10, 20, 0);
        b.read(3, 9L);
        b.write(4, 1L);
        b.append(5, 2L);
        b.listRead(5, new long[] {1, 2}, 2);
        b.cas(6, null, 3L);
        b.endTxn();
        b.node(t0, "n1");
        b.isolation(t0, "serializable");
        b.sideEvent(new SideEvent(2, -1, "nemesis", "info", "start-partition", "[\"n1\",\"n2\"]"));
        b.beginTxn(2, Outcome.INFO, 3, History.PENDING, -1, -1, 0);
        b.readNull(7);
        b.endTxn();
        assertEquals("""
                {"type":"header","real-time":false,"initial-default":0,"initial":[["w",3,9]]}
                {"index":0,"type":"invoke","process":1,"time":10,"f":"txn","value":[["r",3,null],["w",4,1],\
                ["append",5,2],["r",5,null],["cas",6,[null,3]]]}
                {"index":1,"type":"ok","process":1,"time":20,"f":"txn","value":[["r",3,9],["w",4,1],["append",5,2],\
                ["r",5,[1,2]],["cas",6,[null,3]]],"node":"n1","isolation":"serializable"}
                {"index":2,"type":"info","process":"nemesis","f":"start-partition","value":["n1","n2"]}
                {"index":3,"type":"invoke","process":2,"f":"txn","value":[["r",7,null]]}
                """, write(b.build()));
    }

    @Test
    void registerOperationsKeepKnossosForm() throws IOException {
        String in = """
                {"index":0,"type":"invoke","process":0,"f":"write","value":["k \\"1\\"",3]}
                {"index":1,"type":"ok","process":0,"f":"write","value":["k \\"1\\"",3]}
                {"index":2,"type":"invoke","process":1,"f":"cas","value":["k \\"1\\"",[3,4]]}
                {"index":3,"type":"fail","process":1,"f":"cas","value":["k \\"1\\"",[3,4]]}
                """;
        assertEquals(in, write(read(in)));
    }

    @Test
    void escapedStringsComeBackAsTheyWent() throws IOException {
        History.Builder b = History.builder().realTime(true);
        long index = 0;
        for (int i = 0; i < NASTY.size(); i++) {
            int t = b.beginTxn(i, Outcome.OK, index++, index++, -1, -1, 0);
            b.write(i, i + 1L);
            b.endTxn();
            b.node(t, NASTY.get(i));
            b.isolation(t, NASTY.get(NASTY.size() - 1 - i));
            // Readers keep only the nemesis's events (any other process is a client, numbered).
            b.sideEvent(new SideEvent(index++, -1, "nemesis", NASTY.get(NASTY.size() - 1 - i), NASTY.get(i),
                    JSON.writeValueAsString(NASTY.get(i))));
        }
        History h = b.build();
        String text = write(h);
        for (String line : text.split("\n")) JSON.readTree(line); // each line is JSON on its own
        History back = read(text);
        RoundTripTest.assertSame(h, back, "nasty strings");
    }

    @Test
    void stringAndKeywordKeysComeBackAsTheyWent() throws IOException {
        StringBuilder in = new StringBuilder();
        int index = 0;
        for (String k : NASTY) {
            String key = JSON.writeValueAsString(k);
            in.append("{\"index\":").append(index++).append(",\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",")
              .append("\"value\":[[\"w\",").append(key).append(",1],[\"r\",\":kw\",null]]}\n");
            in.append("{\"index\":").append(index++).append(",\"type\":\"ok\",\"process\":0,\"f\":\"txn\",")
              .append("\"value\":[[\"w\",").append(key).append(",1],[\"r\",\":kw\",1]]}\n");
        }
        History h = read(in.toString());
        String text = write(h);
        History back = read(text);
        RoundTripTest.assertSame(h, back, "string keys");
        for (int t = 0; t < h.size(); t++) {
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                assertEquals(h.keyName(h.opKey(o)), back.keyName(back.opKey(o)), "txn " + t + " op " + o);
            }
        }
        JsonNode first = JSON.readTree(text.split("\n")[0]);
        assertEquals(NASTY.get(0), first.get("value").get(0).get(1).asText());
    }

    private static String write(History h) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        HistoryFormat.JSONL.write(h, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static History read(String jsonl) throws IOException {
        return HistoryFormat.JSONL.reader().read(new ByteArrayInputStream(jsonl.getBytes(StandardCharsets.UTF_8)),
                "h.jsonl");
    }
}
