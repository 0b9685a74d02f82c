package isostress.checker.witness;

import isostress.checker.Checker;
import isostress.checker.Hist;
import isostress.checker.explain.ResultJson;
import isostress.checker.explain.TextRenderer;
import isostress.checker.history.History;
import isostress.checker.model.Anomaly;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.model.WitnessTxn;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static isostress.checker.witness.WitnessJoinTest.witness;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A counterexample checked with the database's commit log shows where its writers are in each node's log: here a
 * long fork on a primary (n1) and a hot standby (n2), whose logs both commit T1 before T2, while a reader saw T2
 * without T1.
 */
class CommitLogNotesTest {
    /** T1 writes x, T2 writes y; T3 sees T1 without T2 (as the standby does), T4 sees T2 without T1. */
    private static final History LONG_FORK = new Hist().ok(1, "w 1 1").ok(2, "w 2 1").ok(3, "r 1 1, r 2 nil")
            .ok(4, "r 1 nil, r 2 1").build();

    private static final String[] LOG = {
        "{\"pos\":100,\"node\":\"n1\",\"txid\":\"731\",\"writes\":[[\"w\",1,1]]}",
        "{\"pos\":140,\"node\":\"n1\",\"txid\":\"732\",\"writes\":[[\"w\",2,1]]}",
        "{\"pos\":100,\"node\":\"n2\",\"txid\":\"731\",\"writes\":[[\"w\",1,1]]}",
        "{\"pos\":140,\"node\":\"n2\",\"txid\":\"732\",\"writes\":[[\"w\",2,1]]}"};

    @Test
    void longForkShowsItsWritersInEachNodesLog() throws IOException {
        Witness w = witness(LOG);
        WitnessJoin.Joined j = WitnessJoin.join(LONG_FORK, w, 10);
        assertEquals(0, j.report().findingCount(), j.report().summary());
        IsolationLevel si = IsolationLevel.SNAPSHOT_ISOLATION;
        Result r = Checker.check(j.resolved(), List.of(si), CheckOptions.DEFAULTS, j.order());
        assertEquals(Verdict.INVALID, r.level(si).verdict());
        Result annotated = CommitLogNotes.annotate(r, j.resolved(), w);
        Anomaly a = annotated.anomalies().get(0);
        List<WitnessTxn> t1 = a.commitLog().get(0), t2 = a.commitLog().get(1);
        assertEquals(List.of("n1 pos 100", "n2 pos 100"), t1.stream().map(l -> l.node() + " pos " + l.pos()).toList());
        assertEquals(List.of("n1 pos 140", "n2 pos 140"), t2.stream().map(l -> l.node() + " pos " + l.pos()).toList());
        assertEquals(2, a.commitLog().size(), "the readers wrote nothing: they are not in the log");
        String text = TextRenderer.render(a);
        assertTrue(text.contains("In the database's commit log:\n"), text);
        assertTrue(text.contains("  T0: n1 pos 100 (txid 731, line 1); n2 pos 100 (txid 731, line 3)\n"), text);
        String json = ResultJson.anomaly(a).toString();
        assertTrue(json.contains("\"commit_log\":[{\"txn\":0,\"node\":\"n1\",\"pos\":100,\"txid\":\"731\",\"line\":1}"),
                json);
    }

    @Test
    void withoutAnomaliesOrLogTheResultIsUnchanged() throws IOException {
        History valid = new Hist().ok(1, "w 1 1").ok(2, "r 1 1").build();
        Witness w = witness("{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"w\",1,1]]}");
        Result r = Checker.checkGeneral(valid, List.of(IsolationLevel.SERIALIZABLE), CheckOptions.DEFAULTS);
        assertSame(r, CommitLogNotes.annotate(r, valid, w));
        Result bad = Checker.checkGeneral(LONG_FORK, List.of(IsolationLevel.SNAPSHOT_ISOLATION), CheckOptions.DEFAULTS);
        Result none = CommitLogNotes.annotate(bad, LONG_FORK, witness(
                "{\"pos\":1,\"node\":\"n1\",\"txid\":\"9\",\"writes\":[[\"w\",7,7]]}"));
        assertTrue(none.anomalies().get(0).commitLog().isEmpty());
        assertFalse(TextRenderer.render(none.anomalies().get(0)).contains("commit log"));
    }
}
