package isostress.checker.witness;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import isostress.checker.history.InputException;
import isostress.checker.history.StrictUtf8Stream;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a witness file (docs/witness.md): one JSON object per line,
 * {@code {"pos":17,"node":"n1","txid":"731","writes":[["w",3,17],["append",4,9],["delete",5]]}}, optionally with
 * the PostgreSQL {@code "timeline"} it was committed on; and, from a capture that follows a moving primary,
 * {@code {"log": {...}}} lines saying when each member's log was read ({@link CaptureLogLine}).
 *
 * <p>Streams: each line is parsed on its own by Jackson's token parser (one parser a line, so an error is always the
 * line's own) into the {@link Witness} columns. Every field is type-checked and every bad line is an {@link InputException}
 * naming the file, the line and what was expected; unknown fields are skipped (a capture may add its own, e.g. a
 * commit time). Blank lines are skipped; an empty file is a log without commits. Bytes that are not UTF-8 are refused
 * at their line ({@link StrictUtf8Stream}).
 */
public final class WitnessReader {
    /** A repeated field is an error, not a silent overwrite. */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private WitnessReader() {
    }

    /** Reads {@code file}; its name is used in messages. */
    public static Witness read(Path file) throws IOException {
        if (Files.isDirectory(file)) throw new InputException(file.toString(), 0, "is a directory, not a witness file");
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString());
        }
    }

    /** Reads a witness from {@code in}; {@code source} names it in messages. */
    public static Witness read(InputStream in, String source) throws IOException {
        return read(in, source, true);
    }

    /** As {@link #read(InputStream, String)}; {@code canonical} false reads every line with Jackson (for tests). */
    static Witness read(InputStream in, String source, boolean canonical) throws IOException {
        Witness.Builder b = Witness.builder(source);
        LineState state = new LineState(canonical);
        InputStream s = new StrictUtf8Stream(in, source);
        byte[] block = new byte[1 << 16];
        byte[] buf = new byte[1 << 12]; // the line being gathered
        int len = 0, lineNo = 0, n;
        while ((n = s.read(block, 0, block.length)) >= 0) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (block[i] != '\n') continue;
                if (len + i - start > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + i - start));
                System.arraycopy(block, start, buf, len, i - start);
                len += i - start;
                line(buf, len, ++lineNo, source, b, state);
                len = 0;
                start = i + 1;
            }
            if (len + n - start > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n - start));
            System.arraycopy(block, start, buf, len, n - start);
            len += n - start;
        }
        if (len > 0) line(buf, len, ++lineNo, source, b, state);
        return b.build();
    }

    /**
     * A witness read a line at a time as its writer hands the lines over, for a run that captures the log and
     * checks at its end: the lines are read while the run goes, and the end-of-run check joins at once instead of
     * first reading back the file it wrote. Lines are read exactly as {@link #read(Path)} reads the file they are
     * written to (the same parser, the same line numbers for messages), so {@link #finish()} is the witness that
     * reading the file would give. Not thread-safe: the writer serialises the lines.
     */
    public static final class Lines {
        private final String source;
        private final Witness.Builder builder;
        private final LineState state = new LineState(true);
        private int lineNo;

        /** {@code source} names the file the lines go to, in messages. */
        public Lines(String source) {
            this.source = source;
            this.builder = Witness.builder(source);
        }

        /**
         * Reads the next line, without its line end (a String's UTF-8 is always well formed, so the file's check
         * of the bytes has nothing to find here).
         *
         * @throws InputException the line is not a witness line; no later line may be given
         */
        public void line(String text) throws IOException {
            if (text.indexOf('\n') >= 0) throw new IllegalArgumentException("a line holds no line end: " + text);
            lineNo++;
            byte[] utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            WitnessReader.line(utf8, utf8.length, lineNo, source, builder, state);
        }

        /** The witness of every line given. */
        public Witness finish() {
            return builder.build();
        }
    }

    /**
     * What the reader keeps across lines: the lowest integer key, which string-key ids must stay below, and the
     * buffer a line's writes are parsed into.
     */
    private static final class LineState {
        long lowestInteger = Long.MAX_VALUE;
        final WriteBuffer writes = new WriteBuffer();
        /** Null when every line goes to Jackson. */
        final CanonicalWitnessLine canonical;

        LineState(boolean canonical) {
            this.canonical = canonical ? new CanonicalWitnessLine() : null;
        }
    }

    private static void line(byte[] buf, int len, int line, String source, Witness.Builder b, LineState state)
            throws IOException {
        int from = 0, to = len;
        while (from < to && isSpace(buf[from])) from++;
        while (to > from && isSpace(buf[to - 1])) to--;
        if (from == to) return;
        // The captures' own form, read by hand; any other goes to Jackson, which also words every error.
        CanonicalWitnessLine fast = state.canonical;
        if (fast != null && !b.hasStringKeys() && fast.read(buf, from, to, state.writes)) {
            String why = fast.txidIsNumber ? b.begin(fast.node, fast.pos, fast.txidNumber, line)
                    : b.begin(fast.node, fast.pos, fast.txidText, line);
            if (why != null) throw new InputException(source, line, why + ": a node's log is in commit order");
            WriteBuffer w = state.writes;
            for (int i = 0; i < w.n; i++) {
                if (w.key[i] < state.lowestInteger) state.lowestInteger = w.key[i];
                b.add(w.kind[i], w.key[i], w.value[i]);
            }
            return;
        }
        try (JsonParser p = FACTORY.createParser(buf, from, to - from)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new InputException(source, line, "expected a JSON object {\"pos\", \"node\", \"txid\", "
                        + "\"writes\"} per line, got " + describe(p));
            }
            entry(p, line, source, b, state);
            if (p.nextToken() != null) {
                throw new InputException(source, line, "more than one JSON value on the line (a witness has one "
                        + "object per line)");
            }
        } catch (JsonProcessingException e) {
            // Syntax errors, and limits of Jackson's StreamReadConstraints (nesting depth, number length).
            throw new InputException(source, line, "malformed JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\r';
    }

    private static void entry(JsonParser p, int line, String source, Witness.Builder b, LineState state)
            throws IOException {
        Long pos = null, timeline = null;
        String node = null, txid = null;
        boolean writesSeen = false;
        CaptureLog log = null;
        // The writes may come before the header fields: they are kept until the whole line is known to be valid.
        WriteBuffer writes = state.writes;
        writes.n = 0;
        JsonToken tok;
        while ((tok = p.nextToken()) != JsonToken.END_OBJECT) {
            if (tok == null) throw new InputException(source, line, "truncated JSON object");
            String field = p.currentName();
            JsonToken v = p.nextToken();
            if (v == null) throw new InputException(source, line, "truncated JSON object");
            switch (field) {
                case "pos":
                    if (v != JsonToken.VALUE_NUMBER_INT) {
                        throw new InputException(source, line, "\"pos\" must be an integer, got " + describe(p));
                    }
                    pos = int64(p, "pos", line, source);
                    break;
                case "node":
                    if (v != JsonToken.VALUE_STRING) {
                        throw new InputException(source, line, "\"node\" must be a string, got " + describe(p));
                    }
                    node = p.getText();
                    break;
                case "txid":
                    if (v == JsonToken.VALUE_STRING) txid = p.getText();
                    else if (v == JsonToken.VALUE_NUMBER_INT) txid = p.getText();
                    else throw new InputException(source, line, "\"txid\" must be a string or an integer, got "
                            + describe(p));
                    break;
                case "writes":
                    writesSeen = true;
                    writes(p, v, line, source, b, writes, state);
                    break;
                case "timeline":
                    if (v != JsonToken.VALUE_NUMBER_INT) {
                        throw new InputException(source, line, "\"timeline\" must be an integer, got " + describe(p));
                    }
                    timeline = int64(p, "timeline", line, source);
                    break;
                case "log":
                    log = CaptureLogLine.read(p, v, line, source);
                    break;
                default:
                    p.skipChildren();
            }
        }
        if (log != null) {
            if (pos != null || node != null || txid != null || writesSeen || timeline != null) {
                throw new InputException(source, line, "a \"log\" line (a capture's account of a member's log) "
                        + "has no other field; a log transaction has no \"log\"");
            }
            b.log(log);
            return;
        }
        if (pos == null) throw new InputException(source, line, "missing \"pos\" (the position in the node's log)");
        if (node == null) throw new InputException(source, line, "missing \"node\" (the node whose log this is)");
        if (txid == null) throw new InputException(source, line, "missing \"txid\" (the database's transaction id)");
        if (!writesSeen) {
            throw new InputException(source, line, "missing \"writes\" (the transaction's writes, [] when none)");
        }
        if (timeline != null && timeline < 0) {
            throw new InputException(source, line, "\"timeline\" " + timeline + " is negative");
        }
        String why = b.begin(node, timeline == null ? -1 : timeline, pos, txid, line);
        if (why != null) throw new InputException(source, line, why + ": a node's log is in commit order");
        for (int i = 0; i < writes.n; i++) b.add(writes.kind[i], writes.key[i], writes.value[i]);
    }

    /** {@code [["w", key, value], ["append", key, element], ["delete", key], ...]}. */
    private static void writes(JsonParser p, JsonToken start, int line, String source, Witness.Builder b,
                               WriteBuffer out, LineState state) throws IOException {
        if (start != JsonToken.START_ARRAY) {
            throw new InputException(source, line, "\"writes\" must be a list of [\"w\", key, value], "
                    + "[\"append\", key, element] or [\"delete\", key], got " + describe(p));
        }
        JsonToken tok;
        while ((tok = p.nextToken()) != JsonToken.END_ARRAY) {
            if (tok != JsonToken.START_ARRAY) {
                throw new InputException(source, line, "expected a write like [\"w\", key, value], got " + describe(p));
            }
            if (p.nextToken() != JsonToken.VALUE_STRING) {
                throw new InputException(source, line, "a write starts with \"w\", \"append\" or \"delete\", got "
                        + describe(p));
            }
            String fn = p.getText();
            byte kind;
            if (fn.equals("w")) kind = Witness.WRITE;
            else if (fn.equals("append")) kind = Witness.APPEND;
            else if (fn.equals("delete")) kind = Witness.DELETE;
            else throw new InputException(source, line, "unknown write \"" + abbreviate(fn) + "\": expected \"w\", "
                    + "\"append\" or \"delete\" (a log holds writes only)");
            boolean append = kind == Witness.APPEND;
            JsonToken k = p.nextToken();
            long key;
            if (k == JsonToken.VALUE_NUMBER_INT) {
                key = int64(p, "key", line, source);
                if (key < state.lowestInteger) state.lowestInteger = key;
            } else if (k == JsonToken.VALUE_STRING) {
                key = b.stringKey(p.getText());
            } else {
                throw new InputException(source, line, "\"" + fn + "\": the key must be an integer or a string, got "
                        + describe(p));
            }
            if (b.hasStringKeys() && state.lowestInteger <= b.lastStringKey()) {
                throw new InputException(source, line, "integer key " + state.lowestInteger + " and string keys in "
                        + "one witness are not supported (their ids would collide)");
            }
            if (kind == Witness.DELETE) {
                if (p.nextToken() != JsonToken.END_ARRAY) {
                    throw new InputException(source, line, "\"delete\" of key " + b.keyName(key) + " has more than "
                            + "[\"delete\", key] (a deleted row has no value), got " + describe(p));
                }
                out.add(kind, key, 0);
                continue;
            }
            if (p.nextToken() != JsonToken.VALUE_NUMBER_INT) {
                throw new InputException(source, line, "\"" + fn + "\" of key " + b.keyName(key) + ": the "
                        + (append ? "element" : "value") + " must be an integer, got " + describe(p));
            }
            long value = int64(p, append ? "element" : "value", line, source);
            if (p.nextToken() != JsonToken.END_ARRAY) {
                throw new InputException(source, line, "write \"" + fn + "\" has more than [f, key, value] (a list "
                        + "append gives the element appended, not the whole list)");
            }
            out.add(kind, key, value);
        }
    }

    /** The current integer token as a long; one beyond 64 bits is an error, not a Jackson exception. */
    private static long int64(JsonParser p, String name, int line, String source) throws IOException {
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw new InputException(source, line, "\"" + name + "\" " + abbreviate(p.getText())
                    + " does not fit in 64 bits");
        }
        return p.getLongValue();
    }

    private static String describe(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == null) return "end of line";
        switch (t) {
            case START_ARRAY: return "a list";
            case START_OBJECT: return "an object";
            case END_ARRAY: return "the end of the list";
            case END_OBJECT: return "the end of the object";
            case VALUE_STRING: return "\"" + abbreviate(p.getText()) + "\"";
            case VALUE_NULL: return "null";
            default: return abbreviate(p.getText());
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 40) + "...(" + s.length() + " characters)";
    }

    /** One line's writes, kept until the line is known to be whole. */
    static final class WriteBuffer {
        int n;

        void clear() {
            n = 0;
        }

        /** {@link Witness#WRITE}, {@link Witness#APPEND} or {@link Witness#DELETE} (value 0). */
        byte[] kind = new byte[8];
        long[] key = new long[8], value = new long[8];

        void add(byte a, long k, long v) {
            if (n == key.length) {
                kind = Arrays.copyOf(kind, n * 2);
                key = Arrays.copyOf(key, n * 2);
                value = Arrays.copyOf(value, n * 2);
            }
            kind[n] = a;
            key[n] = k;
            value[n] = v;
            n++;
        }
    }
}
