package isostress.harness.db.postgresql;

import isostress.harness.Services;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The finding of docs/findings/postgres-ssi-g2-item-reproduction.md, reproduced by its own script on the bundled
 * PostgreSQL: with T_out's COMMIT held (by gdb) between becoming visible and being marked committed for SSI, the
 * three transactions of the G2-item all commit; with the reading step moved before T_out is let go (the control),
 * PostgreSQL refuses T_in with a serialization failure. The script talks to the server through psql only, so this
 * checks the finding with no isostress code in the loop.
 */
class SsiCommitWindowTest {
    private static final Path SCRIPT = Path.of("../docs/findings/pg-ssi-commit-window.sh");
    private static final String PSQL = "/usr/lib/postgresql/15/bin/psql";

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void allThreeCommitInTheWindowAndTheControlIsRefused() throws Exception {
        Services.require(Files.isExecutable(Path.of("/usr/bin/gdb")) && Files.isExecutable(Path.of(PSQL)),
                "gdb and Debian's psql (for the SSI commit-window reproduction)", "apt-get install gdb postgresql-15");
        Path bin = extractBundledBinaries();
        Result window = script(bin, "window");
        assertEquals(1, window.status(), window.output());
        assertTrue(window.output().contains("committed: 3 of 3"), window.output());
        assertTrue(window.output().contains("NOT SERIALIZABLE"), window.output());
        Result control = script(bin, "control");
        assertEquals(0, control.status(), control.output());
        assertTrue(control.output().contains("could not serialize access due to read/write dependencies"),
                control.output());
    }

    private record Result(int status, String output) {
    }

    private Result script(Path bin, String mode) throws IOException, InterruptedException {
        Path out = dir.resolve(mode + ".out");
        ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString(), bin.toString(), dir.resolve(mode).toString(),
                mode).redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().put("PSQL", PSQL);
        pb.environment().put("PORT", String.valueOf(isostress.harness.provision.Host.freePort()));
        Process p = pb.start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError(mode + " did not end within 90 s:\n" + Files.readString(out));
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        System.out.println("---- pg-ssi-commit-window.sh " + mode + "\n" + text);
        return new Result(p.exitValue(), text);
    }

    /** The bundled PostgreSQL's binaries (zonky's, with their symbols), unpacked with tar. */
    private Path extractBundledBinaries() throws IOException, InterruptedException {
        Path target = dir.resolve("pg");
        Files.createDirectories(target);
        Process tar = new ProcessBuilder("tar", "-xJf", "-", "-C", target.toString())
                .redirectErrorStream(true).start();
        try (InputStream in = ZonkyBundles.bundle(ZonkyBundles.bundledVersion())) {
            in.transferTo(tar.getOutputStream());
        }
        tar.getOutputStream().close();
        String err = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, tar.waitFor(), "tar: " + err);
        Path bin = target.resolve("bin");
        assertTrue(Files.isExecutable(bin.resolve("postgres")), "no postgres in the bundle: " + bin);
        return bin;
    }
}
