package isostress.harness.db;

import isostress.checker.witness.Witness;
import isostress.checker.witness.WitnessReader;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The run's {@code witness.jsonl}, shared by the readers of several nodes' logs (a primary and its standbys, the
 * nodes of a cluster): each reader hands over one batch of whole lines at a time, so the lines of different nodes
 * interleave only between batches (the format allows any interleaving of nodes; within a node, a reader's lines
 * stay in its commit order).
 *
 * <p>Each line is also read as it is written ({@link WitnessReader.Lines}), so that the end-of-run check joins the
 * witness at once instead of reading the file back: on a million transactions that read was about as long as the
 * join itself. A line the reader refuses (a capture's defect) stops that: the check then reads the file, and its
 * refusal names the line.
 */
public final class WitnessLines implements AutoCloseable {
    private final BufferedWriter out;
    private WitnessReader.Lines read;

    public WitnessLines(Path file) throws IOException {
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        read = new WitnessReader.Lines(file.toString());
    }

    /**
     * Writes {@code lines} (each without its line end) and flushes them to the file: a reader moves its position in
     * the database's log past them only after this returns.
     */
    public synchronized void write(List<String> lines) throws IOException {
        if (lines.isEmpty()) return;
        for (String l : lines) {
            out.write(l);
            out.write('\n');
        }
        out.flush();
        if (read == null) return;
        try {
            for (String l : lines) read.line(l);
        } catch (IOException | RuntimeException e) {
            read = null;
        }
    }

    /** The witness of every line written, as reading the file would give it; null when a line was refused. */
    public synchronized Witness witness() {
        return read == null ? null : read.finish();
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
