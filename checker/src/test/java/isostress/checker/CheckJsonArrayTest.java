package isostress.checker;

import isostress.checker.history.HistoryFormat;
import isostress.checker.history.InputException;
import isostress.checker.model.Anomaly;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A history given as one JSON array of ops (elle-cli's JSON input), detected without --format, checks the same as its
 * JSON-lines twin: same verdict, same weakest violated levels, same anomalies over the same transactions.
 */
class CheckJsonArrayTest {
    @TempDir
    Path tmp;

    @Test
    void jsonArrayChecksTheSameAsItsJsonLinesTwin() throws Exception {
        for (String corpus : List.of("paper-example.edn", "si-without-g-single.edn")) {
            String lines = jsonl(HistoryFormat.EDN.read(Path.of("src/test/resources/corpus/elle/" + corpus)));
            Result twin = check(Files.writeString(tmp.resolve(corpus + ".jsonl"), lines));
            String[] ops = lines.strip().split("\n");
            Result oneLine = check(Files.writeString(tmp.resolve(corpus + ".json"), "[" + String.join(",", ops) + "]"));
            Result spread = check(Files.writeString(tmp.resolve(corpus + "-pretty.json"),
                    "[\n  " + String.join(",\n  ", ops).replace(",\"value\"", ",\n    \"value\"") + "\n]\n"));
            assertEquals(Verdict.INVALID, twin.verdict(), corpus);
            for (Result r : List.of(oneLine, spread)) {
                assertEquals(twin.verdict(), r.verdict(), corpus);
                assertEquals(twin.weakestViolated(), r.weakestViolated(), corpus);
                assertEquals(summary(twin.anomalies()), summary(r.anomalies()), corpus);
            }
        }
    }

    @Test
    void aFileTakenForTheWrongFormatSaysWhatItWasTakenFor() throws Exception {
        Path f = Files.writeString(tmp.resolve("ops.json"), "[[\"append\", 1, 2]]\n");
        InputException e = assertThrows(InputException.class, () -> CheckInput.read(f, null, false));
        assertTrue(e.getMessage().startsWith(f + ":1: "), e.getMessage());
        assertTrue(e.getMessage().endsWith("(read as edn: detected EDN (it starts with '[[\"append\", 1, 2]]'); "
                + "--format jsonl|edn|text|dbcop|cobra|chronos chooses another)"), e.getMessage());
    }

    private static String jsonl(isostress.checker.history.History h) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        HistoryFormat.JSONL.write(h, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static Result check(Path file) throws Exception {
        CheckInput in = CheckInput.read(file, null, false);
        assertEquals(HistoryFormat.JSONL, ((CheckInput.KeyValue) in).format(), file.toString());
        return Checker.check(in, Checker.defaultLevels(in), in.defaultOptions());
    }

    /** The anomalies without the lines their transactions sit on, which differ between the two forms. */
    private static List<String> summary(List<Anomaly> anomalies) {
        return anomalies.stream().map(a -> a.type().elleName() + " " + a.level() + " " + a.txns().stream().map(t -> t.id()).toList()).toList();
    }
}
