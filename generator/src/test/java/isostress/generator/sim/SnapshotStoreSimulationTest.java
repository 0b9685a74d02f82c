package isostress.generator.sim;

import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Verdict;
import isostress.generator.sim.SnapshotStoreSimulation.Config;
import isostress.generator.sim.SnapshotStoreSimulation.Format;
import isostress.generator.sim.SnapshotStoreSimulation.Store;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The simulated SI store's histories, read back in both formats, have the verdicts the store promises. */
class SnapshotStoreSimulationTest {
    private static History history(Config c, Format f, HistoryFormat reader) throws IOException {
        StringWriter w = new StringWriter();
        SnapshotStoreSimulation.Stats s = SnapshotStoreSimulation.run(c, f, w);
        assertEquals(c.txns(), s.committed());
        return reader.reader().read(new ByteArrayInputStream(w.toString().getBytes(StandardCharsets.UTF_8)), "sim");
    }

    private static Verdict verdict(History h, IsolationLevel l) {
        return Checker.check(h, List.of(l), CheckOptions.DEFAULTS).verdict();
    }

    @Test
    void siStoreIsSnapshotIsolationButNotSerializable() throws IOException {
        Config c = Config.of(2_000, 8, 50, Store.SI, 7);
        for (History h : List.of(history(c, Format.CHRONOS, HistoryFormat.CHRONOS),
                history(c, Format.TEXT, HistoryFormat.TEXT))) {
            assertEquals(2_000, h.size());
            assertEquals(Verdict.VALID, verdict(h, IsolationLevel.SNAPSHOT_ISOLATION));
            assertEquals(Verdict.INVALID, verdict(h, IsolationLevel.SERIALIZABLE));
        }
    }

    @Test
    void serStoreIsSerializable() throws IOException {
        Config c = Config.of(2_000, 8, 50, Store.SER, 7);
        StringWriter w = new StringWriter();
        SnapshotStoreSimulation.Stats s = SnapshotStoreSimulation.run(c, Format.TEXT, w);
        assertTrue(s.aborted() > 0, "backward validation aborts some transactions");
        for (History h : List.of(history(c, Format.CHRONOS, HistoryFormat.CHRONOS),
                history(c, Format.TEXT, HistoryFormat.TEXT))) {
            assertEquals(Verdict.VALID, verdict(h, IsolationLevel.SERIALIZABLE));
        }
    }

    @Test
    void rcStoreIsReadCommittedButNotReadAtomic() throws IOException {
        Config c = Config.of(2_000, 8, 50, Store.RC, 7);
        for (History h : List.of(history(c, Format.CHRONOS, HistoryFormat.CHRONOS),
                history(c, Format.TEXT, HistoryFormat.TEXT))) {
            assertEquals(Verdict.VALID, verdict(h, IsolationLevel.READ_COMMITTED));
            assertEquals(Verdict.INVALID, verdict(h, IsolationLevel.READ_ATOMIC));
        }
    }

    @Test
    void bothFormatsHoldTheSameTransactions() throws IOException {
        Config c = Config.of(300, 4, 20, Store.SI, 3);
        History chronos = history(c, Format.CHRONOS, HistoryFormat.CHRONOS);
        History text = history(c, Format.TEXT, HistoryFormat.TEXT);
        assertEquals(chronos.size(), text.size());
        for (int t = 0; t < chronos.size(); t++) {
            assertEquals(chronos.process(t) + 1, text.process(t));
            assertEquals(chronos.txn(t).ops(), text.txn(t).ops());
        }
    }
}
