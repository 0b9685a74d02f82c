package isostress.checker.history;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A history's format as told by its first bytes (or its name), with what was seen: the reader's error on a file
 * taken for the wrong format then says why it was read so ("taken for EDN, since it starts with {:"), rather than
 * leaving a JSON user with "malformed EDN: empty keyword".
 *
 * @param format the format the file is read as
 * @param saw    what the first bytes (or the name) looked like, as a phrase: "a JSON array of ops", "JSON lines"...
 */
public record FormatDetection(HistoryFormat format, String saw) {
    /** The formats --format takes, for sentences. */
    static final String ACCEPTED = "a JSON array of ops or JSON lines (--format jsonl), Jepsen EDN (edn), "
            + "r(key,value,session,txn) text (text), a dbcop history (dbcop), Cobra logs (cobra) or a Chronos/TimeKiller "
            + "history (chronos)";

    /**
     * Detects a history's format. A directory holding {@code *.log} files is Cobra. Otherwise the first bytes tell:
     * a Cobra log record sequence ({@code S} + transaction id ...) is Cobra; a NUL byte among the first eight (a
     * little-endian u64, which no text holds) is dbcop bincode; {@code {"} whose first key is one of dbcop's
     * {@code params}, {@code info}, {@code start}, {@code end}, {@code data}, or {@code [} then {@code [} then
     * {@code {"} or {@code ]}, is dbcop JSON; {@code [} then {@code {"} is a Chronos history when that first key is
     * one of its transaction's ({@code sid}, {@code tid}, {@code sts}, {@code cts}, {@code ops}: no Jepsen op has
     * them), else a JSON array of ops; any other {@code {"}
     * is JSON lines; {@code {:}, {@code [}, {@code (}, {@code ;} or {@code #} is EDN; {@code r(} or {@code w(} is
     * text. Falls back on the file extension.
     *
     * @throws InputException when neither tells, naming what the first bytes looked like and the formats accepted
     */
    public static FormatDetection of(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            if (CobraReader.hasLogs(file)) return new FormatDetection(HistoryFormat.COBRA, "a directory of Cobra logs");
            throw new InputException(file.toString(), 0, "a directory without *.log files; the only history that is "
                    + "a directory is Cobra's (client logs T<n>.log)");
        }
        byte[] head = new byte[4096];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        }
        FormatDetection d = byContent(head, n);
        if (d != null) return d;
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        String ext = name.contains(".") ? name.substring(name.lastIndexOf('.')) : "";
        HistoryFormat byName = switch (ext) {
            case ".jsonl", ".json" -> HistoryFormat.JSONL;
            case ".edn" -> HistoryFormat.EDN;
            case ".txt" -> HistoryFormat.TEXT;
            case ".bincode" -> HistoryFormat.DBCOP;
            default -> null;
        };
        String start = n == 0 ? "the file is empty" : "the file starts with " + quote(head, n);
        if (byName != null) {
            return new FormatDetection(byName, "the name's " + ext + " (" + start + ", which tells no format)");
        }
        throw new InputException(file.toString(), 1, "cannot tell the history format: " + start + ", which is "
                + "none of " + ACCEPTED + "; give --format jsonl|edn|text|dbcop|cobra|chronos");
    }

    private static FormatDetection byContent(byte[] head, int n) {
        if (CobraReader.looksLikeLog(head, n)) return new FormatDetection(HistoryFormat.COBRA, "a Cobra client log");
        for (int i = 0; i < Math.min(n, 8); i++) {
            if (head[i] == 0) return new FormatDetection(HistoryFormat.DBCOP, "binary data (dbcop bincode)");
        }
        int i = skipSpace(head, 0, n);
        if (i >= n) return null;
        char c = (char) head[i];
        String start = "it starts with " + quote(head, n);
        if (c == '[') {
            int j = skipSpace(head, i + 1, n);
            if (j < n && head[j] == '[') {
                int k = skipSpace(head, j + 1, n);
                if (k < n && (head[k] == ']' || (head[k] == '{' && nextIs(head, k + 1, n, '"')))) {
                    return new FormatDetection(HistoryFormat.DBCOP, "dbcop JSON (a list of sessions; " + start + ")");
                }
            }
            if (j < n && head[j] == '{' && nextIs(head, j + 1, n, '"')) {
                if (isChronosKey(head, skipSpace(head, j + 1, n), n)) {
                    return new FormatDetection(HistoryFormat.CHRONOS, "a Chronos/TimeKiller history (a JSON array "
                            + "of transactions with sts, cts and ops; " + start + ")");
                }
                return new FormatDetection(HistoryFormat.JSONL, "a JSON array of ops (" + start + ")");
            }
        }
        if (c == ';' || c == '#' || c == '[' || c == '(') {
            return new FormatDetection(HistoryFormat.EDN, "EDN (" + start + ")");
        }
        if ((c == 'r' || c == 'w') && i + 1 < n && head[i + 1] == '(') {
            return new FormatDetection(HistoryFormat.TEXT, "r(key,value,session,txn) text (" + start + ")");
        }
        if (c == '{') {
            int j = skipSpace(head, i + 1, n);
            if (j < n && head[j] == '"') {
                return isDbcopKey(head, j, n)
                        ? new FormatDetection(HistoryFormat.DBCOP, "dbcop JSON (" + start + ")")
                        : new FormatDetection(HistoryFormat.JSONL, "JSON lines (" + start + ")");
            }
            if (j < n && head[j] == ':') return new FormatDetection(HistoryFormat.EDN, "EDN (" + start + ")");
        }
        return null;
    }

    /**
     * The reader's error {@code e} with what detection saw added, so that a file taken for the wrong format says why
     * it was read so and how to choose another.
     */
    public InputException explain(InputException e) {
        return new InputException(e.source(), e.line(), e.detail() + " (read as " + format.cliName() + ": detected "
                + saw + "; --format jsonl|edn|text|dbcop|cobra|chronos chooses another)", e);
    }

    /** The first line of {@code head} (at most 40 characters) as a quoted, printable string. */
    static String quote(byte[] head, int n) {
        StringBuilder sb = new StringBuilder("'");
        int i = skipSpace(head, 0, n);
        for (int chars = 0; i < n && chars < 40 && head[i] != '\n' && head[i] != '\r'; chars++) {
            int b = head[i] & 0xff, len = utf8Length(head, i, n);
            if (b >= 32 && b < 127) sb.append((char) b);
            else if (len > 1) sb.append(new String(head, i, len, StandardCharsets.UTF_8));
            else sb.append(String.format("\\x%02x", b));
            i += Math.max(1, len);
        }
        sb.append('\'');
        if (i < n && head[i] != '\n' && head[i] != '\r') sb.append("...");
        return sb.toString();
    }

    /** The length of the well-formed multi-byte UTF-8 sequence at {@code b[i]}, or 0 when there is none. */
    private static int utf8Length(byte[] b, int i, int n) {
        int lead = b[i] & 0xff;
        int len = lead >= 0xF5 ? 0 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
        if (len == 0 || i + len > n) return 0;
        String s = new String(b, i, len, StandardCharsets.UTF_8);
        return s.codePointCount(0, s.length()) == 1 && s.codePointAt(0) != 0xFFFD ? len : 0;
    }

    private static int skipSpace(byte[] b, int i, int n) {
        while (i < n && Character.isWhitespace(b[i])) i++;
        return i;
    }

    private static boolean nextIs(byte[] b, int i, int n, char c) {
        i = skipSpace(b, i, n);
        return i < n && b[i] == c;
    }

    /** True when the JSON string at {@code b[q]} (its opening quote) is a key of a Chronos transaction. */
    private static boolean isChronosKey(byte[] b, int q, int n) {
        return startsWithAny(b, q, n, "\"sid\"", "\"tid\"", "\"sts\"", "\"cts\"", "\"ops\"");
    }

    private static boolean startsWithAny(byte[] b, int q, int n, String... keys) {
        for (String k : keys) {
            if (q + k.length() <= n && new String(b, q, k.length(), StandardCharsets.US_ASCII).equals(k)) return true;
        }
        return false;
    }

    /** True when the JSON string at {@code b[q]} (its opening quote) is a top-level key of a dbcop history. */
    private static boolean isDbcopKey(byte[] b, int q, int n) {
        for (String k : new String[] {"\"params\"", "\"info\"", "\"start\"", "\"end\"", "\"data\""}) {
            if (q + k.length() <= n && new String(b, q, k.length(), StandardCharsets.US_ASCII).equals(k)) {
                return true;
            }
        }
        return false;
    }
}
