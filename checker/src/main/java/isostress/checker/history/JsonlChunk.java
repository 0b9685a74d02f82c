package isostress.checker.history;

import java.util.Arrays;

/**
 * A block of whole JSONL lines and, once {@link #parse}d, their transaction events in primitive columns.
 *
 * <p>Why a parser beside Jackson's: Jackson's token stream costs a few method calls and checks per number, and a
 * list-append history is mostly numbers (parsing took 2.5x the SER check of the same history). This parser accepts
 * only the compact lines writers produce: an object of ASCII fields, {@code index}, {@code type} (invoke, ok, fail,
 * info), an integer {@code process}, {@code time}, {@code f} "txn", {@code node}, {@code isolation}, other scalar
 * fields (skipped), and a {@code value} of micro-ops on integer keys. A line it does not accept in full (a header,
 * a nemesis event, string keys, a non-ASCII byte, any error) is marked for Jackson, which the reader runs on that
 * line in order, so every error message and every accepted input stays Jackson's. Parsing a chunk touches no shared
 * state, so it runs on a second thread while the reader assembles the chunk before.
 */
final class JsonlChunk {
    static final byte JACKSON = -1, INVOKE = 0, OK = 1, FAIL = 2, INFO = 3;
    private static final Outcome[] OUTCOMES = {null, Outcome.OK, Outcome.FAIL, Outcome.INFO};

    /** The raw bytes: whole lines (the last one of the input may lack its newline). */
    final byte[] buf;
    final int len;
    /** The 1-based line number and byte offset of the chunk's first byte. */
    final int firstLine;
    final long firstOffset;
    /** Set when the chunk is the input's end; {@code error} when reading failed. */
    final boolean last;
    final Exception error;

    // Per event: its line, where it starts and ends in buf, its type (JACKSON: not parsed here) and fields.
    int events;
    int[] line = new int[256], from = new int[256], to = new int[256];
    byte[] type = new byte[256];
    boolean[] hasIndex = new boolean[256];
    long[] index = new long[256], process = new long[256], time = new long[256];
    String[] node = new String[256], isolation = new String[256];
    int[] opEnd = new int[256];
    // Per micro-op: kind (History's constants), key, value, CAS new value, null flag, list elements [elemStart..).
    int ops;
    byte[] opKind = new byte[1024];
    boolean[] opNull = new boolean[1024];
    long[] opKey = new long[1024], opValue = new long[1024], opValue2 = new long[1024];
    int[] elemEnd = new int[1024];
    int elems;
    long[] elem = new long[4096];

    JsonlChunk(byte[] buf, int len, int firstLine, long firstOffset, boolean last, Exception error) {
        this.buf = buf;
        this.len = len;
        this.firstLine = firstLine;
        this.firstOffset = firstOffset;
        this.last = last;
        this.error = error;
    }

    static Outcome outcome(byte type) {
        return OUTCOMES[type];
    }

    /** Splits the chunk into lines and parses each it can; returns the line number after the chunk. */
    int parse() {
        int ln = firstLine;
        int i = 0;
        while (i < len) {
            int end = i;
            while (end < len && buf[end] != '\n') end++;
            addLine(ln, i, end);
            if (end < len) ln++;
            i = end + 1;
        }
        return ln;
    }

    private void addLine(int ln, int a, int b) {
        if (events == line.length) growEvents();
        int e = events;
        line[e] = ln;
        from[e] = a;
        to[e] = b;
        int ops0 = ops, elems0 = elems;
        byte t;
        try {
            t = event(e, a, b);
        } catch (NotFast x) {
            t = JACKSON;
        }
        if (t == JACKSON) {
            ops = ops0;
            elems = elems0;
            if (blank(a, b)) return; // nothing there: Jackson would skip it too
        }
        type[e] = t;
        opEnd[e] = ops;
        events++;
    }

    private boolean blank(int a, int b) {
        for (int i = a; i < b; i++) {
            byte c = buf[i];
            if (c != ' ' && c != '\t' && c != '\r') return false;
        }
        return true;
    }

    /** Thrown when a line is not of the accepted form (a preallocated signal: no stack trace). */
    private static final class NotFast extends RuntimeException {
        NotFast() {
            super(null, null, false, false);
        }
    }

    private static final NotFast NOT_FAST = new NotFast();

    private int pos, end;

    private byte event(int e, int a, int b) {
        pos = a;
        end = b;
        // A carriage return other than before the newline: Jackson counts it as a line break; leave it to Jackson.
        int stop = b > a && buf[b - 1] == '\r' ? b - 1 : b;
        for (int i = a; i < stop; i++) if (buf[i] == '\r') return JACKSON;
        skipWs();
        if (pos == end) return JACKSON;
        expect('{');
        int seen = 0;
        seenOther = 0;
        byte t = JACKSON;
        boolean value = false, processSeen = false;
        hasIndex[e] = false;
        time[e] = -1;
        node[e] = null;
        isolation[e] = null;
        skipWs();
        if (peek() == '}') throw NOT_FAST;
        while (true) {
            skipWs();
            int field = fieldName();
            if ((seen & field) != 0) throw NOT_FAST; // a repeated field: Jackson's error
            seen |= field;
            skipWs();
            expect(':');
            skipWs();
            switch (field) {
                case F_INDEX: index[e] = integer(); hasIndex[e] = true; break;
                case F_TYPE: t = typeName(); break;
                case F_PROCESS: process[e] = integer(); processSeen = true; break;
                case F_TIME: time[e] = integer(); break;
                case F_F: if (!word("\"txn\"")) throw NOT_FAST; break;
                case F_NODE: node[e] = optionalString(); break;
                case F_ISOLATION: isolation[e] = optionalString(); break;
                case F_VALUE: microOps(); value = true; break;
                case F_OTHER: skipScalar(); break;
                default: throw NOT_FAST;
            }
            skipWs();
            if (peek() == ',') {
                pos++;
                continue;
            }
            expect('}');
            break;
        }
        skipWs();
        if (pos != end || !value || !processSeen) throw NOT_FAST;
        return t;
    }

    private static final int F_INDEX = 1, F_TYPE = 2, F_PROCESS = 4, F_TIME = 8, F_F = 16, F_NODE = 32,
            F_ISOLATION = 64, F_VALUE = 128, F_OTHER = 256;

    /** The field's bit; fields the Jackson reader gives a meaning to in other events are not accepted here. */
    private int fieldName() {
        int s = string();
        int n = pos - 1 - s;
        if (is(s, n, "index")) return F_INDEX;
        if (is(s, n, "type")) return F_TYPE;
        if (is(s, n, "process")) return F_PROCESS;
        if (is(s, n, "time")) return F_TIME;
        if (is(s, n, "f")) return F_F;
        if (is(s, n, "value")) return F_VALUE;
        if (is(s, n, "node")) return F_NODE;
        if (is(s, n, "isolation")) return F_ISOLATION;
        if (is(s, n, "real-time") || is(s, n, "initial") || is(s, n, "initial-default")) throw NOT_FAST;
        return (seenOther++ == 0) ? F_OTHER : 0; // a second unknown field: Jackson checks duplicates among them
    }

    private int seenOther;

    private boolean is(int s, int n, String w) {
        if (n != w.length()) return false;
        for (int i = 0; i < n; i++) if (buf[s + i] != w.charAt(i)) return false;
        return true;
    }

    private byte typeName() {
        int s = string();
        int n = pos - 1 - s;
        if (is(s, n, "invoke")) return INVOKE;
        if (is(s, n, "ok")) return OK;
        if (is(s, n, "fail")) return FAIL;
        if (is(s, n, "info")) return INFO;
        throw NOT_FAST;
    }

    /** Parses {@code "..."} of plain ASCII (no escapes) and returns where its text starts; pos is past the quote. */
    private int string() {
        expect('"');
        int s = pos;
        while (pos < end) {
            byte c = buf[pos];
            if (c == '"') {
                pos++;
                return s;
            }
            if (c < 0x20 || c == '\\') throw NOT_FAST; // control characters, escapes and non-ASCII (negative)
            pos++;
        }
        throw NOT_FAST;
    }

    private String optionalString() {
        if (word("null")) return null;
        int s = string();
        return new String(buf, s, pos - 1 - s, java.nio.charset.StandardCharsets.US_ASCII);
    }

    private void skipScalar() {
        byte c = peek();
        if (c == '"') string();
        else if (c == '-' || (c >= '0' && c <= '9')) integer();
        else if (!word("null") && !word("true") && !word("false")) throw NOT_FAST;
    }

    /** {@code [["r",k,v], ["w",k,v], ["append",k,v], ["r",k,[..]], ["cas",k,[e,n]]]} on integer keys. */
    private void microOps() {
        if (emptyArray()) return;
        while (true) {
            skipWs();
            expect('[');
            skipWs();
            int s = string();
            int n = pos - 1 - s;
            comma();
            long key = integer();
            comma();
            if (ops == opKind.length) growOps();
            int o = ops;
            opKey[o] = key;
            opNull[o] = false;
            opValue2[o] = 0;
            if (is(s, n, "r")) {
                if (word("null")) {
                    opKind[o] = History.READ;
                    opNull[o] = true;
                } else if (peek() == '[') {
                    opKind[o] = History.LIST_READ;
                    list();
                } else {
                    opKind[o] = History.READ;
                    opValue[o] = integer();
                }
            } else if (is(s, n, "w") || is(s, n, "append")) {
                opKind[o] = n == 1 ? History.WRITE : History.APPEND;
                opValue[o] = integer();
            } else if (is(s, n, "cas")) {
                opKind[o] = History.CAS;
                expect('[');
                skipWs();
                if (word("null")) opNull[o] = true; else opValue[o] = integer();
                comma();
                opValue2[o] = integer();
                skipWs();
                expect(']');
            } else {
                throw NOT_FAST;
            }
            elemEnd[o] = elems;
            ops++;
            skipWs();
            expect(']');
            skipWs();
            if (peek() == ',') {
                pos++;
                continue;
            }
            expect(']');
            return;
        }
    }

    private void list() {
        if (emptyArray()) return;
        while (true) {
            skipWs();
            long v = integer();
            if (elems == elem.length) elem = Arrays.copyOf(elem, elems * 2);
            elem[elems++] = v;
            skipWs();
            byte c = peek();
            pos++;
            if (c == ']') return;
            if (c != ',') throw NOT_FAST;
        }
    }

    /** A JSON integer of at most 18 digits (longer ones, fractions and exponents are Jackson's to judge). */
    private long integer() {
        boolean neg = false;
        if (pos < end && buf[pos] == '-') {
            neg = true;
            pos++;
        }
        int s = pos;
        long v = 0;
        while (pos < end) {
            int d = buf[pos] - '0';
            if (d < 0 || d > 9) break;
            v = v * 10 + d;
            pos++;
        }
        int n = pos - s;
        if (n == 0 || n > 18 || (n > 1 && buf[s] == '0')) throw NOT_FAST;
        if (pos < end) {
            byte c = buf[pos];
            if (c == '.' || c == 'e' || c == 'E') throw NOT_FAST;
        }
        return neg ? -v : v;
    }

    private boolean word(String w) {
        int n = w.length();
        if (end - pos < n) return false;
        for (int i = 0; i < n; i++) if (buf[pos + i] != w.charAt(i)) return false;
        pos += n;
        return true;
    }

    private byte peek() {
        if (pos >= end) throw NOT_FAST;
        return buf[pos];
    }

    private void expect(char c) {
        if (pos >= end || buf[pos] != c) throw NOT_FAST;
        pos++;
    }

    /** Opens an array; true when it is empty (and then closed). */
    private boolean emptyArray() {
        expect('[');
        skipWs();
        if (peek() != ']') return false;
        pos++;
        return true;
    }

    /** A comma between optional blanks. */
    private void comma() {
        skipWs();
        expect(',');
        skipWs();
    }

    private void skipWs() {
        while (pos < end) {
            byte c = buf[pos];
            if (c != ' ' && c != '\t' && c != '\r') return;
            pos++;
        }
    }

    private void growEvents() {
        int n = events * 2;
        line = Arrays.copyOf(line, n);
        from = Arrays.copyOf(from, n);
        to = Arrays.copyOf(to, n);
        type = Arrays.copyOf(type, n);
        hasIndex = Arrays.copyOf(hasIndex, n);
        index = Arrays.copyOf(index, n);
        process = Arrays.copyOf(process, n);
        time = Arrays.copyOf(time, n);
        node = Arrays.copyOf(node, n);
        isolation = Arrays.copyOf(isolation, n);
        opEnd = Arrays.copyOf(opEnd, n);
    }

    private void growOps() {
        int n = ops * 2;
        opKind = Arrays.copyOf(opKind, n);
        opNull = Arrays.copyOf(opNull, n);
        opKey = Arrays.copyOf(opKey, n);
        opValue = Arrays.copyOf(opValue, n);
        opValue2 = Arrays.copyOf(opValue2, n);
        elemEnd = Arrays.copyOf(elemEnd, n);
    }
}
