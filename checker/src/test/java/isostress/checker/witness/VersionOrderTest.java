package isostress.checker.witness;

import isostress.checker.Checker;
import isostress.checker.Hist;
import isostress.checker.explain.TextRenderer;
import isostress.checker.history.History;
import isostress.checker.model.Anomaly;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.model.VersionOrder;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static isostress.checker.witness.WitnessJoinTest.witness;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commit log's per-key order as the version order (docs/witness.md): hand-made histories that are serializable
 * under some version order but not under the log's, a list read that contradicts the log, nodes that disagree, and
 * the order the join builds.
 */
class VersionOrderTest {
    private static final List<IsolationLevel> LEVELS = List.of(IsolationLevel.READ_COMMITTED,
            IsolationLevel.READ_ATOMIC, IsolationLevel.CAUSAL, IsolationLevel.PREFIX,
            IsolationLevel.PARALLEL_SNAPSHOT_ISOLATION, IsolationLevel.SNAPSHOT_ISOLATION,
            IsolationLevel.SERIALIZABLE);

    private static Result check(History h, VersionOrder order, IsolationLevel l) {
        return order == null ? Checker.checkGeneral(h, List.of(l), CheckOptions.DEFAULTS)
                : Checker.check(h, List.of(l), CheckOptions.DEFAULTS, order);
    }

    private static String text(Result r) {
        return r.anomalies().stream().map(TextRenderer::render).collect(Collectors.joining("\n"));
    }

    /**
     * T0 writes x=1 and reads y's initial value; T1 writes x=2 and y=5. With x's order open, T0 before T1 serializes
     * them; the log commits T1 first, so T1 -ww-> T0 (x) and T0 -rw-> T1 (y): a cycle with one rw edge.
     */
    @Test
    void registersValidUnderSomeOrderButNotTheLogs() throws IOException {
        History h = new Hist().ok(1, "w 1 1, r 2 nil").ok(2, "w 1 2, w 2 5").build();
        Witness w = witness("{\"pos\":17,\"node\":\"n1\",\"txid\":\"731\",\"writes\":[[\"w\",1,2],[\"w\",2,5]]}",
                "{\"pos\":23,\"node\":\"n1\",\"txid\":\"732\",\"writes\":[[\"w\",1,1]]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        assertEquals(0, j.report().findingCount());
        assertEquals(List.of(2L, 1L), j.order().keys().get(1L).stream().map(VersionOrder.Write::value).toList());
        for (IsolationLevel l : List.of(IsolationLevel.SERIALIZABLE, IsolationLevel.SNAPSHOT_ISOLATION)) {
            assertEquals(Verdict.VALID, check(j.resolved(), null, l).level(l).verdict(), "without the log at " + l);
            Result r = check(j.resolved(), j.order(), l);
            assertEquals(Verdict.INVALID, r.level(l).verdict(), "with the log at " + l);
            String t = text(r);
            assertTrue(t.contains("T0 overwrote key 1 = 2, written by T1, with 1 in the database's commit order "
                    + "(log n1 pos 17 → pos 23)"), t);
        }
        assertEquals(Verdict.VALID, check(j.resolved(), j.order(), IsolationLevel.CAUSAL).level(IsolationLevel.CAUSAL)
                .verdict(), "causal allows it: T0 does not observe T1");
        Result r = check(j.resolved(), j.order(), IsolationLevel.SERIALIZABLE);
        @SuppressWarnings("unchecked")
        Map<String, Object> vo = (Map<String, Object>) r.stats().get("version_order");
        assertEquals(2, vo.get("keys_from_log"));
    }

    /** The same with lists: nobody reads x, so its append order is open without the log. */
    @Test
    void listsValidUnderSomeOrderButNotTheLogs() throws IOException {
        History h = new Hist().ok(1, "append 1 1, r 2 []").ok(2, "append 1 2, append 2 5").build();
        Witness w = witness(
                "{\"pos\":17,\"node\":\"n1\",\"txid\":\"731\",\"writes\":[[\"append\",1,2],[\"append\",2,5]]}",
                "{\"pos\":23,\"node\":\"n1\",\"txid\":\"732\",\"writes\":[[\"append\",1,1]]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        assertEquals(0, j.report().findingCount());
        IsolationLevel l = IsolationLevel.SERIALIZABLE;
        assertEquals(Verdict.VALID, check(j.resolved(), null, l).level(l).verdict());
        Result r = check(j.resolved(), j.order(), l);
        assertEquals(Verdict.INVALID, r.level(l).verdict());
        assertTrue(text(r).contains("T0 appended 1 to key 1 after T1's 2 in the database's commit order (log n1 pos 17 "
                + "→ pos 23)"), text(r));
    }

    /** T2 reads [2 1], but the log commits T0's 1 first: the read shows an order the database did not commit. */
    @Test
    void listReadContradictingTheLogIsAViolation() throws IOException {
        History h = new Hist().ok(1, "append 1 1").ok(2, "append 1 2").ok(3, "r 1 [2 1]").build();
        Witness w = witness("{\"pos\":17,\"node\":\"n1\",\"txid\":\"731\",\"writes\":[[\"append\",1,1]]}",
                "{\"pos\":23,\"node\":\"n1\",\"txid\":\"732\",\"writes\":[[\"append\",1,2]]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        IsolationLevel l = IsolationLevel.READ_COMMITTED;
        assertEquals(Verdict.VALID, check(j.resolved(), null, l).level(l).verdict());
        Result r = check(j.resolved(), j.order(), l);
        assertEquals(Verdict.INVALID, r.level(l).verdict());
        Anomaly a = r.anomalies().get(0);
        assertEquals(AnomalyType.INCOMPATIBLE_ORDER, a.type());
        assertTrue(text(r).contains("T2 read key 1 = [2 1], but in the database's commit order (log n1: the initial "
                + "value, then pos 17) T0's append of 1 comes first: the read shows an order the database did not "
                + "commit."), text(r));
    }

    /** A read that is a prefix of the log's order is no violation, and the order agrees with the reads'. */
    @Test
    void listReadsThatArePrefixesOfTheLogAreValid() throws IOException {
        History h = new Hist().ok(1, "append 1 1").ok(2, "r 1 [1], append 1 2").ok(3, "r 1 [1 2]").build();
        Witness w = witness("{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"append\",1,1]]}",
                "{\"pos\":2,\"node\":\"n1\",\"txid\":\"2\",\"writes\":[[\"append\",1,2]]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        for (IsolationLevel l : LEVELS) {
            assertEquals(Verdict.VALID, check(j.resolved(), j.order(), l).level(l).verdict(), l.alias());
        }
    }

    /** Two nodes ordering key 1's writes differently: said, and the key's order is searched for. */
    @Test
    void nodesThatDisagreeAreSaidAndTheKeyIsSearched() throws IOException {
        History h = new Hist().ok(1, "w 1 1, r 2 nil").ok(2, "w 1 2, w 2 5").build();
        Witness w = witness("{\"pos\":17,\"node\":\"n1\",\"txid\":\"731\",\"writes\":[[\"w\",1,2],[\"w\",2,5]]}",
                "{\"pos\":23,\"node\":\"n1\",\"txid\":\"732\",\"writes\":[[\"w\",1,1]]}",
                "{\"pos\":4,\"node\":\"n2\",\"txid\":\"731\",\"writes\":[[\"w\",1,1]]}",
                "{\"pos\":9,\"node\":\"n2\",\"txid\":\"732\",\"writes\":[[\"w\",1,2],[\"w\",2,5]]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        assertNull(j.order().keys().get(1L));
        assertEquals("key 1: n1 logs 2 before 1 (pos 17, pos 23), n2 logs 1 before 2 (pos 4, pos 9)",
                j.order().disagreements().get(1L));
        assertFalse(j.order().disagreements().containsKey(2L));
        Result r = check(j.resolved(), j.order(), IsolationLevel.SERIALIZABLE);
        assertEquals(Verdict.VALID, r.verdict(), "x's order is searched for, and T0 before T1 serializes them");
        @SuppressWarnings("unchecked")
        Map<String, Object> vo = (Map<String, Object>) r.stats().get("version_order");
        assertEquals(1, vo.get("keys_whose_logs_disagree"));
        assertEquals(1, vo.get("keys_from_log"));
    }

    /**
     * A mini-transaction history goes to the mini-transaction checkers when the log orders each key as its
     * read-modify-writes do (they infer that order), and to the general checker with the log's order otherwise.
     */
    @Test
    void miniHistoriesKeepTheirCheckersWhenTheLogAgreesWithTheReads() throws IOException {
        History h = new Hist().ok(1, "r 1 nil, w 1 1").ok(2, "r 1 1, w 1 2").build();
        String first = "{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"w\",1,1]]}";
        String second = "{\"pos\":2,\"node\":\"n1\",\"txid\":\"2\",\"writes\":[[\"w\",1,2]]}";
        IsolationLevel l = IsolationLevel.READ_COMMITTED;
        Result agrees = check(h, WitnessJoin.join(h, witness(first, second), 10).order(), l);
        assertEquals(Checker.check(h, List.of(l), CheckOptions.DEFAULTS).shape(), agrees.shape());
        assertEquals(Verdict.VALID, agrees.level(l).verdict());
        String firstLater = first.replace("\"pos\":1", "\"pos\":3");
        Result contradicts = check(h, WitnessJoin.join(h, witness(second, firstLater), 10).order(), l);
        assertEquals(Checker.RW_REGISTER, contradicts.shape());
        assertEquals(Verdict.INVALID, contradicts.level(l).verdict(), "T0 -wr-> T1 -ww-> T0 in the log's order");
        assertTrue(text(contradicts).contains("in the database's commit order (log n1 pos 2 → pos 3)"),
                text(contradicts));
    }

    /**
     * A key the log deletes has no order from the log (after the delete its row starts again, which is no version of
     * the history's chain): it is searched for, as when nodes disagree, while the other keys keep the log's order.
     * Here the log's order of key 1 would make the history invalid (as in the test above); searched for, it is valid.
     */
    @Test
    void aKeyTheLogDeletesIsSearched() throws IOException {
        History h = new Hist().ok(1, "w 1 1, r 2 nil").ok(2, "w 1 2, w 2 5").build();
        Witness w = witness("{\"pos\":17,\"node\":\"n1\",\"txid\":\"731\",\"writes\":[[\"w\",1,2],[\"w\",2,5]]}",
                "{\"pos\":20,\"node\":\"n1\",\"txid\":\"740\",\"writes\":[[\"delete\",1]]}",
                "{\"pos\":23,\"node\":\"n1\",\"txid\":\"732\",\"writes\":[[\"w\",1,1]]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        assertEquals(1, j.report().unrecordedWrite());
        assertNull(j.order().keys().get(1L));
        assertFalse(j.order().disagreements().containsKey(1L));
        assertEquals(List.of(5L), j.order().keys().get(2L).stream().map(VersionOrder.Write::value).toList());
        IsolationLevel ser = IsolationLevel.SERIALIZABLE;
        Result r = check(j.resolved(), j.order(), ser);
        assertEquals(Verdict.VALID, r.level(ser).verdict(), "key 1 searched for: T0 before T1 serializes them");
        @SuppressWarnings("unchecked")
        Map<String, Object> vo = (Map<String, Object>) r.stats().get("version_order");
        assertEquals(1, vo.get("keys_from_log"));
        assertEquals(1, vo.get("keys_not_in_log_completely"));
    }

    /** Writes of failed transactions (failed-but-committed) and unrecorded writes take no part in the order. */
    @Test
    void onlyCommittedWritesOfTheHistoryTakePart() throws IOException {
        History h = new Hist().ok(1, "w 1 1").fail(2, "w 1 2").ok(3, "r 1 1").build();
        Witness w = witness("{\"pos\":1,\"node\":\"n1\",\"txid\":\"1\",\"writes\":[[\"w\",1,1]]}",
                "{\"pos\":2,\"node\":\"n1\",\"txid\":\"2\",\"writes\":[[\"w\",1,2]]}",
                "{\"pos\":3,\"node\":\"n1\",\"txid\":\"3\",\"writes\":[[\"w\",1,7]]}");
        WitnessJoin.Joined j = WitnessJoin.join(h, w, 10);
        assertEquals(List.of(1L), j.order().keys().get(1L).stream().map(VersionOrder.Write::value).toList());
        assertEquals(Verdict.VALID, check(j.resolved(), j.order(), IsolationLevel.SERIALIZABLE)
                .level(IsolationLevel.SERIALIZABLE).verdict());
    }
}
