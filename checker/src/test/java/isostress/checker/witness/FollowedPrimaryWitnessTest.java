package isostress.checker.witness;

import isostress.checker.CheckInput;
import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.history.InputException;
import isostress.checker.history.Outcome;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LostWrite;
import isostress.checker.model.Result;
import isostress.checker.model.WitnessFinding;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static isostress.checker.witness.WitnessJoinTest.witness;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A witness from a capture that follows a moving primary: lines naming their timeline, {@code log} lines saying when
 * each member's log was read, the join that takes no verdict from a log that was not read while a transaction ran,
 * and the final reads' lost writes citing the log (a zombie's commit past the promoted member's branch point).
 */
class FollowedPrimaryWitnessTest {
    /** n1 on timeline 1 read until 3 s and a primary until 5 s; n2 promoted to timeline 2 at 0/3000000, read from 4 s. */
    private static final String N1 = "{\"log\":{\"node\":\"n1\",\"timeline\":1,\"branches\":[],\"primary_from_ns\":null,"
            + "\"read_from_ns\":-1000,\"read_to_ns\":3000000000,\"primary_to_ns\":5000000000}}";
    private static final String N2 = "{\"log\":{\"node\":\"n2\",\"timeline\":2,\"branches\":[[1,50331648]],"
            + "\"primary_from_ns\":2500000000,\"read_from_ns\":4000000000,\"read_to_ns\":9000000000,"
            + "\"primary_to_ns\":null}}";

    @Test
    void timelinesAndLogLinesAreReadAndOldLinesStayReadable() throws IOException {
        Witness w = witness("{\"pos\":17,\"node\":\"n1\",\"txid\":\"731\",\"writes\":[[\"w\",3,17]]}",
                "{\"pos\":50331700,\"node\":\"n1\",\"timeline\":1,\"txid\":\"740\",\"writes\":[[\"append\",1,5]]}",
                // n2's positions go on from its branch point, below n1's last: a log per node and timeline
                "{\"pos\":50331660,\"node\":\"n2\",\"timeline\":2,\"txid\":\"741\",\"writes\":[[\"append\",1,6]]}",
                N1, N2);
        assertEquals(3, w.size());
        assertEquals(-1, w.timeline(0));
        assertEquals(1, w.timeline(1));
        assertEquals(2, w.timeline(2));
        assertEquals("n2 timeline 2 pos 50331660 (txid 741, line 3)", w.txn(2).label());
        assertEquals(2, w.captureLogs().size());
        CaptureLog n2 = w.captureLogs().get(1);
        assertEquals(50331648, n2.switchPoint(1));
        assertEquals(Long.MAX_VALUE, n2.primaryTo());
        assertEquals(List.of(new CaptureLog.Gap("n2", 2, 2_500_000_000L, 4_000_000_000L)), n2.gaps());
        assertEquals(List.of(new CaptureLog.Gap("n1", 1, 3_000_000_000L, 5_000_000_000L)), w.captureLogs().get(0).gaps());
        InputException e = assertThrows(InputException.class, () -> witness(
                "{\"pos\":5,\"node\":\"n2\",\"timeline\":2,\"txid\":\"1\",\"writes\":[]}",
                "{\"pos\":5,\"node\":\"n2\",\"timeline\":2,\"txid\":\"2\",\"writes\":[]}"));
        assertTrue(e.getMessage().contains("witness.jsonl:2: \"pos\" 5 does not increase within node \"n2\" on "
                + "timeline 2"), e.getMessage());
        e = assertThrows(InputException.class, () -> witness("{\"log\":{\"node\":\"n1\",\"timeline\":1,"
                + "\"read_from_ns\":5,\"read_to_ns\":null}}"));
        assertTrue(e.getMessage().contains("witness.jsonl:1: \"log\": \"read_from_ns\" and \"read_to_ns\""),
                e.getMessage());
        e = assertThrows(InputException.class, () -> witness("{\"log\":{\"node\":\"n1\",\"timeline\":1},\"pos\":1}"));
        assertTrue(e.getMessage().contains("a \"log\" line"), e.getMessage());
    }

    /**
     * T0 ran at 1-2 s, while n1 was read: the log lacking it is a lost write. T1 (ok) and T2 (info) ran at 3.5-3.8 s,
     * after n1's last read and before n2's slot: no log was read that would hold them, so neither is lost nor aborted.
     */
    @Test
    void aTransactionRunDuringACaptureGapIsNotJudged() throws IOException {
        History h = read(event(0, "invoke", 0, 1.0, "[[\"append\",1,5]]")
                + event(1, "ok", 0, 2.0, "[[\"append\",1,5]]")
                + event(2, "invoke", 1, 3.5, "[[\"append\",2,6]]")
                + event(3, "invoke", 2, 3.6, "[[\"append\",3,7]]")
                + event(4, "ok", 1, 3.7, "[[\"append\",2,6]]")
                + event(5, "info", 2, 3.8, "[[\"append\",3,7]]"));
        WitnessJoin.Joined j = WitnessJoin.join(h, witness(N1, N2), 10);
        assertEquals(1, j.report().lostWrite(), j.report().summary());
        assertEquals(0, j.report().findings().get(0).txn().id());
        assertEquals(2, j.report().inCaptureGap(), j.report().summary());
        assertEquals(0, j.report().infoAborted(), "an info writer in a gap stays info");
        assertEquals(Outcome.INFO, j.resolved().outcome(2));
        assertTrue(j.report().summary().endsWith("; 2 writers in capture gaps (no log read then; neither lost nor "
                + "aborted)"), j.report().summary());
        // Without the log lines, the same log lacking them makes all three findings or aborts.
        WitnessJoin.Joined plain = WitnessJoin.join(h, witness(), 10);
        assertEquals(2, plain.report().lostWrite());
        assertEquals(1, plain.report().infoAborted());
        assertEquals(0, plain.report().inCaptureGap());
    }

    /**
     * The zombie n1 acknowledged T0's append at 2 s and logged it on timeline 1 at 0/3000040, past 0/3000000 where
     * n2's timeline 2 left timeline 1; the final read on n2 lacks it. The lost write cites both. T1's append, which
     * no log holds and which ran in n1's gap, says the capture cannot tell.
     */
    @Test
    void aLostWriteCitesTheZombiesCommitAndTheBranchPoint() throws IOException {
        History h = read(event(0, "invoke", 0, 1.0, "[[\"append\",1,5]]")
                + event(1, "ok", 0, 2.0, "[[\"append\",1,5]]")
                + event(2, "invoke", 1, 3.5, "[[\"append\",1,6]]")
                + event(3, "ok", 1, 3.7, "[[\"append\",1,6]]")
                + "{\"index\":4,\"type\":\"info\",\"process\":\"nemesis\",\"f\":\"final-reads\",\"value\":{\"keys\":1}}\n"
                + event(5, "invoke", 9, 8.0, "[[\"r\",1,null]]")
                + event(6, "ok", 9, 8.5, "[[\"r\",1,[]]]"));
        Witness w = witness("{\"pos\":50331712,\"node\":\"n1\",\"timeline\":1,\"txid\":\"740\",\"writes\":"
                + "[[\"append\",1,5]]}", N1, N2);
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        assertEquals(0, j.report().findingCount(), j.report().summary());
        Result r = Checker.check(new CheckInput.KeyValue(j.resolved(), HistoryFormat.JSONL, j.order()),
                List.of(IsolationLevel.READ_COMMITTED), CheckOptions.DEFAULTS).withWitness(j.report());
        r = CommitLogNotes.annotate(r, j.resolved(), j.log());
        assertEquals(2, r.lostWrites().lost());
        LostWrite zombie = r.lostWrites().findings().get(0);
        assertTrue(zombie.explanation().endsWith("n1's commit log has it (timeline 1, commit LSN 0/3000040, txid 740, "
                + "line 1); n2 was promoted to timeline 2, which left timeline 1 at LSN 0/3000000, before it: the "
                + "commit is not on the timeline that survived. The final reads, on n2 (timeline 2, the primary when "
                + "the capture ended), lack it."), zombie.explanation());
        LostWrite unread = r.lostWrites().findings().get(1);
        assertTrue(unread.explanation().endsWith("No captured commit log holds it, but n1's log (timeline 1) was not "
                + "read from 3.000 s to 5.000 s, while it ran: the capture cannot tell where it committed."),
                unread.explanation());
        for (WitnessFinding f : j.report().findings()) throw new AssertionError(f.toString());
    }

    /**
     * T0's client timed out (info) while its commit waited on n1, which logged it on timeline 1 at 0/3000040, past
     * where n2's timeline 2 left timeline 1: it committed and a failover undid it. It stays info (not ok: the final
     * read lacks it, which no committed write allows; not fail: it committed), and it is no lost write, its client
     * never having been told COMMIT. T1's info append, logged on n2's surviving timeline 2, is counted committed and
     * stays info (when it committed is not known).
     */
    @Test
    void anInfoCommitOnADiscardedTimelineStaysInfoAndIsNoLostWrite() throws IOException {
        History h = read(event(0, "invoke", 0, 1.0, "[[\"append\",1,5]]")
                + event(1, "info", 0, 2.0, "[[\"append\",1,5]]")
                + event(2, "invoke", 1, 4.1, "[[\"append\",1,6]]")
                + event(3, "info", 1, 4.5, "[[\"append\",1,6]]")
                + "{\"index\":4,\"type\":\"info\",\"process\":\"nemesis\",\"f\":\"final-reads\",\"value\":{\"keys\":1}}\n"
                + event(5, "invoke", 9, 8.0, "[[\"r\",1,null]]")
                + event(6, "ok", 9, 8.5, "[[\"r\",1,[6]]]"));
        Witness w = witness("{\"pos\":50331712,\"node\":\"n1\",\"timeline\":1,\"txid\":\"740\",\"writes\":"
                + "[[\"append\",1,5]]}",
                "{\"pos\":50331800,\"node\":\"n2\",\"timeline\":2,\"txid\":\"741\",\"writes\":[[\"append\",1,6]]}",
                N1, N2);
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        assertEquals(Outcome.INFO, j.resolved().outcome(0), "committed on a discarded timeline: stays info");
        assertEquals(Outcome.INFO, j.resolved().outcome(1), "committed on the surviving timeline: counted, stays info");
        assertEquals(1, j.report().infoCommitted(), j.report().summary());
        assertEquals(0, j.report().infoAborted(), j.report().summary());
        Result r = Checker.check(new CheckInput.KeyValue(j.resolved(), HistoryFormat.JSONL, j.order()),
                List.of(IsolationLevel.SERIALIZABLE), CheckOptions.DEFAULTS);
        assertEquals(0, r.lostWrites().lost(), "no acknowledged write was lost");
        assertEquals(isostress.checker.model.Verdict.VALID, r.verdict(), r.anomalyCounts().toString());
    }

    /**
     * T0's COMMIT waited for a synchronous standby; its client's socket timed out at 2.0 s (info). The primary's log
     * has the commit on its surviving timeline, but the commit took effect only when the wait ended, after the final
     * read began at 3.0 s (on a Patroni cluster: the wait was cancelled at the server's shutdown). The final read
     * rightly lacks T0's append. T0 is counted committed and stays info: made ok, its info event would be its
     * completion, and real-time order would put it before the final read, a G-single-realtime the database never made.
     */
    @Test
    void anInfoCommitIsNoBoundOnWhenTheServerCommittedIt() throws IOException {
        History h = read(event(0, "invoke", 0, 1.0, "[[\"append\",7,18709]]")
                + event(1, "info", 0, 2.0, "[[\"append\",7,18709]]")
                + "{\"index\":2,\"type\":\"info\",\"process\":\"nemesis\",\"f\":\"final-reads\",\"value\":{\"keys\":1}}\n"
                + event(3, "invoke", 9, 3.0, "[[\"r\",7,null]]")
                + event(4, "ok", 9, 3.1, "[[\"r\",7,[]]]"));
        Witness w = witness("{\"pos\":50331712,\"node\":\"n1\",\"timeline\":1,\"txid\":\"6798\",\"writes\":"
                + "[[\"append\",7,18709]]}", N1);
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        assertEquals(1, j.report().infoCommitted(), j.report().summary());
        assertEquals(Outcome.INFO, j.resolved().outcome(0), "committed, but when is not known");
        for (WitnessFinding f : j.report().findings()) throw new AssertionError(f.toString());
        Result r = Checker.check(new CheckInput.KeyValue(j.resolved(), HistoryFormat.JSONL, j.order()),
                List.of(IsolationLevel.STRICT_SERIALIZABLE), CheckOptions.DEFAULTS);
        assertEquals(isostress.checker.model.Verdict.VALID, r.verdict(), r.anomalyCounts().toString());
        // Made ok with its info event as its completion, the same history is a G-single-realtime.
        Result asOk = Checker.check(new CheckInput.KeyValue(h.withOutcomes(java.util.Map.of(0, Outcome.OK)),
                HistoryFormat.JSONL, j.order()), List.of(IsolationLevel.STRICT_SERIALIZABLE), CheckOptions.DEFAULTS);
        assertEquals(isostress.checker.model.Verdict.INVALID, asOk.verdict(), asOk.anomalyCounts().toString());
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
