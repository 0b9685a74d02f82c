package isostress.checker;

import isostress.checker.model.CheckOptions;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LevelResult;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.sql.SqlHistoryReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Checker#check(CheckInput, List, CheckOptions)} is the one entry for every history kind. An SQL
 * history (PostgreSQL 16, 70% serializable and 30% read committed: valid at its own levels, invalid as
 * all-serializable) answers the common {@link Result}, with its own-levels check as level {@code own}.
 */
class CheckInputTest {
    @TempDir
    Path tmp;

    CheckInput sql(boolean own) throws Exception {
        Path file = tmp.resolve("history.jsonl");
        try (InputStream in = CheckInputTest.class.getResourceAsStream("sql/pg16-sql-mixed-seed1.jsonl")) {
            Files.copy(in, file);
        }
        CheckInput in = CheckInput.read(file, null, own);
        assertTrue(in instanceof CheckInput.Sql, "detected by its header");
        return in;
    }

    @Test
    void sqlHistoryAnswersTheCommonResultWithItsOwnLevelsFirst() throws Exception {
        CheckInput in = sql(true);
        Result r = Checker.check(in, List.of(IsolationLevel.SERIALIZABLE), in.defaultOptions());
        assertEquals(2, r.levels().size());
        LevelResult own = r.levels().get(0);
        assertNull(own.level());
        assertEquals("own", own.name());
        assertEquals(Verdict.VALID, own.verdict(), own.reason());
        assertEquals(Verdict.INVALID, r.level(IsolationLevel.SERIALIZABLE).verdict());
        assertEquals(Verdict.INVALID, r.verdict());
        assertEquals(List.of(IsolationLevel.SERIALIZABLE), r.weakestViolated());
        assertEquals(IsolationLevel.SERIALIZABLE, r.anomalies().get(0).level());
        assertTrue(r.anomalies().get(0).argument().let().size() >= 2, "the transactions with their statements");
    }

    @Test
    void ownLevelsCountTowardTheVerdictWhenNoLevelIsAsked() throws Exception {
        CheckInput in = sql(false);
        Result r = Checker.check(in, Checker.defaultLevels(in), in.defaultOptions());
        assertEquals(List.of("own"), r.levels().stream().map(LevelResult::name).toList());
        assertEquals(Verdict.VALID, r.verdict());
    }

    @Test
    void optionsOfTheKeyValueAlgorithmsAreRejectedNotIgnored() throws Exception {
        CheckInput in = sql(false);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Checker.check(in, List.of(), in.defaultOptions().withMaxOpenPairs(10)));
        assertEquals("--max-open-pairs applies to the polygraph solver of rw-register/list-append histories; this is "
                + "an isostress-sql history", e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Checker.check(in, List.of(), in.defaultOptions().withPolygraphPruning(false)));
        Result limited = Checker.check(in, List.of(IsolationLevel.SERIALIZABLE),
                in.defaultOptions().withAnomaliesPerType(0));
        assertEquals(0, limited.anomalies().size());
        assertEquals(1, limited.anomaliesOmitted());
    }

    @Test
    void keyValueHistoriesEnterTheSameWay() throws Exception {
        Path f = Path.of("src/test/resources/corpus/text/mtc-anomaly-write-skew.txt");
        CheckInput in = CheckInput.read(f, null, false);
        assertEquals(HistoryFormat.TEXT, ((CheckInput.KeyValue) in).format());
        Result r = Checker.check(in, List.of(), in.defaultOptions());
        assertEquals(Verdict.INVALID, r.verdict());
        assertEquals("G2-item", r.anomalies().get(0).type().elleName());
    }
}
