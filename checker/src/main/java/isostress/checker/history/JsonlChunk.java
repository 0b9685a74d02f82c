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
 *
 * <p>Each line is parsed in one pass (no token it takes spans a newline, so the parser finds the line's end itself)
 * and numbers of up to 7 digits 8 bytes at a time ({@link AsciiDigits}); a list read that repeats the text of its
 * key's previous read in the chunk takes that read's elements and parses only what follows ({@link #list}). The
 * class is longer than most (about 600 lines): it is one grammar, kept in one place so that what the fast path
 * accepts can be read against Jackson's.
 */
final class JsonlChunk {
    static final byte JACKSON = -1, INVOKE = 0, OK = 1, FAIL = 2, INFO = 3;
    private static final Outcome[] OUTCOMES = {null, Outcome.OK, Outcome.FAIL, Outcome.INFO};

    /** The raw bytes: whole lines (the last one of the input may lack its newline). */
    byte[] buf;
    int len;
    /** The 1-based line number and byte offset of the chunk's first byte. */
    int firstLine;
    long firstOffset;
    /** Set when the chunk is the input's end; {@code error} when reading failed. */
    boolean last;
    Exception error;

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
        reset(len, firstLine, firstOffset, last, error);
    }

    /**
     * Makes this chunk hold {@code len} new bytes of {@link #buf} and no events: a chunk the reader is done with is
     * filled again, so its 4 MB block and its columns are not allocated (and collected) once per block.
     */
    void reset(int len, int firstLine, long firstOffset, boolean last, Exception error) {
        this.len = len;
        this.firstLine = firstLine;
        this.firstOffset = firstOffset;
        this.last = last;
        this.error = error;
        events = ops = elems = 0;
        if (++gen == 0) { // after 2^32 chunks: slots of the generation about to be reused are not valid
            Arrays.fill(refGen, 0);
            gen = 1;
        }
    }

    static Outcome outcome(byte type) {
        return OUTCOMES[type];
    }

    /**
     * Parses the chunk's lines, each in one pass: the parser stops at the line's end, so lines are not first split
     * (a line it does not take is then measured for Jackson). Returns the line number after the chunk.
     */
    int parse() {
        ln = firstLine;
        end = len;
        for (int i = 0; i < len; ) i = line(i);
        return ln;
    }

    /** The line number of the line being parsed. */
    private int ln;

    /**
     * Parses the line that starts at {@code i} and returns where the next starts. A method of its own, called per
     * line, so that the JIT compiles it after a few hundred lines (a loop in {@link #parse}, run once per block,
     * would stay interpreted for most of a history's first seconds).
     */
    private int line(int i) {
        if (events == line.length) growEvents();
        int e = events;
        int ops0 = ops, elems0 = elems;
        byte t;
        int to;
        try {
            t = event(e, i);
            to = pos;
        } catch (NotFast x) {
            t = JACKSON;
            to = lineEnd(i);
        }
        if (t == JACKSON) {
            ops = ops0;
            elems = elems0;
            if (refsInLine) dropRefsFrom(elems0);
        }
        refsInLine = false;
        if (t != JACKSON || !blank(i, to)) { // a blank line: Jackson would skip it too
            line[e] = ln;
            from[e] = i;
            this.to[e] = to;
            type[e] = t;
            opEnd[e] = ops;
            events++;
        }
        if (to < len) ln++;
        return to + 1;
    }

    /** Forgets the lists whose elements start at {@code elems0} or later (a line left to Jackson drops them). */
    private void dropRefsFrom(int elems0) {
        for (int i = 0; i < refGen.length; i++) if (refGen[i] == gen && refElem[i] >= elems0) refGen[i] = 0;
    }

    /** Where the line starting at {@code i} ends: its newline, or the chunk's end. */
    private int lineEnd(int i) {
        byte[] b = buf;
        int n = len;
        while (i < n && b[i] != '\n') i++;
        return i;
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

    /** The parse position, and the chunk's end: no token the parser takes spans a newline, so none passes a line. */
    private int pos, end;

    /**
     * Parses the event whose line starts at {@code a}; on return {@code pos} is at the line's end (its newline, or
     * the chunk's end). Blanks are spaces and tabs: a carriage return is taken only just before the newline (Jackson
     * counts any other as a line break, so such a line is left to Jackson).
     */
    private byte event(int e, int a) {
        pos = a;
        skipWs();
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
                case F_F: if (!word(TXN)) throw NOT_FAST; break;
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
        if (pos < end && buf[pos] == '\r') {
            pos++;
            if (pos < end && buf[pos] != '\n') throw NOT_FAST;
        }
        if (pos < end && buf[pos] != '\n' || !value || !processSeen) throw NOT_FAST;
        return t;
    }

    private static final int F_INDEX = 1, F_TYPE = 2, F_PROCESS = 4, F_TIME = 8, F_F = 16, F_NODE = 32,
            F_ISOLATION = 64, F_VALUE = 128, F_OTHER = 256;

    /** The field's bit; fields the Jackson reader gives a meaning to in other events are not accepted here. */
    private int fieldName() {
        if (pos + 1 < end) {
            switch (buf[pos + 1]) { // the names writers put on every line, compared in place
                case 'i': if (quoted(INDEX)) return F_INDEX; break;
                case 't': if (quoted(TYPE)) return F_TYPE; if (quoted(TIME)) return F_TIME; break;
                case 'p': if (quoted(PROCESS)) return F_PROCESS; break;
                case 'f': if (quoted(F_NAME)) return F_F; break;
                case 'v': if (quoted(VALUE)) return F_VALUE; break;
                default: break;
            }
        }
        int s = string();
        switch (pos - 1 - s) { // by length first: one comparison of bytes per field, not one per name
            case 1: if (buf[s] == 'f') return F_F; break;
            case 4:
                if (is(s, TYPE)) return F_TYPE;
                if (is(s, TIME)) return F_TIME;
                if (is(s, NODE)) return F_NODE;
                break;
            case 5:
                if (is(s, INDEX)) return F_INDEX;
                if (is(s, VALUE)) return F_VALUE;
                break;
            case 7:
                if (is(s, PROCESS)) return F_PROCESS;
                if (is(s, INITIAL)) throw NOT_FAST;
                break;
            case 9:
                if (is(s, ISOLATION)) return F_ISOLATION;
                if (is(s, REAL_TIME)) throw NOT_FAST;
                break;
            case 15: if (is(s, INITIAL_DEFAULT)) throw NOT_FAST; break;
            default: break;
        }
        return (seenOther++ == 0) ? F_OTHER : 0; // a second unknown field: Jackson checks duplicates among them
    }

    private int seenOther;

    private static final byte[] TYPE = ascii("type"), TIME = ascii("time"), NODE = ascii("node"),
            INDEX = ascii("index"), VALUE = ascii("value"), PROCESS = ascii("process"), INITIAL = ascii("initial"),
            ISOLATION = ascii("isolation"), REAL_TIME = ascii("real-time"), INITIAL_DEFAULT = ascii("initial-default"),
            INVOKE_ = ascii("invoke"), OK_ = ascii("ok"), FAIL_ = ascii("fail"), INFO_ = ascii("info"),
            APPEND = ascii("append"), CAS_ = ascii("cas"), R = ascii("r"), W = ascii("w"), F_NAME = ascii("f"), TXN = ascii("\"txn\""), NULL = ascii("null"),
            TRUE = ascii("true"), FALSE = ascii("false");

    private static byte[] ascii(String w) {
        return w.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** Whether the bytes at {@code s} are {@code w} (the caller knows the length is {@code w.length}). */
    private boolean is(int s, byte[] w) {
        byte[] b = buf;
        for (int i = 0; i < w.length; i++) if (b[s + i] != w[i]) return false;
        return true;
    }

    private byte typeName() {
        if (quoted(INVOKE_)) return INVOKE;
        if (quoted(OK_)) return OK;
        if (quoted(FAIL_)) return FAIL;
        if (quoted(INFO_)) return INFO;
        throw NOT_FAST;
    }

    /**
     * Takes {@code "w"} (the string {@code w}, quoted) when it is next: a known name checked in place, without
     * first scanning for the closing quote as {@link #string} does.
     */
    private boolean quoted(byte[] w) {
        int n = w.length, p = pos;
        byte[] b = buf;
        if (end - p < n + 2 || b[p] != '"' || b[p + n + 1] != '"' || !is(p + 1, w)) return false;
        pos = p + n + 2;
        return true;
    }

    /** Parses {@code "..."} of plain ASCII (no escapes) and returns where its text starts; pos is past the quote. */
    private int string() {
        expect('"');
        byte[] b = buf;
        int p = pos, n = end, s = p;
        while (p < n) {
            byte c = b[p];
            if (c == '"') {
                pos = p + 1;
                return s;
            }
            if (c < 0x20 || c == '\\') throw NOT_FAST; // control characters, escapes and non-ASCII (negative)
            p++;
        }
        throw NOT_FAST;
    }

    private String optionalString() {
        if (word(NULL)) return null;
        int s = string();
        return new String(buf, s, pos - 1 - s, java.nio.charset.StandardCharsets.US_ASCII);
    }

    private void skipScalar() {
        byte c = peek();
        if (c == '"') string();
        else if (c == '-' || (c >= '0' && c <= '9')) integer();
        else if (!word(NULL) && !word(TRUE) && !word(FALSE)) throw NOT_FAST;
    }

    /** {@code [["r",k,v], ["w",k,v], ["append",k,v], ["r",k,[..]], ["cas",k,[e,n]]]} on integer keys. */
    private void microOps() {
        if (emptyArray()) return;
        while (true) {
            skipWs();
            expect('[');
            skipWs();
            byte f = quoted(R) ? History.READ : quoted(W) ? History.WRITE : quoted(APPEND) ? History.APPEND
                    : quoted(CAS_) ? History.CAS : -1;
            if (f < 0) throw NOT_FAST;
            comma();
            long key = integer();
            comma();
            if (ops == opKind.length) growOps();
            int o = ops;
            opKey[o] = key;
            opNull[o] = false;
            opValue2[o] = 0;
            if (f == History.READ) {
                if (word(NULL)) {
                    opKind[o] = History.READ;
                    opNull[o] = true;
                } else if (peek() == '[') {
                    opKind[o] = History.LIST_READ;
                    list(key);
                } else {
                    opKind[o] = History.READ;
                    opValue[o] = integer();
                }
            } else if (f == History.WRITE || f == History.APPEND) {
                opKind[o] = f;
                opValue[o] = integer();
            } else { // cas
                opKind[o] = History.CAS;
                expect('[');
                skipWs();
                if (word(NULL)) opNull[o] = true; else opValue[o] = integer();
                comma();
                opValue2[o] = integer();
                skipWs();
                expect(']');
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

    /**
     * A list read of {@code key}, its elements appended to {@link #elem}. When its text starts with the text of the
     * key's last list read in this chunk up to that list's last digit (compared as bytes, vectorised), and then the
     * number ends there, those elements are copied, not parsed again: a read mostly repeats the key's previous one
     * plus a few appends (the parsing of numbers was most of the reading of a list-append history). Any other
     * read (a first, stale, diverging or shrunk one) is parsed in full, so the elements are the same either way.
     */
    private void list(long key) {
        int open = pos, first = elems;
        int slot = (int) (key ^ (key >>> 32)) * 0x9E3779B9 >>> (32 - REF_BITS);
        boolean known = refGen[slot] == gen && refKey[slot] == key;
        if (known && extendsRef(slot, open)) {
            elements(true);
        } else {
            pos = open;
            elems = first;
            if (emptyArray()) return;
            elements(false);
        }
        int count = elems - first;
        if (!known || count >= refCount[slot]) { // a longer read replaces the last: a stale one does not
            refGen[slot] = gen;
            refKey[slot] = key;
            refFrom[slot] = open;
            refLen[slot] = lastDigitEnd - open;
            refElem[slot] = first;
            refCount[slot] = count;
            refsInLine = true;
        }
    }

    /**
     * Whether the list at {@code open} starts with the text of {@code slot}'s list up to its last digit, and its number
     * ends there; if so, copies that list's elements and leaves {@code pos} after the digit.
     */
    private boolean extendsRef(int slot, int open) {
        int n = refLen[slot], s = refFrom[slot], p = open + n;
        if (p >= end || Arrays.mismatch(buf, s, s + n, buf, open, p) >= 0) return false;
        byte c = buf[p];
        if (c >= '0' && c <= '9') return false; // the last number goes on: "[1,2" is not a prefix of "[1,23"
        int count = refCount[slot];
        if (elems + count > elem.length) elem = Arrays.copyOf(elem, Math.max(elem.length * 2, elems + count));
        System.arraycopy(elem, refElem[slot], elem, elems, count);
        elems += count;
        lastDigitEnd = p;
        pos = p;
        return true;
    }

    /**
     * Parses a non-empty list's elements up to its closing bracket, from {@code pos} just after its opening bracket
     * or, when {@code afterNumber}, just after an element.
     */
    private void elements(boolean afterNumber) {
        byte[] b = buf;
        int n = end;
        while (true) {
            if (!afterNumber) {
                skipWs();
                long v = integer();
                lastDigitEnd = pos;
                if (elems == elem.length) elem = Arrays.copyOf(elem, elems * 2);
                elem[elems++] = v;
            }
            afterNumber = false;
            int p = pos;
            while (p < n && (b[p] == ' ' || b[p] == '\t')) p++;
            if (p >= n) throw NOT_FAST;
            byte c = b[p];
            pos = p + 1;
            if (c == ']') return;
            if (c != ',') throw NOT_FAST;
        }
    }

    /** Where the last number parsed in a list ends. */
    private int lastDigitEnd;

    // Per chunk, the last list read of a key (by a hash of the key, one key per slot): where its text starts in buf,
    // how long it is up to its last digit, where its elements are in elem and how many. A slot is valid in the
    // generation (chunk) that set it; another key of the same hash just takes the slot.
    private static final int REF_BITS = 8;
    private final int[] refGen = new int[1 << REF_BITS], refFrom = new int[1 << REF_BITS],
            refLen = new int[1 << REF_BITS], refElem = new int[1 << REF_BITS], refCount = new int[1 << REF_BITS];
    private final long[] refKey = new long[1 << REF_BITS];
    private int gen;
    /** Set when the line being parsed set a slot: if the line goes to Jackson, its elements are dropped. */
    private boolean refsInLine;

    /** A JSON integer of at most 18 digits (longer ones, fractions and exponents are Jackson's to judge). */
    private long integer() {
        byte[] b = buf;
        int p = pos, n = end;
        boolean neg = false;
        if (p < n && b[p] == '-') {
            neg = true;
            p++;
        }
        if (p + 8 <= n) { // the common case: fewer than 8 digits, converted without a branch per digit
            long w = AsciiDigits.eightBytes(b, p);
            int digits = AsciiDigits.leadingDigits(w);
            if (digits < 8) {
                if (digits == 0 || (digits > 1 && b[p] == '0')) throw NOT_FAST;
                byte c = b[p + digits];
                if (c == '.' || c == 'e' || c == 'E') throw NOT_FAST;
                pos = p + digits;
                long v = AsciiDigits.value(w, digits);
                return neg ? -v : v;
            }
        }
        int s = p;
        long v = 0;
        while (p < n) {
            int d = b[p] - '0';
            if (d < 0 || d > 9) break;
            v = v * 10 + d;
            p++;
        }
        int digits = p - s;
        if (digits == 0 || digits > 18 || (digits > 1 && b[s] == '0')) throw NOT_FAST;
        if (p < n) {
            byte c = b[p];
            if (c == '.' || c == 'e' || c == 'E') throw NOT_FAST;
        }
        pos = p;
        return neg ? -v : v;
    }

    private boolean word(byte[] w) {
        int n = w.length;
        if (end - pos < n || !is(pos, w)) return false;
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

    /** Skips spaces and tabs (not carriage returns: see {@link #event}). */
    private void skipWs() {
        byte[] b = buf;
        int p = pos, n = end;
        while (p < n) {
            byte c = b[p];
            if (c != ' ' && c != '\t') break;
            p++;
        }
        pos = p;
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
