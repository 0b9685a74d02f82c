package isostress.checker.history;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The history formats, each a reader and (for isostress's own and the formats other checkers take as input) a writer
 * around the same {@link History} model. dbcop and Cobra histories are read only: they come from those tools' runs.
 */
public enum HistoryFormat {
    /** JSON lines in the Jepsen op schema: isostress's own format (DESIGN.md). */
    JSONL("jsonl", JsonlReader::new, JsonlWriter::new),
    /** Jepsen EDN, as written by Jepsen and read by Elle. */
    EDN("edn", EdnReader::new, EdnWriter::new),
    /** {@code r(key,value,session,txn)} lines, as used by MTC, PolySI and IsoVista. */
    TEXT("text", TextReader::new, TextWriter::new),
    /** dbcop's histories (Biswas &amp; Enea): legacy or current JSON, or bincode; read only. */
    DBCOP("dbcop", DbcopReader::new, null),
    /** Cobra's binary client logs (Tan et al.): a directory of {@code T<n>.log} files; read only. */
    COBRA("cobra", CobraReader::new, null);

    private final String cliName;
    private final Supplier<HistoryReader> reader;
    private final Supplier<HistoryWriter> writer;

    /** @param writer null for a format that is read but never written */
    HistoryFormat(String cliName, Supplier<HistoryReader> reader, Supplier<HistoryWriter> writer) {
        this.cliName = cliName;
        this.reader = reader;
        this.writer = writer;
    }

    /** The name used on the command line ({@code --format jsonl|edn|text|dbcop|cobra}). */
    public String cliName() {
        return cliName;
    }

    public HistoryReader reader() {
        return reader.get();
    }

    /** True when histories can be written in this format (not so for dbcop and Cobra). */
    public boolean canWrite() {
        return writer != null;
    }

    /** @throws UnsupportedOperationException for a read-only format ({@link #canWrite()} false) */
    HistoryWriter writer() {
        if (writer == null) {
            throw new UnsupportedOperationException("the " + cliName + " format is read only: isostress reads "
                    + cliName + " histories but writes jsonl, edn or text");
        }
        return writer.get();
    }

    /** The format named {@code name} (case-insensitive; {@code json} is JSONL, {@code txt} is text), or null. */
    public static HistoryFormat byName(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "jsonl": case "json": return JSONL;
            case "edn": return EDN;
            case "text": case "txt": return TEXT;
            case "dbcop": return DBCOP;
            case "cobra": return COBRA;
            default: return null;
        }
    }

    /**
     * Reads a history in this format: a file, or for {@link #COBRA} a directory of client logs (or one log).
     *
     * @throws NoSuchFileException when there is no such file
     * @throws InputException for bad input, and for a file that cannot be read (naming it)
     */
    public History read(Path file) throws IOException {
        try {
            if (this == COBRA) return CobraReader.read(file);
            if (Files.isDirectory(file)) {
                throw new InputException(file.toString(), 0, "is a directory; only a Cobra history (--format cobra) "
                        + "is a directory");
            }
            try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                return reader().read(in, file.toString());
            }
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            throw new InputException(file.toString(), 0, "cannot read the file: " + e, e);
        }
    }

    /** Writes a history in this format. */
    public void write(History h, OutputStream out) throws IOException {
        writer().write(h, out);
    }

    /**
     * Detects a history's format. A directory holding {@code *.log} files is Cobra. Otherwise the first bytes tell:
     * a Cobra log record sequence ({@code S} + transaction id ...) is Cobra; a NUL byte among the first eight (a
     * little-endian u64, which no text holds) is dbcop bincode; {@code {"} whose first key is one of dbcop's
     * {@code params}, {@code info}, {@code start}, {@code end}, {@code data}, or {@code [} then {@code [} then
     * {@code {"} or {@code ]}, is dbcop JSON; any other {@code {"} is JSONL; {@code {:}, {@code [}, {@code (},
     * {@code ;} or {@code #} is EDN; {@code r(} or {@code w(} is text. Falls back on the file extension.
     *
     * @throws InputException when neither tells
     */
    public static HistoryFormat detect(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            if (CobraReader.hasLogs(file)) return COBRA;
            throw new InputException(file.toString(), 0, "a directory without *.log files; the only history that is "
                    + "a directory is Cobra's (client logs T<n>.log)");
        }
        byte[] head = new byte[4096];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        }
        if (CobraReader.looksLikeLog(head, n)) return COBRA;
        for (int i = 0; i < Math.min(n, 8); i++) if (head[i] == 0) return DBCOP;
        int i = skipSpace(head, 0, n);
        if (i < n) {
            char c = (char) head[i];
            if (c == '[') {
                int j = skipSpace(head, i + 1, n);
                if (j < n && head[j] == '[') {
                    int k = skipSpace(head, j + 1, n);
                    if (k < n && (head[k] == ']' || (head[k] == '{' && nextIs(head, k + 1, n, '"')))) return DBCOP;
                }
            }
            if (c == ';' || c == '#' || c == '[' || c == '(') return EDN;
            if ((c == 'r' || c == 'w') && i + 1 < n && head[i + 1] == '(') return TEXT;
            if (c == '{') {
                int j = skipSpace(head, i + 1, n);
                if (j < n && head[j] == '"') return isDbcopKey(head, j, n) ? DBCOP : JSONL;
                if (j < n && head[j] == ':') return EDN;
            }
        }
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".jsonl") || name.endsWith(".json")) return JSONL;
        if (name.endsWith(".edn")) return EDN;
        if (name.endsWith(".txt")) return TEXT;
        if (name.endsWith(".bincode")) return DBCOP;
        throw new InputException(file.toString(), 1, "cannot tell the history format (not JSON lines, EDN, "
                + "r(key,value,session,txn) text, a dbcop history or Cobra logs); give --format "
                + "jsonl|edn|text|dbcop|cobra");
    }

    private static int skipSpace(byte[] b, int i, int n) {
        while (i < n && Character.isWhitespace(b[i])) i++;
        return i;
    }

    private static boolean nextIs(byte[] b, int i, int n, char c) {
        i = skipSpace(b, i, n);
        return i < n && b[i] == c;
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
