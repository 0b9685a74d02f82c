package isostress.generator.sim;

import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Verdict;
import isostress.generator.sim.ListAppendStoreSimulation.Config;
import isostress.generator.sim.ListAppendStoreSimulation.Format;
import isostress.generator.sim.SnapshotStoreSimulation.Stats;
import isostress.generator.sim.SnapshotStoreSimulation.Store;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The list-append stores' histories, read back in both formats, have the verdicts each store promises. */
class ListAppendStoreSimulationTest {
    private static History history(Config c, Format f) throws IOException {
        StringWriter w = new StringWriter();
        Stats s = ListAppendStoreSimulation.run(c, f, w);
        assertEquals(c.txns(), s.committed());
        HistoryFormat reader = f == Format.CHRONOS ? HistoryFormat.CHRONOS : HistoryFormat.JSONL;
        return reader.reader().read(new ByteArrayInputStream(w.toString().getBytes(StandardCharsets.UTF_8)), "sim");
    }

    private static List<History> both(Config c) throws IOException {
        return List.of(history(c, Format.CHRONOS), history(c, Format.JSONL));
    }

    private static Verdict verdict(History h, IsolationLevel l) {
        return Checker.check(h, List.of(l), CheckOptions.DEFAULTS).verdict();
    }

    @Test
    void siStoreIsSnapshotIsolationButNotSerializable() throws IOException {
        for (History h : both(Config.of(1_000, 8, 30, 20, Store.SI, 7))) {
            assertEquals(1_000, h.size());
            assertEquals(Verdict.VALID, verdict(h, IsolationLevel.SNAPSHOT_ISOLATION));
            assertEquals(Verdict.INVALID, verdict(h, IsolationLevel.SERIALIZABLE));
        }
    }

    @Test
    void serStoreIsSerializable() throws IOException {
        Config c = Config.of(1_000, 8, 30, 20, Store.SER, 7);
        Stats s = ListAppendStoreSimulation.run(c, Format.JSONL, new StringWriter());
        assertTrue(s.aborted() > 0, "backward validation aborts some transactions");
        for (History h : both(c)) assertEquals(Verdict.VALID, verdict(h, IsolationLevel.SERIALIZABLE));
    }

    @Test
    void rcStoreIsReadCommittedButNotReadAtomic() throws IOException {
        for (History h : both(Config.of(1_000, 8, 30, 20, Store.RC, 7))) {
            assertEquals(Verdict.VALID, verdict(h, IsolationLevel.READ_COMMITTED));
            assertEquals(Verdict.INVALID, verdict(h, IsolationLevel.READ_ATOMIC));
        }
    }

    @Test
    void bothFormatsHoldTheSameTransactionsAndKeysAreRetired() throws IOException {
        Config c = Config.of(300, 4, 5, 10, Store.SI, 3);
        History chronos = history(c, Format.CHRONOS);
        History jsonl = history(c, Format.JSONL);
        assertEquals(chronos.size(), jsonl.size());
        long maxKey = 0;
        for (int t = 0; t < chronos.size(); t++) {
            assertEquals(chronos.process(t), jsonl.process(t));
            assertEquals(chronos.txn(t).ops(), jsonl.txn(t).ops());
            for (var op : chronos.txn(t).ops()) maxKey = Math.max(maxKey, op.key());
        }
        assertTrue(maxKey > 5, "5 keys at a time, each retired after 10 appends: later keys have higher ids");
    }
}
