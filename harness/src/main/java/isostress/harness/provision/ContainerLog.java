package isostress.harness.provision;

import org.testcontainers.containers.output.OutputFrame;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A container's output as it comes, into a file of the run's logs. It matters when a container fails to start:
 * Testcontainers removes it then, and its output is gone from the engine. Once a database is up,
 * {@link DockerNode#writeLogs()} replaces the file with the engine's complete copy, restarts included.
 */
public final class ContainerLog implements Consumer<OutputFrame> {
    private final Path file;
    private OutputStream out;
    private boolean failed;

    public ContainerLog(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized void accept(OutputFrame frame) {
        byte[] bytes = frame.getBytes();
        if (failed || bytes == null) return;
        try {
            if (out == null) out = Files.newOutputStream(file);
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            failed = true;
            System.err.println("isostress: writing " + file + ": " + e.getMessage());
        }
    }

    /** Stops writing, so the complete copy can replace the file. */
    public synchronized void close() {
        failed = true;
        if (out == null) return;
        try {
            out.close();
        } catch (IOException e) {
            System.err.println("isostress: closing " + file + ": " + e.getMessage());
        }
    }
}
