package isostress.harness.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every campaign shipped in configs/ (including configs/known-bugs/) loads, and passes the fuzz test's sanity checks
 * (positive counts, finite ratios, positive durations, ...): a user copying one never meets a stale key. The only
 * problems tolerated are environment variables an external campaign names and this machine lacks.
 */
class ShippedConfigsTest {
    private static final Path CONFIGS = Path.of("..", "configs");

    @Test
    void everyShippedCampaignLoads() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(CONFIGS)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertTrue(files.size() >= 15, "configs found: " + files);
        List<String> broken = new ArrayList<>();
        for (Path f : files) {
            try {
                CampaignLoaderFuzzTest.sane(CampaignLoader.load(f), f);
            } catch (ConfigException e) {
                List<String> real = e.problems().stream().filter(p -> !p.contains("environment variable")).toList();
                if (!real.isEmpty()) broken.add(f + ": " + real);
            }
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void knownBugCampaignsSayWhatTheyReproduceAndWhere() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(CONFIGS.resolve("known-bugs"))) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertTrue(files.size() >= 8, "known-bug campaigns: " + files);
        for (Path f : files) {
            String text = Files.readString(f);
            assertTrue(text.startsWith("#"), f + " opens with a comment");
            assertTrue(text.contains("Reproduces") || text.contains("Control"), f + " says what it reproduces");
            assertTrue(text.contains("Expected"), f + " says what to expect");
        }
    }
}
