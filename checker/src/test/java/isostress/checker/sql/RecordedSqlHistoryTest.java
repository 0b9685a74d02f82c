package isostress.checker.sql;

import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A history recorded from PostgreSQL 16 by {@code configs/sql-mixed.yaml} (seed 1; 70% serializable, 30% read
 * committed): valid with each transaction at its own level, invalid as all-serializable, and its counterexample
 * lists every transaction its explanation names (the reader whose axiom forced an edge included).
 */
class RecordedSqlHistoryTest {
    @TempDir
    Path tmp;

    @Test
    void mixedLevelsValidAllSerializableInvalidWithEveryNamedTransactionListed() throws Exception {
        Path file = tmp.resolve("history.jsonl");
        try (InputStream in = RecordedSqlHistoryTest.class.getResourceAsStream("pg16-sql-mixed-seed1.jsonl")) {
            Files.copy(in, file);
        }
        SqlHistory h = SqlHistoryReader.read(file);
        SqlResult own = SqlChecker.check(h, SqlCheckOptions.DEFAULTS);
        assertEquals(Verdict.VALID, own.verdict(), own.toText());

        SqlResult ser = SqlChecker.check(h, SqlCheckOptions.DEFAULTS.withLevel(SERIALIZABLE));
        assertEquals(Verdict.INVALID, ser.verdict());
        assertFalse(ser.violations().isEmpty());
        for (SqlViolation v : ser.violations()) {
            Set<Long> named = new HashSet<>();
            Matcher m = Pattern.compile("\\bT(\\d+)\\b").matcher(String.join("\n", v.steps()));
            while (m.find()) named.add(Long.parseLong(m.group(1)));
            assertTrue(v.txns().containsAll(named), "steps name " + named + ", Let lists " + v.txns() + "\n" + v.toText());
            assertEquals(v.txns().size(), v.let().size());
        }
    }
}
