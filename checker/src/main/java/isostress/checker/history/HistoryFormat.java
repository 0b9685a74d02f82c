package isostress.checker.history;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The history formats, each a reader and (for isostress's own and the formats other checkers take as input) a writer
 * around the same {@link History} model. dbcop, Cobra and Chronos histories are read only: they come from those
 * tools' runs.
 */
public enum HistoryFormat {
    /** JSON lines in the Jepsen op schema, isostress's own format; also the same ops as one JSON array (elle-cli). */
    JSONL("jsonl", JsonlReader::new, JsonlWriter::new),
    /** Jepsen EDN, as written by Jepsen and read by Elle. */
    EDN("edn", EdnReader::new, EdnWriter::new),
    /** {@code r(key,value,session,txn)} lines, as used by MTC, PolySI and IsoVista. */
    TEXT("text", TextReader::new, TextWriter::new),
    /** dbcop's histories (Biswas &amp; Enea): legacy or current JSON, or bincode; read only. */
    DBCOP("dbcop", DbcopReader::new, null),
    /** Cobra's binary client logs (Tan et al.): a directory of {@code T<n>.log} files; read only. */
    COBRA("cobra", CobraReader::new, null),
    /** Chronos/Aion's (TimeKiller) JSON array of timestamped transactions, key-value or list; read only. */
    CHRONOS("chronos", ChronosReader::new, null);

    private final String cliName;
    private final Supplier<HistoryReader> reader;
    private final Supplier<HistoryWriter> writer;

    /** @param writer null for a format that is read but never written */
    HistoryFormat(String cliName, Supplier<HistoryReader> reader, Supplier<HistoryWriter> writer) {
        this.cliName = cliName;
        this.reader = reader;
        this.writer = writer;
    }

    /** The name used on the command line ({@code --format jsonl|edn|text|dbcop|cobra|chronos}). */
    public String cliName() {
        return cliName;
    }

    public HistoryReader reader() {
        return reader.get();
    }

    /** True when histories can be written in this format (not so for dbcop, Cobra and Chronos). */
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
            case "chronos": case "timekiller": return CHRONOS;
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
     * Detects a history's format from its first bytes or its name ({@link FormatDetection#of}, which also says what
     * it saw).
     *
     * @throws InputException when neither tells
     */
    public static HistoryFormat detect(Path file) throws IOException {
        return FormatDetection.of(file).format();
    }
}
