package isostress.checker;

import isostress.checker.model.CheckOptions;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.Anomaly;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static isostress.checker.model.IsolationLevel.SNAPSHOT_ISOLATION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A history recorded from PostgreSQL 16.15 at SERIALIZABLE (docs/findings/postgres-16.15-serializable-g2-item.md):
 * 40,000 rw-register transactions, snapshot isolation throughout, one G2-item through a read-only transaction. The
 * checker must keep saying exactly that: SI valid, serializable invalid, and the counterexample the finding quotes.
 */
class RecordedPostgresHistoryTest {
    static final Path FILE = Path.of("..", "docs", "findings", "postgres-16.15-serializable-g2-item.jsonl.gz");

    @TempDir
    Path tmp;

    @Test
    void snapshotIsolationHoldsAndSerializabilityFailsWithTheReadOnlyG2Item() throws Exception {
        Path jsonl = tmp.resolve("history.jsonl");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(FILE))) {
            Files.copy(in, jsonl);
        }
        History h = HistoryFormat.JSONL.read(jsonl);
        assertEquals(40_000, h.size());

        Result si = Checker.check(h, List.of(SNAPSHOT_ISOLATION), CheckOptions.DEFAULTS);
        assertEquals(Verdict.VALID, si.level(SNAPSHOT_ISOLATION).verdict(), si.level(SNAPSHOT_ISOLATION).reason());

        Result ser = Checker.check(h, List.of(SERIALIZABLE), CheckOptions.DEFAULTS);
        assertEquals(Verdict.INVALID, ser.level(SERIALIZABLE).verdict());
        assertEquals(List.of(SERIALIZABLE), ser.weakestViolated());
        Anomaly g2 = ser.anomalies().get(0);
        assertTrue(g2.name().startsWith("G2-item"), g2.name());
        Set<Integer> ids = g2.txns().stream().map(t -> t.id()).collect(Collectors.toSet());
        assertTrue(ids.containsAll(Set.of(36522, 36521, 36524)), "the finding's cycle, got " + ids);
    }
}
