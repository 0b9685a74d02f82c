package isostress.harness.run;

import isostress.checker.Checker;
import isostress.checker.explain.ResultJson;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.Anomaly;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The run summary's first counterexample is the first violation found while running when there was one, not the
 * first of the end-of-run check's list (which holds at most max-anomalies per name, often from late in the run).
 */
class FirstCounterexampleTest {
    /** The end-of-run check of a write skew between T0 and T1. */
    static Result endOfRun() throws Exception {
        History h = HistoryFormat.TEXT.read(Path.of("../checker/src/test/resources/corpus/text/mtc-anomaly-write-skew.txt"));
        Result r = Checker.check(h, List.of(IsolationLevel.SERIALIZABLE), CheckOptions.DEFAULTS);
        assertEquals(List.of("T0", "T1"), r.anomalies().get(0).txns().stream().map(t -> t.label()).toList());
        return r;
    }

    /** The same cycle as a prefix of a longer history would have it, its T0 and T1 there T305 and T290. */
    static StreamingReport streamed(Result r) {
        Anomaly found = FirstCounterexample.inWholeHistory(r.anomalies().get(0), new int[] {305, 290});
        StreamingReport.Detection d = new StreamingReport.Detection(330_000_000L, 160_000_000L, "T305",
                found.name(), found.level(), found);
        return new StreamingReport(d, 1, 120, 346, 120, null);
    }

    @Test
    void theSummaryShowsTheViolationFoundWhileRunning() throws Exception {
        Result r = endOfRun();
        StreamingReport st = streamed(r);
        StringWriter w = new StringWriter();
        RunReport.printFirstCounterexample(r, st, new PrintWriter(w, true));
        String text = w.toString();
        assertTrue(text.startsWith("  first counterexample (found while running):\n    G2-item"), text);
        assertTrue(text.contains("T305 = {") && text.contains("T290 = {"), text);
        assertTrue(text.contains("T305 -rw-> T290") || text.contains("T290 -rw-> T305"), "the steps renumbered too: " + text);
        assertFalse(text.contains("T0 ") || text.contains("T1 "), "none of the prefix's numbers: " + text);

        w = new StringWriter();
        RunReport.printFirstCounterexample(r, null, new PrintWriter(w, true));
        assertTrue(w.toString().startsWith("  first counterexample:\n") && w.toString().contains("T0 = {"),
                "without a violation found while running, the end-of-run check's first: " + w);
    }

    @Test
    void theStreamedCounterexampleIsChosenAndRenumbered() throws Exception {
        Result r = endOfRun();
        StreamingReport st = streamed(r);
        Anomaly first = FirstCounterexample.of(r, st);
        assertSame(st.detection().counterexample(), first);
        assertNotEquals(r.anomalies().get(0), first);
        assertEquals(List.of("T305", "T290"), first.txns().stream().map(t -> t.label()).toList());
        assertEquals(r.anomalies().get(0).txns().get(0).ops(), first.txns().get(0).ops());
        assertSame(r.anomalies().get(0), FirstCounterexample.of(r, new StreamingReport(null, 3, 1, 10, 1, null)));
        Map<String, Object> json = RunReport.streaming(st);
        assertEquals(ResultJson.anomaly(first), json.get("counterexample"), "results.json keeps it for report.html");
    }
}
