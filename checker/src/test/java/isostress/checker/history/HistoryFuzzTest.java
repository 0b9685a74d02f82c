package isostress.checker.history;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Issue 13: every history reader answers any bytes with a history or with one sentence naming the file and the line,
 * in bounded time. At least 102,000 mutated histories per build: {@value #TRIES} generated cases of three or four
 * mutations, each prefix of which is an input (see {@link HistoryFuzz} for the seeds and mutations, and
 * {@link HistoryFuzzBench} for longer runs). jqwik prints the seed of a failing try and shrinks it to a small case.
 */
class HistoryFuzzTest {
    static final int TRIES = 34_000;
    private static final HistoryFuzz.Tally TALLY = new HistoryFuzz.Tally();
    private static final Path TMP = tempDir();

    @Property(tries = TRIES)
    void everyInputIsReadOrRefusedWithFileAndLine(@ForAll("cases") HistoryFuzz.Case c) throws IOException {
        HistoryFuzz.check(c, TALLY, TMP);
    }

    @Provide
    Arbitrary<HistoryFuzz.Case> cases() {
        return HistoryFuzz.cases();
    }

    @AfterContainer
    static void report() throws IOException {
        try (java.util.stream.Stream<Path> files = Files.list(TMP)) {
            for (Path f : (Iterable<Path>) files::iterator) Files.delete(f);
        }
        Files.delete(TMP);
        System.out.println("HistoryFuzzTest: " + TALLY);
        if (TALLY.inputs > 0 && TALLY.inputs < (long) TRIES * HistoryFuzz.MIN_MUTATIONS) {
            throw new AssertionError("only " + TALLY.inputs + " inputs were thrown at the readers");
        }
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("history-fuzz");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
