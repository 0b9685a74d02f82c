package isostress.harness.run;

import isostress.harness.db.Secrets;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;

/**
 * The harness's own log of a run ({@code logs/harness.log}): what it started, what went wrong. Lines are masked
 * ({@link Secrets}): errors quote drivers, and drivers may quote URLs.
 */
final class RunLog implements AutoCloseable {
    private final PrintWriter w;

    RunLog(Path file) throws IOException {
        w = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND));
    }

    synchronized void line(String s) {
        w.println(LocalDateTime.now() + " " + Secrets.mask(s));
        w.flush();
    }

    @Override
    public synchronized void close() {
        w.close();
    }
}
