package isostress.checker.witness;

import isostress.checker.history.InputException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The witness reader's hand-written path for the captures' own line form ({@link CanonicalWitnessLine}) against its
 * Jackson path, on many random files of canonical lines, some of them mutated (bytes deleted, inserted, fields
 * reordered, long numbers, escapes, string keys): both paths give the same witness, or the same sentence.
 */
class CanonicalWitnessLineTest {
    private static final String ALPHABET = "{}[]\",: -.eE0123456789wappendnodxlt\\\t";

    @Test
    void bothPathsReadTheSameOrRefuseWithTheSameSentence() throws Exception {
        SplittableRandom r = new SplittableRandom(17);
        int same = 0, refused = 0, canonicalRead = 0;
        for (int file = 0; file < 20_000; file++) {
            StringBuilder sb = new StringBuilder();
            int lines = 1 + r.nextInt(4);
            long pos = r.nextInt(5);
            for (int l = 0; l < lines; l++) {
                pos += r.nextInt(3); // sometimes not increasing: an error both must word alike
                String line = line(r, pos);
                if (r.nextInt(3) == 0) line = mutate(r, line);
                sb.append(line).append('\n');
            }
            byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
            String fast = outcome(bytes, true), slow = outcome(bytes, false);
            assertEquals(slow, fast, "file:\n" + sb);
            if (fast.startsWith("refused")) refused++; else same++;
            if (!sb.toString().contains(" ") && !fast.startsWith("refused")) canonicalRead++;
        }
        System.out.println("CanonicalWitnessLineTest: " + same + " read alike, " + refused + " refused alike");
        assertTrue(same > 5_000 && refused > 1_000 && canonicalRead > 1_000, same + " read, " + refused + " refused");
    }

    private static String line(SplittableRandom r, long pos) {
        String sp = r.nextInt(6) == 0 ? " " : "";
        StringBuilder w = new StringBuilder("[");
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            if (i > 0) w.append(',').append(sp);
            String key = switch (r.nextInt(8)) {
                case 0 -> "-" + r.nextInt(100);
                case 1 -> "\"k" + r.nextInt(3) + "\"";
                case 2 -> Long.toString(Long.MAX_VALUE - r.nextInt(3));
                case 3 -> "12345678901234567" + r.nextInt(10) + (r.nextBoolean() ? "9" : "");
                default -> Integer.toString(r.nextInt(50));
            };
            int op = r.nextInt(4);
            if (op == 0) { // a deleted row: no value (sometimes one anyway, which both paths must refuse alike)
                w.append("[\"delete\",").append(sp).append(key);
                if (r.nextInt(10) == 0) w.append(',').append(r.nextInt(1000));
                w.append(']');
                continue;
            }
            w.append(op == 1 ? "[\"append\"," : "[\"w\",").append(sp).append(key).append(',')
                    .append(r.nextInt(1000)).append(']');
        }
        w.append(']');
        String txid = r.nextBoolean() ? "\"" + r.nextInt(1000) + "\"" : Integer.toString(r.nextInt(1000));
        String node = r.nextInt(10) == 0 ? "\"n\\u0031\"" : "\"n" + (1 + r.nextInt(2)) + "\"";
        List<String> fields = new ArrayList<>(List.of("\"pos\":" + sp + pos, "\"node\":" + node, "\"txid\":" + txid,
                "\"writes\":" + w));
        if (r.nextInt(10) == 0) fields.add(r.nextInt(4), "\"time\":" + r.nextInt(9));
        if (r.nextInt(10) == 0) java.util.Collections.swap(fields, 0, 1 + r.nextInt(3));
        return "{" + String.join("," + sp, fields) + "}";
    }

    private static String mutate(SplittableRandom r, String line) {
        StringBuilder b = new StringBuilder(line);
        int edits = 1 + r.nextInt(2);
        for (int i = 0; i < edits && b.length() > 0; i++) {
            int at = r.nextInt(b.length());
            if (r.nextBoolean()) b.deleteCharAt(at);
            else b.insert(at, ALPHABET.charAt(r.nextInt(ALPHABET.length())));
        }
        return b.toString();
    }

    /** What reading gives: the witness's transactions, or the sentence it was refused with. */
    private static String outcome(byte[] bytes, boolean canonical) throws Exception {
        Witness w;
        try {
            w = WitnessReader.read(new ByteArrayInputStream(bytes), "w.jsonl", canonical);
        } catch (InputException e) {
            return "refused: " + e.getMessage();
        }
        StringBuilder sb = new StringBuilder();
        for (int t = 0; t < w.size(); t++) sb.append(w.txn(t)).append(" ").append(w.txn(t).writes()).append('\n');
        sb.append(w.stringKeys());
        return sb.toString();
    }
}
