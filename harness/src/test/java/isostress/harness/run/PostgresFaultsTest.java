package isostress.harness.run;

import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.Verdict;
import isostress.harness.Services;
import isostress.harness.faults.FaultRecord;
import isostress.harness.faults.Iptables;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each fault against embedded PostgreSQL at serializable: the run completes within its time limit, every fault is
 * an event in the history and in results.json, and faults cause no false positive (the history stays
 * serializable: outcomes of transactions a fault cut short are info, never a guessed fail).
 */
class PostgresFaultsTest {
    @TempDir
    Path store;

    @ParameterizedTest
    @ValueSource(strings = {"kill", "pause", "partition", "latency", "drop"})
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void faultsLeaveSerializableClean(String fault) throws Exception {
        if (fault.equals("partition")) {
            Services.require(Iptables.available(), "iptables (as root)", "apt-get install -y iptables, run as root");
        }
        RunOutcome o = Campaigns.run(Campaigns.parse(store, "name: pg-" + fault + "\n"
                + "database: {type: postgresql, isolation: serializable, timeout: 2s}\n"
                + "workload: {type: mini, sessions: 6, transactions: 1000000, keys: 100, seed: 5, duration: 14s}\n"
                + "nemesis: {faults: [" + fault + "], interval: 3s, duration: 2s, latency: 50ms}\n"
                + "check: {levels: [serializable]}\n"));
        assertNull(o.error(), o.error());
        assertEquals(Verdict.VALID, o.result().level(SERIALIZABLE).verdict(), o.result().anomalyCounts().toString());
        List<FaultRecord> faults = o.faults();
        assertTrue(faults.size() >= 2, "faults " + faults);
        for (FaultRecord f : faults) {
            assertEquals(fault, f.kind());
            assertNull(f.error(), f.error());
            assertTrue(f.end() >= f.start());
        }
        History h = HistoryFormat.JSONL.read(o.dir().history());
        String text = Files.readString(o.dir().history());
        assertEquals(faults.size(), count(text, "\"f\":\"start-" + fault + "\""));
        assertEquals(faults.size(), count(text, "\"f\":\"stop-" + fault + "\""));
        assertTrue(h.size() > 1000, "transactions " + h.size());
        assertTrue(Files.readString(o.dir().results()).contains("\"faults\""));
        if (fault.equals("kill")) {
            for (FaultRecord f : faults) assertTrue(f.healMillis() <= 10_000, "restart took " + f.healMillis() + " ms");
        }
        Map<?, ?> all = (Map<?, ?>) o.nodes().get("all");
        assertTrue(((Number) all.get("untouched_determinate_ratio")).doubleValue() >= 0.95, all.toString());
        // This harness's own chain only: other harnesses on the machine may have theirs.
        assertFalse(Iptables.program() != null && java.util.regex.Pattern.compile("\\b" + Iptables.CHAIN + "\\b")
                .matcher(Iptables.list()).find(), "iptables rules left");
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) n++;
        return n;
    }
}
