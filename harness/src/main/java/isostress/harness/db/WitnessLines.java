package isostress.harness.db;

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
 */
public final class WitnessLines implements AutoCloseable {
    private final BufferedWriter out;

    public WitnessLines(Path file) throws IOException {
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
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
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
