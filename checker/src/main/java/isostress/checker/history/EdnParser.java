package isostress.checker.history;

import java.io.IOException;
import java.io.Reader;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A streaming reader of EDN forms with line numbers, for Jepsen histories ({@code history.edn}).
 *
 * <p>Written here rather than taken from a library because the checker keeps its dependencies to Jackson and
 * because every error must name its line; the EDN libraries on Maven Central report neither lines nor columns.
 * Supports what Jepsen writes: maps, vectors, lists, sets, keywords, symbols, integers, floats, strings, characters,
 * {@code nil}/{@code true}/{@code false}, comments ({@code ;}), discard ({@code #_}) and tagged literals, which are
 * read as their value ({@code #jepsen.history.Op{...}} is a map). A top-level vector or list of ops is read one
 * element at a time, so a whole-file vector does not have to fit in memory as objects.
 */
final class EdnParser {
    /** An EDN keyword, without its colon. */
    record Keyword(String name) {
        @Override public String toString() { return ":" + name; }
    }

    /** An EDN symbol. */
    record Symbol(String name) {
        @Override public String toString() { return name; }
    }

    private static final Object END = new Object();

    /**
     * How deeply forms may nest. Jepsen ops nest about four deep ({@code {:value [[:r 1 [2 3]]]}}); the bound keeps a
     * hostile {@code [[[[...} from overflowing the stack of this recursive-descent parser, and keeps the recursive
     * consumers of a form (equality, hashing, {@link EdnWriter#toJson}) shallow too.
     */
    static final int MAX_DEPTH = 100;

    /** Digits beyond which an integer cannot fit in 64 bits; checked before parsing, which is quadratic. */
    private static final int MAX_INT_DIGITS = 19;

    private final Reader in;
    private final String source;
    private int line = 1;
    private int peeked = -2;
    private int topLevelCloser = -1; // ']' or ')' when inside a top-level vector or list
    private int formLine;
    private int depth;

    EdnParser(Reader in, String source) {
        this.in = in;
        this.source = source;
    }

    /** The current line: at the end of the input, the last line. */
    int line() {
        return line;
    }

    /** The line on which the last returned form started. */
    int formLine() {
        return formLine;
    }

    /**
     * The next event form: a top-level form, or the next element of a top-level vector/list. Null at the end.
     */
    Object nextEvent() throws IOException {
        while (true) {
            skipSpace();
            int c = peek();
            if (topLevelCloser >= 0) {
                if (c == -1) throw error("the top-level " + (topLevelCloser == ']' ? "vector" : "list")
                        + " is not closed");
                if (c == topLevelCloser) {
                    read();
                    topLevelCloser = -1;
                    continue;
                }
            } else if (c == -1) {
                return null;
            } else if (c == '[' || c == '(') {
                read();
                topLevelCloser = c == '[' ? ']' : ')';
                continue;
            }
            formLine = line;
            Object o = readForm();
            if (o == END) throw error("unexpected '" + (char) lastCloser + "'");
            return o;
        }
    }

    private int lastCloser;

    private Object readForm() throws IOException {
        if (++depth > MAX_DEPTH) {
            throw error("forms nest more than " + MAX_DEPTH + " deep; a Jepsen op nests about four deep");
        }
        try {
            return readFormAt();
        } finally {
            depth--;
        }
    }

    private Object readFormAt() throws IOException {
        skipSpace();
        int c = read();
        switch (c) {
            case -1: throw error("unexpected end of input");
            case '{': return readMap();
            case '[': return readSeq(']');
            case '(': return readSeq(')');
            case ']': case ')': case '}':
                lastCloser = c;
                return END;
            case '"': return readString();
            case '\\': return readChar();
            case '#': return readDispatch();
            default: return readAtom(c);
        }
    }

    private Map<Object, Object> readMap() throws IOException {
        Map<Object, Object> m = new LinkedHashMap<>();
        while (true) {
            Object k = readForm();
            if (k == END) {
                if (lastCloser != '}') throw error("expected '}' to close the map, got '" + (char) lastCloser + "'");
                return m;
            }
            Object v = readForm();
            if (v == END) throw error("map key " + abbreviate(String.valueOf(k)) + " has no value");
            m.put(k, v);
        }
    }

    private List<Object> readSeq(char closer) throws IOException {
        List<Object> l = new ArrayList<>();
        while (true) {
            Object o = readForm();
            if (o == END) {
                if (lastCloser != closer) {
                    throw error("expected '" + closer + "', got '" + (char) lastCloser + "'");
                }
                return l;
            }
            l.add(o);
        }
    }

    private Object readDispatch() throws IOException {
        int c = peek();
        if (c == '{') {
            read();
            Set<Object> s = new HashSet<>();
            while (true) {
                Object o = readForm();
                if (o == END) {
                    if (lastCloser != '}') throw error("expected '}' to close the set");
                    return s;
                }
                s.add(o);
            }
        }
        if (c == '_') {
            read();
            if (readForm() == END) throw error("#_ discards nothing: '" + (char) lastCloser + "' follows it");
            return readForm();
        }
        // Tagged literal: #tag value, the tag a symbol (EDN spec: "# followed immediately by a symbol starting with
        // an alphabetic character"). The value is what we keep.
        if (c < 0 || !Character.isLetter(c)) {
            throw error(c < 0 ? "the input ends after '#'" : "'#" + (char) c + "' is not EDN (expected #{, #_ or "
                    + "a tag like #jepsen.history.Op)");
        }
        Object tag = readAtom(read());
        if (!(tag instanceof Symbol)) throw error("bad tag #" + abbreviate(String.valueOf(tag)));
        Object v = readForm();
        if (v == END) throw error("tag #" + abbreviate(String.valueOf(tag)) + " has no value");
        return v;
    }

    private String readString() throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            int c = read();
            if (c == -1) throw error("unterminated string");
            if (c == '"') return sb.toString();
            if (c == '\\') {
                int e = read();
                switch (e) {
                    case 'n': sb.append('\n'); break;
                    case 't': sb.append('\t'); break;
                    case 'r': sb.append('\r'); break;
                    case '"': sb.append('"'); break;
                    case '\\': sb.append('\\'); break;
                    case 'u': {
                        int u = 0;
                        for (int i = 0; i < 4; i++) {
                            int d = Character.digit(read(), 16);
                            if (d < 0) throw error("\\u in a string needs four hex digits");
                            u = u * 16 + d;
                        }
                        sb.append((char) u);
                        break;
                    }
                    case -1: throw error("unterminated string");
                    default: throw error("bad escape \\" + (char) e + " in string");
                }
            } else {
                sb.append((char) c);
            }
        }
    }

    private Object readChar() throws IOException {
        StringBuilder sb = new StringBuilder();
        int c = read();
        if (c < 0) throw error("the input ends after '\\'");
        sb.append((char) c);
        while (isTokenChar(peek())) sb.append((char) read());
        return sb.toString();
    }

    private Object readAtom(int first) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append((char) first);
        while (isTokenChar(peek())) sb.append((char) read());
        String t = sb.toString();
        if (first == ':') {
            if (t.length() == 1) throw error("empty keyword");
            return new Keyword(t.substring(1));
        }
        switch (t) {
            case "nil": return null;
            case "true": return Boolean.TRUE;
            case "false": return Boolean.FALSE;
            default: break;
        }
        char c0 = t.charAt(0);
        if (isDigit(c0) || ((c0 == '-' || c0 == '+') && t.length() > 1 && isDigit(t.charAt(1)))) {
            return parseNumber(t);
        }
        return new Symbol(t);
    }

    private Object parseNumber(String t) {
        String s = t;
        if (s.endsWith("N") || s.endsWith("M")) s = s.substring(0, s.length() - 1);
        try {
            if (s.indexOf('.') >= 0 || s.indexOf('e') >= 0 || s.indexOf('E') >= 0 || s.indexOf('/') >= 0) {
                return Double.parseDouble(s);
            }
            int digits = s.length() - (s.startsWith("-") || s.startsWith("+") ? 1 : 0);
            if (digits > MAX_INT_DIGITS + 1) throw error("integer " + abbreviate(t) + " does not fit in 64 bits");
            BigInteger b = new BigInteger(s);
            if (b.bitLength() > 63) throw error("integer " + t + " does not fit in 64 bits");
            return b.longValue();
        } catch (NumberFormatException e) {
            throw error("bad number " + abbreviate(t));
        }
    }

    /** A token short enough for a message. */
    static String abbreviate(String t) {
        return t.length() <= 40 ? t : t.substring(0, 30) + "... (" + t.length() + " characters)";
    }

    /** ASCII digits only: {@link Character#isDigit} also takes other scripts' digits, which EDN does not. */
    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isTokenChar(int c) {
        if (c < 0) return false;
        if (Character.isWhitespace(c)) return false;
        switch (c) {
            case ',': case '{': case '}': case '[': case ']': case '(': case ')': case '"': case ';':
                return false;
            default:
                return true;
        }
    }

    private void skipSpace() throws IOException {
        while (true) {
            int c = peek();
            if (c == ';') {
                while (c != '\n' && c != -1) {
                    read();
                    c = peek();
                }
            } else if (c == ',' || (c >= 0 && Character.isWhitespace(c))) {
                read();
            } else {
                return;
            }
        }
    }

    private int peek() throws IOException {
        if (peeked == -2) peeked = in.read();
        return peeked;
    }

    private int read() throws IOException {
        int c = peek();
        peeked = -2;
        if (c == '\n') line++;
        return c;
    }

    private InputException error(String message) {
        return new InputException(source, line, "malformed EDN: " + message);
    }
}
