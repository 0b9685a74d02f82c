package isostress.harness.report;

import isostress.harness.Services;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report as a browser renders it: headless Chromium loads report.html from disk (no server, no network), its
 * DOM must still hold the verdict and the SVG, and a screenshot must have something on it.
 */
class ChromiumReportTest {
    static final long TIMEOUT_SECONDS = 60;
    static Path chromium;

    @TempDir
    Path dir;

    @BeforeAll
    static void findChromium() {
        List<Path> candidates = new ArrayList<>(List.of(Path.of("/usr/bin/chromium")));
        for (String p : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!p.isEmpty()) {
                candidates.add(Path.of(p, "chromium"));
                candidates.add(Path.of(p, "chromium-browser"));
            }
        }
        chromium = candidates.stream().filter(Files::isExecutable).findFirst().orElse(null);
        Services.require(chromium != null, "headless Chromium", "apt-get install -y chromium");
    }

    @Test
    void rendersTheVerdictAndTheGraphs() throws Exception {
        Path run = Files.createDirectories(dir.resolve("run"));
        Path report = HtmlReport.write(RunDirFixture.write(run, true));
        String url = report.toUri().toString();

        Path dom = dir.resolve("dom.html");
        chromium(dom, "--dump-dom", url);
        String html = Files.readString(dom);
        assertTrue(html.contains("INVALID"), html.length() > 2000 ? html.substring(0, 2000) : html);
        assertTrue(html.contains("<svg class=\"graph\"") && html.contains("<svg class=\"chart\""), "the svg made it into the DOM");
        assertTrue(html.contains("T460 (p3, ok)"));

        Path png = dir.resolve("report.png");
        chromium(dir.resolve("screenshot.log"), "--screenshot=" + png, "--window-size=1200,2000", url);
        assertTrue(Files.exists(png), "a screenshot");
        try (InputStream in = Files.newInputStream(png); DataInputStream d = new DataInputStream(in)) {
            byte[] signature = d.readNBytes(8);
            assertEquals((byte) 0x89, signature[0]);
            assertEquals("PNG", new String(signature, 1, 3, java.nio.charset.StandardCharsets.US_ASCII));
            d.readInt(); // IHDR length
            d.readInt(); // "IHDR"
            assertEquals(1200, d.readInt(), "width");
            assertEquals(2000, d.readInt(), "height");
        }
        // A blank 1200×2000 page compresses to a few kB; text, tables and charts do not.
        assertTrue(Files.size(png) > 40_000, "a screenshot with something on it: " + Files.size(png) + " bytes");
    }

    /** Runs headless Chromium with its output in {@code out}, a fresh profile, and a time limit. */
    private void chromium(Path out, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--disable-extensions", "--user-data-dir=" + Files.createTempDirectory(dir, "profile")));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile())
                .redirectError(dir.resolve("chromium-stderr.log").toFile()).start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + cmd);
        }
        assertEquals(0, p.exitValue(), () -> "chromium failed: " + cmd + "\n" + read(dir.resolve("chromium-stderr.log")));
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
