package isostress.checker.history;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Supplier;

/** The history formats, each a reader and a writer around the same {@link History} model. */
public enum HistoryFormat {
    /** JSON lines in the Jepsen op schema: isostress's own format (DESIGN.md). */
    JSONL("jsonl", JsonlReader::new, JsonlWriter::new),
    /** Jepsen EDN, as written by Jepsen and read by Elle. */
    EDN("edn", EdnReader::new, EdnWriter::new),
    /** {@code r(key,value,session,txn)} lines, as used by MTC, PolySI and IsoVista. */
    TEXT("text", TextReader::new, TextWriter::new);

    private final String cliName;
    private final Supplier<HistoryReader> reader;
    private final Supplier<HistoryWriter> writer;

    HistoryFormat(String cliName, Supplier<HistoryReader> reader, Supplier<HistoryWriter> writer) {
        this.cliName = cliName;
        this.reader = reader;
        this.writer = writer;
    }

    /** The name used on the command line ({@code --format jsonl|edn|text}). */
    public String cliName() {
        return cliName;
    }

    public HistoryReader reader() {
        return reader.get();
    }

    public HistoryWriter writer() {
        return writer.get();
    }

    /** The format named {@code name} (case-insensitive; {@code json} is JSONL, {@code txt} is text), or null. */
    public static HistoryFormat byName(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "jsonl": case "json": return JSONL;
            case "edn": return EDN;
            case "text": case "txt": return TEXT;
            default: return null;
        }
    }

    /** Reads a history file in this format. */
    public History read(Path file) throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            return reader().read(in, file.toString());
        }
    }

    /** Writes a history in this format. */
    public void write(History h, OutputStream out) throws IOException {
        writer().write(h, out);
    }

    /**
     * Detects a file's format from its first meaningful characters: {@code {"} is JSONL, {@code {:}, {@code [},
     * {@code ;} or {@code #} is EDN, {@code r(} or {@code w(} is text. Falls back on the file extension.
     *
     * @throws InputException when neither tells
     */
    public static HistoryFormat detect(Path file) throws IOException {
        byte[] head = new byte[4096];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        }
        int i = 0;
        while (i < n && Character.isWhitespace(head[i])) i++;
        if (i < n) {
            char c = (char) head[i];
            if (c == ';' || c == '#' || c == '[' || c == '(') return EDN;
            if ((c == 'r' || c == 'w') && i + 1 < n && head[i + 1] == '(') return TEXT;
            if (c == '{') {
                int j = i + 1;
                while (j < n && Character.isWhitespace(head[j])) j++;
                if (j < n && head[j] == '"') return JSONL;
                if (j < n && head[j] == ':') return EDN;
            }
        }
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".jsonl") || name.endsWith(".json")) return JSONL;
        if (name.endsWith(".edn")) return EDN;
        if (name.endsWith(".txt")) return TEXT;
        throw new InputException(file.toString(), 0, "cannot tell the history format (not JSON lines, EDN or "
                + "r(key,value,session,txn) text); give --format jsonl|edn|text");
    }
}
