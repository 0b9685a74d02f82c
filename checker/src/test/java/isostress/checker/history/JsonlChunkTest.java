package isostress.checker.history;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The JSONL reader's own line parser ({@link JsonlChunk}) and its hand-over to Jackson give the history, or the
 * error sentence, that Jackson alone gives: on random valid histories mixing every line form (those the fast parser
 * takes and those it leaves to Jackson), and on the same inputs with bytes replaced, deleted or lines joined.
 */
class JsonlChunkTest {

    @Test
    void sameHistoryAsJacksonAlone() throws IOException {
        for (long seed = 0; seed < 300; seed++) {
            String text = random(new SplittableRandom(seed));
            assertSame(text, "seed " + seed);
        }
    }

    @Test
    void sameErrorAsJacksonAloneOnDamagedInput() throws IOException {
        String[] junk = {"", "x", "\n", "}", "{", "]", "[", ",", "\"", "1", "-", "null", " ", "\r", "1e5", "\\",
            "99999999999999999999", "\"r\"", ":", "\u00e9", "\t"};
        for (long seed = 0; seed < 3000; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            String text = random(rnd);
            int edits = 1 + rnd.nextInt(3);
            StringBuilder sb = new StringBuilder(text);
            for (int i = 0; i < edits && sb.length() > 0; i++) {
                int at = rnd.nextInt(sb.length());
                int cut = Math.min(sb.length() - at, rnd.nextInt(3));
                sb.replace(at, at + cut, junk[rnd.nextInt(junk.length)]);
            }
            assertSame(sb.toString(), "seed " + seed + ": " + sb);
        }
    }

    @Test
    void sameHistoryAndErrorsWhenLinesCrossBlockEnds() throws IOException {
        for (long seed = 0; seed < 300; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            String text = random(rnd);
            if (seed % 2 == 1) { // and damaged: errors are named at the same line across blocks
                int at = rnd.nextInt(text.length());
                text = text.substring(0, at) + "}" + text.substring(at + 1);
            }
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            String expected = outcome(text, true);
            for (int block : new int[]{1, 7, 64, 300}) {
                String actual;
                try {
                    actual = describe(new JsonlReader().read(new ByteArrayInputStream(bytes), "h.jsonl", block));
                } catch (InputException e) {
                    actual = error(e);
                }
                assertEquals(expected, actual, "seed " + seed + ", blocks of " + block);
            }
        }
    }

    @Test
    void integersOfEveryLengthAsJacksonReadsThem() throws IOException {
        SplittableRandom rnd = new SplittableRandom(7);
        String[] after = {"", "]", " ]", ".5]", "e3]", "E3]", "x]", "\u00e9]", ",2]"};
        for (int digits = 1; digits <= 20; digits++) {
            for (int i = 0; i < 40; i++) {
                StringBuilder num = new StringBuilder(rnd.nextInt(4) == 0 ? "-" : "");
                for (int d = 0; d < digits; d++) num.append((char) ('0' + rnd.nextInt(d == 0 && i % 3 != 0 ? 9 : 10)
                        + (d == 0 && i % 3 != 0 ? 1 : 0)));
                String line = "{\"type\":\"invoke\",\"process\":" + num + ",\"value\":[[\"r\",1,[" + num
                        + after[i % after.length];
                // Ending the input right after the number, or after the whole line: the 8-byte fast path and not.
                assertSame(line, line);
                if (after[i % after.length].endsWith("]")) assertSame(line + "]]}", line + "]]}");
            }
        }
    }

    @Test
    void listReadsOfOneKeyShareStorageAndReadBackExactly() throws IOException {
        String text = String.join("\n",
                "{\"index\":0,\"type\":\"invoke\",\"process\":0,\"value\":[[\"r\",1,null]]}",
                "{\"index\":1,\"type\":\"ok\",\"process\":0,\"value\":[[\"r\",1,[1,2]]]}",
                "{\"index\":2,\"type\":\"invoke\",\"process\":0,\"value\":[[\"r\",1,null]]}",
                "{\"index\":3,\"type\":\"ok\",\"process\":0,\"value\":[[\"r\",1,[1,2,3,4,5,6,7,8,9,10,11,12]]]}",
                "{\"index\":4,\"type\":\"invoke\",\"process\":0,\"value\":[[\"r\",1,null]]}",
                "{\"index\":5,\"type\":\"ok\",\"process\":0,\"value\":[[\"r\",1,[1]]]}",
                "{\"index\":6,\"type\":\"invoke\",\"process\":0,\"value\":[[\"r\",1,null]]}",
                "{\"index\":7,\"type\":\"ok\",\"process\":0,\"value\":[[\"r\",1,[1,3]],[\"r\",2,[]],[\"r\",1,[]]]}");
        History h = read(text);
        assertEquals(List.of(1L, 2L), h.txn(0).ops().get(0) instanceof MicroOp.ListRead l ? l.values() : null);
        assertEquals(12, h.listLength(h.firstOp(1)));
        assertEquals(12L, h.listValue(h.firstOp(1), 11));
        assertEquals(List.of(1L), ((MicroOp.ListRead) h.txn(2).ops().get(0)).values());
        assertEquals(List.of(1L, 3L), ((MicroOp.ListRead) h.txn(3).ops().get(0)).values());
        assertEquals(List.of(), ((MicroOp.ListRead) h.txn(3).ops().get(1)).values());
        assertEquals(List.of(), ((MicroOp.ListRead) h.txn(3).ops().get(2)).values());
        assertSame(text, "list reads");
    }

    private static void assertSame(String text, String what) throws IOException {
        String expected = outcome(text, true), actual = outcome(text, false);
        assertEquals(expected, actual, what);
    }

    /** The history's transactions, key names, side events and initial state, or the error's sentence. */
    static String outcome(String text, boolean jacksonAlone) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        try {
            return describe(jacksonAlone ? JsonlReader.readWithJackson(new ByteArrayInputStream(bytes), "h.jsonl")
                    : new JsonlReader().read(new ByteArrayInputStream(bytes), "h.jsonl"));
        } catch (InputException e) {
            return error(e);
        }
    }

    static String describe(History h) {
        List<Object> all = new ArrayList<>(h.txns());
        all.add(h.keyNames());
        all.add(h.sideEvents());
        all.add(h.initial());
        all.add(h.realTime());
        return all.toString();
    }

    /** Jackson's own location of an enclosing context (its "root" always starts at line 1) is not compared. */
    static String error(InputException e) {
        return "error: " + e.getMessage().replaceAll("\\[Source: [^\\]]*\\]", "[...]");
    }

    private static History read(String text) throws IOException {
        return new JsonlReader().read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "h.jsonl");
    }

    /** A random history text: compact lines and the forms the fast parser leaves to Jackson. */
    static String random(SplittableRandom rnd) {
        StringBuilder sb = new StringBuilder();
        if (rnd.nextInt(4) == 0) sb.append("{\"type\":\"header\",\"real-time\":true,\"initial-default\":0}\n");
        boolean stringKeys = rnd.nextInt(8) == 0;
        int sessions = 1 + rnd.nextInt(3);
        boolean[] open = new boolean[sessions];
        int index = 0;
        long value = 1;
        int events = 1 + rnd.nextInt(30);
        for (int i = 0; i < events; i++) {
            int s = rnd.nextInt(sessions);
            if (rnd.nextInt(12) == 0) {
                sb.append("{\"index\":").append(index++).append(",\"type\":\"info\",\"process\":\"nemesis\",\"f\":"
                        + "\"kill\",\"value\":null}\n");
                continue;
            }
            String type = open[s] ? new String[]{"ok", "ok", "fail", "info"}[rnd.nextInt(4)] : "invoke";
            open[s] = !open[s];
            String sep = rnd.nextInt(10) == 0 ? ", " : ",";
            sb.append('{');
            List<String> fields = new ArrayList<>();
            fields.add("\"index\":" + index++);
            fields.add("\"type\":\"" + type + "\"");
            fields.add("\"process\":" + s);
            if (rnd.nextBoolean()) fields.add("\"time\":" + rnd.nextInt(1000));
            if (rnd.nextBoolean()) fields.add("\"f\":\"txn\"");
            if (rnd.nextInt(6) == 0) fields.add("\"node\":" + (rnd.nextBoolean() ? "\"n1\"" : "null"));
            if (rnd.nextInt(6) == 0) fields.add("\"isolation\":\"serializable\"");
            if (rnd.nextInt(6) == 0) fields.add("\"error\":\"timeout\"");
            StringBuilder v = new StringBuilder("\"value\":[");
            int ops = rnd.nextInt(4);
            for (int o = 0; o < ops; o++) {
                if (o > 0) v.append(sep);
                String key = stringKeys ? "\"k" + rnd.nextInt(3) + "\"" : Integer.toString(rnd.nextInt(4) - 1);
                switch (rnd.nextInt(6)) {
                    case 0: v.append("[\"r\",").append(key).append(",null]"); break;
                    case 1: v.append("[\"r\",").append(key).append(',').append(rnd.nextInt(5)).append(']'); break;
                    case 2: v.append("[\"w\",").append(key).append(',').append(value++).append(']'); break;
                    case 3: v.append("[\"append\",").append(key).append(',').append(value++).append(']'); break;
                    case 4: {
                        v.append("[\"r\",").append(key).append(",[");
                        int n = rnd.nextInt(4);
                        for (int e = 0; e < n; e++) v.append(e > 0 ? "," : "").append(1 + rnd.nextInt(6));
                        v.append("]]");
                        break;
                    }
                    default:
                        v.append("[\"cas\",").append(key).append(",[").append(rnd.nextBoolean() ? "null" : "1")
                         .append(',').append(value++).append("]]");
                }
            }
            fields.add(v.append(']').toString());
            java.util.Collections.shuffle(fields, new java.util.Random(rnd.nextLong()));
            sb.append(String.join(sep, fields)).append('}');
            sb.append(rnd.nextInt(15) == 0 ? "\r\n" : "\n");
            if (rnd.nextInt(20) == 0) sb.append("\n");
        }
        return sb.toString();
    }
}
