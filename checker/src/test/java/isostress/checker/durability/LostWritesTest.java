package isostress.checker.durability;

import isostress.checker.CheckInput;
import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.history.Outcome;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LostWrite;
import isostress.checker.model.LostWriteReport;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Lost writes in hand-built histories with final reads: what must be found, and what must not. */
class LostWritesTest {
    private static final String MARKER =
            "{\"index\":%d,\"type\":\"info\",\"process\":\"nemesis\",\"f\":\"final-reads\",\"value\":{\"keys\":2}}\n";

    /** An acknowledged append absent from the final read of its key is lost; the explanation says when and where. */
    @Test
    void anAppendTheFinalReadLacksIsLost() throws IOException {
        History h = read(
                event(0, "invoke", 0, 1.0, "[[\"append\",1,5]]")
                + "{\"index\":1,\"type\":\"info\",\"process\":\"nemesis\",\"time\":1500000000,"
                + "\"f\":\"start-kill-primary-patroni\","
                + "\"value\":{\"node\":\"n2\",\"leader-before\":\"n2\"}}\n"
                + event(2, "ok", 0, 2.0, "[[\"append\",1,5]]")
                + "{\"index\":3,\"type\":\"info\",\"process\":\"nemesis\",\"time\":3000000000,"
                + "\"f\":\"stop-kill-primary-patroni\","
                + "\"value\":{\"node\":\"n2\",\"leader-after\":\"n3\"}}\n"
                + String.format(MARKER, 4)
                + event(5, "invoke", 9, 4.0, "[[\"r\",1,null]]")
                + event(6, "ok", 9, 4.5, "[[\"r\",1,[]]]"));
        assertTrue(LostWrites.applies(h));
        LostWriteReport r = LostWrites.find(h, 10);
        assertEquals(1, r.writes());
        assertEquals(1, r.lost());
        LostWrite w = r.findings().get(0);
        assertEquals("n2", w.primary());
        assertEquals("T0 (process 0) appended 5 to key 1 and was acknowledged at 2.000 s, but no read of key 1 begun "
                + "after that shows it: the last, T1 at 4.000 s, read []. It was acknowledged during "
                + "kill-primary-patroni on n2 (from 1.500 s; leader n2 before it, n3 after).", w.explanation());
        Result checked = Checker.check(new CheckInput.KeyValue(h, HistoryFormat.JSONL, null),
                List.of(IsolationLevel.READ_COMMITTED), CheckOptions.DEFAULTS);
        assertEquals(Verdict.INVALID, checked.verdict(), "a lost write makes the result invalid");
        assertEquals(1, checked.lostWrites().lost());
    }

    /** A write acknowledged after a fault ended is explained by how long after, and by the leaders named. */
    @Test
    void aWriteAfterAFaultSaysHowLongAfter() throws IOException {
        History h = read(
                "{\"index\":0,\"type\":\"info\",\"process\":\"nemesis\",\"time\":500000000,"
                + "\"f\":\"start-crash-primary\",\"value\":{\"node\":\"n1\",\"leader-before\":\"n1\"}}\n"
                + "{\"index\":1,\"type\":\"info\",\"process\":\"nemesis\",\"time\":1000000000,"
                + "\"f\":\"stop-crash-primary\",\"value\":{\"node\":\"n1\",\"leader-after\":\"n3\"}}\n"
                + event(2, "invoke", 0, 1.5, "[[\"append\",1,5]]")
                + event(3, "ok", 0, 1.75, "[[\"append\",1,5]]")
                + String.format(MARKER, 4)
                + event(5, "invoke", 9, 4.0, "[[\"r\",1,null]]")
                + event(6, "ok", 9, 4.5, "[[\"r\",1,[]]]"));
        LostWrite w = LostWrites.find(h, 10).findings().get(0);
        assertEquals("n3", w.primary());
        assertTrue(w.explanation().endsWith("It was acknowledged 0.750 s after crash-primary on n1 ended (it began at "
                + "0.500 s; leader n1 before it, n3 after)."), w.explanation());
    }

    /** An append the final read shows, and an info append the final read lacks, are not lost. */
    @Test
    void aSeenAppendAndAnInfoAppendAreNotLost() throws IOException {
        History h = read(
                event(0, "invoke", 0, 1.0, "[[\"append\",1,5]]")
                + event(1, "ok", 0, 2.0, "[[\"append\",1,5]]")
                + event(2, "invoke", 1, 1.0, "[[\"append\",1,6]]")
                + event(3, "info", 1, 2.0, "[[\"append\",1,6]]")
                + String.format(MARKER, 4)
                + event(5, "invoke", 9, 4.0, "[[\"r\",1,null]]")
                + event(6, "ok", 9, 4.5, "[[\"r\",1,[5]]]"));
        LostWriteReport r = LostWrites.find(h, 10);
        assertEquals(1, r.writes(), "the info append is not judged");
        assertEquals(0, r.lost());
    }

    /**
     * An info append the commit log shows committed (a witness join made it ok) and the final read lacks is not a
     * lost write: its client was never told it committed, and the timeline it committed on may have been discarded
     * in a failover. An acknowledged one beside it still is.
     */
    @Test
    void anInfoAppendResolvedCommittedIsNotAnAcknowledgedWrite() throws IOException {
        History h = read(
                event(0, "invoke", 0, 1.0, "[[\"append\",1,5]]")
                + event(1, "ok", 0, 2.0, "[[\"append\",1,5]]")
                + event(2, "invoke", 1, 1.0, "[[\"append\",1,6]]")
                + event(3, "info", 1, 2.0, "[[\"append\",1,6]]")
                + String.format(MARKER, 4)
                + event(5, "invoke", 9, 4.0, "[[\"r\",1,null]]")
                + event(6, "ok", 9, 4.5, "[[\"r\",1,[]]]"));
        History resolved = h.withOutcomes(java.util.Map.of(1, Outcome.OK));
        assertEquals(Outcome.OK, resolved.outcome(1));
        assertEquals(Outcome.INFO, resolved.recordedOutcome(1));
        LostWriteReport r = LostWrites.find(resolved, 10);
        assertEquals(1, r.writes(), "only the acknowledged append is judged");
        assertEquals(1, r.lost());
        assertTrue(r.findings().get(0).explanation().startsWith("T0 (process 0) appended 5"),
                r.findings().get(0).explanation());
    }

    /** A register value that nothing overwrote and the final read does not return is lost. */
    @Test
    void aRegisterValueNeitherOverwrittenNorReadIsLost() throws IOException {
        History h = read(
                event(0, "invoke", 0, 1.0, "[[\"w\",1,5]]")
                + event(1, "ok", 0, 2.0, "[[\"w\",1,5]]")
                + String.format(MARKER, 2)
                + event(3, "invoke", 9, 4.0, "[[\"r\",1,null]]")
                + event(4, "ok", 9, 4.5, "[[\"r\",1,null]]"));
        LostWriteReport r = LostWrites.find(h, 10);
        assertEquals(1, r.lost());
        assertNull(r.findings().get(0).primary(), "no fault event names a primary");
        assertTrue(r.findings().get(0).explanation().contains("wrote 5 to key 1"), r.findings().get(0).explanation());
        assertTrue(r.findings().get(0).explanation().endsWith("read the initial value."));
    }

    /**
     * A register write overwritten by a later acknowledged write is not lost though the final read lacks it; nor
     * is one an info write may have overwritten.
     */
    @Test
    void anOverwrittenRegisterValueIsNotLost() throws IOException {
        History h = read(
                event(0, "invoke", 0, 1.0, "[[\"w\",1,5]]")
                + event(1, "ok", 0, 2.0, "[[\"w\",1,5]]")
                + event(2, "invoke", 1, 2.5, "[[\"w\",1,6]]")
                + event(3, "ok", 1, 3.0, "[[\"w\",1,6]]")
                + event(4, "invoke", 2, 1.0, "[[\"w\",2,7]]")
                + event(5, "ok", 2, 2.0, "[[\"w\",2,7]]")
                + event(6, "invoke", 3, 2.5, "[[\"w\",2,8]]")
                + event(7, "info", 3, 3.0, "[[\"w\",2,8]]")
                + String.format(MARKER, 8)
                + event(9, "invoke", 9, 4.0, "[[\"r\",1,null],[\"r\",2,null]]")
                + event(10, "ok", 9, 4.5, "[[\"r\",1,6],[\"r\",2,8]]"));
        LostWriteReport r = LostWrites.find(h, 10);
        assertEquals(1, r.writes(), "6 is judged (and seen); 5 was overwritten; 7 may have been by the info write");
        assertEquals(0, r.lost());
    }

    /** Without the final reads' marker the analysis does not run, and the result has no report. */
    @Test
    void withoutFinalReadsThereIsNoReport() throws IOException {
        History h = read(
                event(0, "invoke", 0, 1.0, "[[\"append\",1,5]]")
                + event(1, "ok", 0, 2.0, "[[\"append\",1,5]]")
                + event(2, "invoke", 9, 4.0, "[[\"r\",1,null]]")
                + event(3, "ok", 9, 4.5, "[[\"r\",1,[]]]"));
        assertFalse(LostWrites.applies(h));
        Result checked = Checker.check(new CheckInput.KeyValue(h, HistoryFormat.JSONL, null),
                List.of(IsolationLevel.READ_COMMITTED), CheckOptions.DEFAULTS);
        assertNull(checked.lostWrites());
    }

    private static String event(int index, String type, int process, double seconds, String value) {
        return "{\"index\":" + index + ",\"type\":\"" + type + "\",\"process\":" + process + ",\"time\":"
                + (long) (seconds * 1e9) + ",\"f\":\"txn\",\"value\":" + value + "}\n";
    }

    private static History read(String text) throws IOException {
        return HistoryFormat.JSONL.reader().read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                "h.jsonl");
    }
}
