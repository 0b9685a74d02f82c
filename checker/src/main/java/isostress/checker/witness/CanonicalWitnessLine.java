package isostress.checker.witness;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The fast path of {@link WitnessReader}: a line in the form the captures write,
 * {@code {"pos":17,"node":"n1","txid":"731","writes":[["w",3,17],["append",4,9],["delete",5]]}} (these fields in this order,
 * integer keys, no escapes, blanks allowed between tokens), read straight from its bytes by one reused reader.
 *
 * <p>Why by hand: a witness has a line per committed transaction, as many as the history has transactions, and a
 * Jackson parser created for each line (so that an error is always the line's own) read a million lines in more
 * time than the serializability check of the same run. Anything this path does not recognise (another field order,
 * a string key, an escape, a number of 19 digits or more, malformed JSON) makes it give the line back, and the
 * Jackson path reads it and words any error; so the two paths accept the same lines and this one never decides an
 * error ({@code CanonicalWitnessLineTest} compares them).
 */
final class CanonicalWitnessLine {
    private byte[] b;
    private int end, p;
    /** The last line's fields: its position, node, and transaction id as a number or, when not one, as text. */
    long pos;
    String node;
    boolean txidIsNumber;
    long txidNumber;
    String txidText;

    /** The last node's bytes: a log's lines name few nodes, so its string is reused (and compared by identity). */
    private byte[] lastNode = new byte[0];
    private String lastNodeString = "";
    private int sFrom, sTo;
    private long num;

    /**
     * Reads {@code b[from, to)}, its writes into {@code out} (cleared first); false when the line is not in the
     * canonical form ({@code out} and the fields are then to be ignored).
     */
    boolean read(byte[] bytes, int from, int to, WitnessReader.WriteBuffer out) {
        b = bytes;
        p = from;
        end = to;
        out.clear();
        return parse(out);
    }

    private boolean parse(WitnessReader.WriteBuffer out) {
        if (!sym('{') || !field("pos") || !number()) return false;
        pos = num;
        if (!sym(',') || !field("node") || !string()) return false;
        node = node(sFrom, sTo);
        if (!sym(',') || !field("txid")) return false;
        blanks();
        int from;
        if (p < end && b[p] == '"') {
            if (!string()) return false;
            from = sFrom;
            txidIsNumber = digitsOnly(sFrom, sTo) && parseCanonical(sFrom, sTo);
            if (!txidIsNumber) txidText = new String(b, sFrom, sTo - sFrom, StandardCharsets.UTF_8);
        } else {
            from = p;
            if (!number()) return false;
            // "-0" is not the canonical spelling of 0: kept as text, as the Jackson path keeps it
            txidIsNumber = !(num == 0 && b[from] == '-');
            txidNumber = num;
            if (!txidIsNumber) txidText = new String(b, from, p - from, StandardCharsets.ISO_8859_1);
        }
        if (!sym(',') || !field("writes") || !sym('[')) return false;
        blanks();
        if (p < end && b[p] == ']') {
            p++;
        } else {
            while (true) {
                if (!sym('[') || !string()) return false;
                byte kind;
                if (sTo - sFrom == 1 && b[sFrom] == 'w') kind = Witness.WRITE;
                else if (sTo - sFrom == 6 && same(sFrom, "append")) kind = Witness.APPEND;
                else if (sTo - sFrom == 6 && same(sFrom, "delete")) kind = Witness.DELETE;
                else return false;
                if (!sym(',') || !number()) return false;
                long key = num;
                if (kind == Witness.DELETE) {
                    out.add(kind, key, 0); // ["delete", key]: a deleted row has no value
                } else {
                    if (!sym(',') || !number()) return false;
                    out.add(kind, key, num);
                }
                if (!sym(']')) return false;
                blanks();
                if (p < end && b[p] == ',') {
                    p++;
                    continue;
                }
                if (!sym(']')) return false;
                break;
            }
        }
        if (!sym('}')) return false;
        blanks();
        return p == end;
    }

    private String node(int from, int to) {
        int n = to - from;
        if (n == lastNode.length && Arrays.equals(b, from, to, lastNode, 0, n)) return lastNodeString;
        lastNode = Arrays.copyOfRange(b, from, to);
        lastNodeString = new String(lastNode, StandardCharsets.UTF_8);
        return lastNodeString;
    }

    private boolean digitsOnly(int from, int to) {
        if (from == to) return false;
        for (int i = from; i < to; i++) if (b[i] < '0' || b[i] > '9') return false;
        return true;
    }

    /** Digits {@code b[from, to)} as {@link #txidNumber}, when canonical (no leading zero, at most 18 digits). */
    private boolean parseCanonical(int from, int to) {
        if (to - from > 18 || (to - from > 1 && b[from] == '0')) return false;
        long v = 0;
        for (int i = from; i < to; i++) v = v * 10 + (b[i] - '0');
        txidNumber = v;
        return true;
    }

    /** An integer of at most 18 digits (so it fits in a long without a check), into {@link #num}. */
    private boolean number() {
        blanks();
        boolean neg = p < end && b[p] == '-';
        if (neg) p++;
        int from = p;
        long v = 0;
        while (p < end && b[p] >= '0' && b[p] <= '9') {
            v = v * 10 + (b[p] - '0');
            p++;
        }
        int digits = p - from;
        if (digits == 0 || digits > 18 || (digits > 1 && b[from] == '0')) return false;
        if (p < end && (b[p] == '.' || b[p] == 'e' || b[p] == 'E')) return false;
        num = neg ? -v : v;
        return true;
    }

    /** A string without escapes or control characters, its bytes' bounds (without the quotes) in sFrom, sTo. */
    private boolean string() {
        blanks();
        if (p >= end || b[p] != '"') return false;
        int from = ++p;
        while (p < end && b[p] != '"') {
            if (b[p] == '\\' || (b[p] >= 0 && b[p] < 0x20)) return false;
            p++;
        }
        if (p >= end) return false;
        sFrom = from;
        sTo = p++;
        return true;
    }

    /** {@code "name":}. */
    private boolean field(String name) {
        return string() && sTo - sFrom == name.length() && same(sFrom, name) && sym(':');
    }

    private boolean same(int at, String ascii) {
        for (int i = 0; i < ascii.length(); i++) if (b[at + i] != ascii.charAt(i)) return false;
        return true;
    }

    private boolean sym(char c) {
        blanks();
        if (p < end && b[p] == c) {
            p++;
            return true;
        }
        return false;
    }

    private void blanks() {
        while (p < end && (b[p] == ' ' || b[p] == '\t')) p++;
    }
}
