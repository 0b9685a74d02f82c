package isostress.checker.history;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * {@link JsonlChunk} parses only what a list read adds to the key's previous read; these inputs make reads of a key
 * share a prefix, grow, repeat, shrink, diverge (also inside a number: {@code [1,2} then {@code [1,23]}), change
 * their blanks, and sit in lines left to Jackson, in blocks from one byte to many lines. The history, or the error,
 * must be what Jackson alone reads.
 */
class JsonlListReuseTest {
    private static final int[] BLOCKS = {1, 7, 64, 300, 4096, JsonlChunks.BLOCK};

    @Test
    void listReadsThatShareOrBreakAPrefixReadAsJacksonReadsThem() throws IOException {
        for (long seed = 0; seed < 200; seed++) {
            String text = lists(new SplittableRandom(seed));
            String expected = JsonlChunkTest.outcome(text, true);
            assertFalse(expected.startsWith("error"), expected); // histories, not errors, are compared
            assertSameInBlocks(text, "seed " + seed);
        }
    }

    @Test
    void damagedListReadsGiveJacksonsError() throws IOException {
        String[] junk = {"", "x", "]", "[", ",", "1", "-", " ", ".5", "e3", "\n", "}", "null"};
        for (long seed = 0; seed < 1000; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            StringBuilder sb = new StringBuilder(lists(rnd));
            int at = rnd.nextInt(sb.length());
            sb.replace(at, Math.min(sb.length(), at + rnd.nextInt(3)), junk[rnd.nextInt(junk.length)]);
            assertSameInBlocks(sb.toString(), "seed " + seed + ": " + sb);
        }
    }

    @Test
    void aListInALineLeftToJacksonIsNotReused() throws IOException {
        // The first line has two unknown fields, which the fast parser leaves to Jackson after it parsed the list;
        // the second line's list takes the place the first one's had among the parsed elements.
        String text = String.join("\n",
                "{\"type\":\"invoke\",\"process\":0,\"value\":[[\"r\",1,null]]}",
                "{\"type\":\"invoke\",\"process\":1,\"value\":[[\"r\",2,null]]}",
                "{\"type\":\"invoke\",\"process\":2,\"value\":[[\"r\",1,null]]}",
                "{\"type\":\"ok\",\"process\":0,\"value\":[[\"r\",1,[1,2,3]]],\"x\":1,\"y\":2}",
                "{\"type\":\"ok\",\"process\":1,\"value\":[[\"r\",2,[7,8,9]]]}",
                "{\"type\":\"ok\",\"process\":2,\"value\":[[\"r\",1,[1,2,3,4]]]}");
        History h = new JsonlReader().read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "h.jsonl");
        assertEquals(List.of(1L, 2L, 3L, 4L), ((MicroOp.ListRead) h.txn(2).ops().get(0)).values());
        assertSameInBlocks(text, "a list in a line left to Jackson");
    }

    private static void assertSameInBlocks(String text, String what) throws IOException {
        String expected = JsonlChunkTest.outcome(text, true);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (int block : BLOCKS) {
            String actual;
            try {
                actual = JsonlChunkTest.describe(new JsonlReader().read(new ByteArrayInputStream(bytes), "h.jsonl",
                        block));
            } catch (InputException e) {
                actual = JsonlChunkTest.error(e);
            }
            assertEquals(expected, actual, what + ", blocks of " + block);
        }
    }

    /** Completed transactions reading and appending to a few keys' lists, each read mostly the list so far. */
    private static String lists(SplittableRandom rnd) {
        long[] keys = {0, 1, 2, -3, 1L << 40, 256, 1234567890123L};
        int nk = 1 + rnd.nextInt(keys.length);
        List<List<Long>> list = new ArrayList<>(), last = new ArrayList<>();
        for (int k = 0; k < nk; k++) {
            list.add(new ArrayList<>());
            last.add(List.of());
        }
        StringBuilder sb = new StringBuilder();
        int lines = 1 + rnd.nextInt(60);
        for (int i = 0; i < lines; i++) {
            StringBuilder v = new StringBuilder();
            int ops = 1 + rnd.nextInt(4);
            for (int o = 0; o < ops; o++) {
                int k = rnd.nextInt(nk);
                if (o > 0) v.append(',');
                if (rnd.nextInt(3) == 0) {
                    long x = rnd.nextInt(4) == 0 ? rnd.nextLong(1, 100_000) : rnd.nextInt(1, 40);
                    list.get(k).add(x);
                    v.append("[\"append\",").append(keys[k]).append(',').append(x).append(']');
                    continue;
                }
                List<Long> r = new ArrayList<>(list.get(k));
                String extra = "";
                switch (rnd.nextInt(10)) {
                    case 0: r = new ArrayList<>(r.subList(0, rnd.nextInt(r.size() + 1))); break; // stale
                    case 1: r = new ArrayList<>(last.get(k)); break; // the previous read again
                    case 2: if (!r.isEmpty()) r.set(rnd.nextInt(r.size()), rnd.nextLong(-5, 50)); break; // diverged
                    case 3: if (!r.isEmpty()) extra = Integer.toString(rnd.nextInt(10)); break; // a longer last number
                    case 4: r.add(rnd.nextLong(0, 9)); break; // one more than appended
                    default: break;
                }
                last.set(k, r);
                v.append("[\"r\",").append(keys[k]).append(',').append(list(r, extra, rnd)).append(']');
            }
            String tail = rnd.nextInt(15) == 0 ? ",\"x\":1,\"y\":2" : ""; // left to Jackson
            String invoke = v.toString().replaceAll("(\\[\"r\",-?\\d+,)\\[[^\\]]*\\]", "$1null");
            sb.append("{\"type\":\"invoke\",\"process\":0,\"value\":[").append(invoke).append("]}\n");
            sb.append("{\"type\":\"ok\",\"process\":0,\"value\":[").append(v).append(']')
                    .append(tail).append('}').append(rnd.nextInt(15) == 0 ? "\r\n" : "\n");
        }
        return sb.toString();
    }

    /** The list's text with blanks of one of a few kinds, and {@code extra} digits after its last element. */
    private static String list(List<Long> r, String extra, SplittableRandom rnd) {
        String sep = new String[]{",", ",", ",", ", ", " ,", "\t,\t"}[rnd.nextInt(6)];
        StringBuilder sb = new StringBuilder(rnd.nextInt(10) == 0 ? "[ " : "[");
        for (int i = 0; i < r.size(); i++) sb.append(i > 0 ? sep : "").append(r.get(i));
        return sb.append(extra).append(rnd.nextInt(10) == 0 ? " ]" : "]").toString();
    }
}
