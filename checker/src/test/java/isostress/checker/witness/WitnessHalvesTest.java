package isostress.checker.witness;

import isostress.checker.history.InputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A large witness file is read in two halves on two threads: the result must be the one-thread reader's, transaction
 * by transaction (nodes, positions, txids, line numbers, writes), and a file the halves cannot take (a line in
 * another form, positions that do not increase across the split, an error) must be read whole, with the one-thread
 * reader's errors and line numbers.
 */
class WitnessHalvesTest {
    /** A witness of about {@code bytes} bytes: three nodes, some text txids, blank lines, appends, deletes. */
    private static StringBuilder canonical(int bytes, long seed) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder();
        long[] pos = new long[3];
        long value = 0;
        while (sb.length() < bytes) {
            int node = r.nextInt(3);
            pos[node] += 1 + r.nextInt(3);
            String txid = node == 2 ? "\"0-2-" + pos[node] + "\"" : r.nextBoolean() ? "\"" + (pos[node] + 700) + "\""
                    : Long.toString(pos[node] + 700);
            sb.append("{\"pos\":").append(pos[node]).append(",\"node\":\"n").append(node + 1).append("\",\"txid\":")
                    .append(txid).append(",\"writes\":[");
            int n = r.nextInt(4);
            for (int i = 0; i < n; i++) {
                if (i > 0) sb.append(',');
                int kind = r.nextInt(10);
                if (kind == 0) {
                    sb.append("[\"delete\",").append(r.nextInt(1000)).append(']');
                } else {
                    sb.append(kind < 3 ? "[\"append\"," : "[\"w\",").append(r.nextInt(1000)).append(',')
                            .append(++value).append(']');
                }
            }
            sb.append("]}\n");
            if (r.nextInt(50) == 0) sb.append('\n');
        }
        return sb;
    }

    private static Witness oneThread(String text) throws IOException {
        return WitnessReader.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "w.jsonl");
    }

    private static void assertSame(Witness expected, Witness actual) {
        assertEquals(expected.size(), actual.size());
        assertEquals(expected.writeCount(), actual.writeCount());
        for (int t = 0; t < expected.size(); t++) assertEquals(expected.txn(t), actual.txn(t), "transaction " + t);
    }

    @Test
    void aLargeCanonicalFileIsReadInHalvesAsOneThreadReadsIt(@TempDir Path dir) throws IOException {
        for (long seed = 1; seed <= 2; seed++) {
            String text = canonical((int) WitnessHalves.MIN_BYTES * 2 + (int) seed * 977, seed).toString();
            Path f = dir.resolve("w" + seed + ".jsonl");
            Files.writeString(f, text);
            Witness halves = WitnessHalves.read(f);
            assertNotNull(halves, "a canonical file of " + text.length() + " bytes is read in halves");
            assertSame(oneThread(text), halves);
            assertSame(halves, WitnessReader.read(f));
        }
    }

    @Test
    void aSmallFileIsReadOnOneThread(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("w.jsonl");
        Files.writeString(f, canonical(1000, 7));
        assertNull(WitnessHalves.read(f));
    }

    @Test
    void aLineInAnotherFormInTheSecondHalfSendsTheWholeFileToTheOneThreadReader(@TempDir Path dir) throws IOException {
        StringBuilder sb = canonical((int) WitnessHalves.MIN_BYTES * 2, 11);
        // Fields in another order, a string key: both readable, neither canonical.
        sb.append("{\"node\":\"n1\",\"pos\":999999999,\"txid\":\"x\",\"writes\":[[\"w\",\"k\",1]]}\n");
        Path f = dir.resolve("w.jsonl");
        Files.writeString(f, sb);
        assertNull(WitnessHalves.read(f));
        Witness w = WitnessReader.read(f);
        assertSame(oneThread(sb.toString()), w);
        assertEquals(sb.toString().split("\n", -1).length - 1, w.line(w.size() - 1));
    }

    @Test
    void anErrorInTheSecondHalfIsReportedAtItsLineInTheFile(@TempDir Path dir) throws IOException {
        StringBuilder sb = canonical((int) WitnessHalves.MIN_BYTES * 2, 12);
        int line = sb.toString().split("\n", -1).length;
        sb.append("{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"w\",1,2,3]]}\n");
        Path f = dir.resolve("w.jsonl");
        Files.writeString(f, sb);
        InputException e = assertThrows(InputException.class, () -> WitnessReader.read(f));
        assertEquals(line, e.line(), e.getMessage());
    }

    @Test
    void aPositionThatDoesNotIncreaseAcrossTheSplitIsTheOneThreadReadersError(@TempDir Path dir) throws IOException {
        StringBuilder sb = new StringBuilder();
        int lines = 0;
        // n1's positions rise through the first half, then start again from 1 in the second.
        while (sb.length() < WitnessHalves.MIN_BYTES) {
            lines++;
            row(sb, 1000000 + lines, lines);
        }
        for (int i = 1; sb.length() < 3 * WitnessHalves.MIN_BYTES; i++) row(sb, i, lines + i);
        Path f = dir.resolve("w.jsonl");
        Files.writeString(f, sb);
        assertNull(WitnessHalves.read(f));
        InputException e = assertThrows(InputException.class, () -> WitnessReader.read(f));
        assertEquals(lines + 1, e.line(), e.getMessage());
        assertTrue(e.getMessage().contains("does not increase"), e.getMessage());
    }

    private static void row(StringBuilder sb, long pos, int txid) {
        sb.append("{\"pos\":").append(pos).append(",\"node\":\"n1\",\"txid\":\"").append(txid)
                .append("\",\"writes\":[[\"w\",1,").append(txid).append("]]}\n");
    }

    @Test
    void nonAsciiBytesSendTheFileToTheOneThreadReaderWhichChecksThemAsUtf8(@TempDir Path dir) throws IOException {
        StringBuilder sb = canonical((int) WitnessHalves.MIN_BYTES * 2, 13);
        byte[] head = sb.toString().getBytes(StandardCharsets.UTF_8);
        byte[] bad = "{\"pos\":999999999,\"node\":\"n\u00e9\",\"txid\":\"1\",\"writes\":[]}\n".getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[head.length + bad.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(bad, 0, all, head.length, bad.length);
        Path f = dir.resolve("w.jsonl");
        Files.write(f, all);
        assertNull(WitnessHalves.read(f));
        Witness w = WitnessReader.read(f);
        assertEquals("n\u00e9", w.node(w.size() - 1));
        all[all.length - 20] = (byte) 0xff; // inside the name "txid": not UTF-8
        Files.write(f, all);
        assertThrows(InputException.class, () -> WitnessReader.read(f));
    }
}
