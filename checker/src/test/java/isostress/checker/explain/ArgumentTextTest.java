package isostress.checker.explain;

import isostress.checker.history.Outcome;
import isostress.checker.model.Anomaly;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.Argument;
import isostress.checker.model.Argument.Edge;
import isostress.checker.model.Argument.Read;
import isostress.checker.model.Argument.Version;
import isostress.checker.model.IsolationLevel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sentences of SQL counterexamples: the data of {@link Argument} told as the SQL checker always told it. */
class ArgumentTextTest {
    private static final Argument.SqlTxnFacts T1 = new Argument.SqlTxnFacts(1, IsolationLevel.SERIALIZABLE, 0,
            Outcome.OK, List.of("SELECT * FROM acct WHERE grp = 1 -> []"));
    private static final Argument.SqlTxnFacts T2 = new Argument.SqlTxnFacts(2, IsolationLevel.READ_COMMITTED, 1,
            Outcome.INFO, List.of("UPDATE acct (w2) WHERE id = 1 -> [acct:1 from init := {bal=5}]", "SELECT 1"));
    private static final Read READ = new Read(1, IsolationLevel.SERIALIZABLE, "SELECT", "acct", "grp = 1");

    @Test
    void aCommitOrderCycleNamesEachEdgeWithItsReasonThenTheContradiction() {
        Read byT3 = new Read(3, IsolationLevel.SNAPSHOT_ISOLATION, "UPDATE", "acct", "id = 1");
        Argument g = new Argument(List.of(T1, T2), new Argument.CommitOrderCycle(true), List.of(
                new Edge(Argument.INIT, 1, new Argument.InitFirst()),
                new Edge(1, 2, new Argument.SessionOrder(4)),
                new Edge(2, 1, new Argument.ReadFrom(READ, "acct:1", false, "{bal=5}")),
                new Edge(1, Argument.INIT, new Argument.Visible(byT3, "acct:1", Argument.INIT))), null, null, null);
        assertEquals("cycle in so ∪ wr ∪ saturated co", ArgumentText.kind(g.finding()));
        assertEquals("every commit order would need init < T1 < T2 < T1 < init", ArgumentText.message(g));
        assertEquals(List.of("init precedes every transaction.",
                "T2 follows T1 in session 4 (so).",
                "T1's SELECT WHERE grp = 1 did not return acct:1, so it saw T2's non-matching {bal=5} (wr).",
                "T3 (si)'s UPDATE WHERE id = 1 saw acct:1 as written by init; T1 also writes acct:1 and is visible to "
                        + "it (SI: it commits before a transaction the reader follows or read from, or before a "
                        + "transaction writing a key the reader writes), so T1 must commit before init (co).",
                "So init < T1 < T2 < T1 < init in every commit order: a contradiction!"), ArgumentText.however(g));
        assertEquals(List.of(1L, 2L, 1L), g.cycle(), "the initial state is no transaction of the cycle");
        assertEquals(List.of("T1 = [ser, session 0] SELECT * FROM acct WHERE grp = 1 -> []",
                "T2 = [rc, session 1, info] UPDATE acct (w2) WHERE id = 1 -> [acct:1 from init := {bal=5}]; SELECT 1"),
                ArgumentText.let(g));
    }

    @Test
    void aMissedRowAndAnInconsistentChoiceSayWhichVersionsMatch() {
        Version init = new Version(Argument.INIT, null, "{grp=1}");
        Version w2 = new Version(2, "w2", "{grp=0}");
        Argument missed = new Argument(List.of(T1), new Argument.MissedRow(READ, "acct:1", List.of(init, w2)),
                List.of(), "grp = 1", "acct:1", "init");
        assertEquals("T1 (ser)'s SELECT * FROM acct WHERE grp = 1 did not return acct:1, although init = {grp=1} "
                + "and T2 (w2) = {grp=0} match", ArgumentText.message(missed));
        assertEquals("Every version of acct:1 it could have seen matches (the other writers commit after T1 in every "
                + "order), so it must have returned the row: a contradiction!", ArgumentText.however(missed).get(1));
        Argument noOrder = new Argument(List.of(T1, T2), new Argument.NoCommitOrder(List.of(
                new Argument.Conflict(READ, "acct:1", List.of(init), List.of(w2))), 1), List.of(), null, null, null);
        assertEquals("no consistent commit order", ArgumentText.kind(noOrder.finding()));
        assertEquals("1 predicate reads missed rows and no commit order explains all of them (1 choice of the "
                + "versions they saw)", ArgumentText.message(noOrder));
        assertEquals(List.of("T1 (ser)'s SELECT * FROM acct WHERE grp = 1 did not return acct:1, although "
                        + "init = {grp=1} matches; so it saw one of: T2 (w2) = {grp=0}, and under ser the matching "
                        + "version must not be visible to it (must commit after T1) unless committed before the one "
                        + "it saw.",
                "No commit order satisfies every reader's axioms (each at its own level) for this choice: a "
                        + "contradiction!"), ArgumentText.however(noOrder));
    }

    @Test
    void readsOfTheWrongVersionSayWhatWasReadAndWhy() {
        assertEquals("T1 read acct:1 from w2, written by T2, which aborted",
                message(new Argument.AbortedRead(1, "acct:1", "w2", 2, true)));
        assertEquals("T1 read acct:1 from w2, written by T2, which is not known to have committed",
                message(new Argument.AbortedRead(1, "acct:1", "w2", 2, false)));
        assertEquals("T1 read acct:1 from w2, which T2 overwrote itself before committing",
                message(new Argument.IntermediateRead(1, "acct:1", "w2", 2)));
        assertEquals("T1 read its own write w1 of acct:1 before making it",
                message(new Argument.ReadBeforeOwnWrite(1, "acct:1", "w1")));
        assertEquals("T1 SELECT WHERE grp = 1 returned acct:1 from w2 = {grp=0}, which does not satisfy the predicate",
                message(new Argument.PredicateMismatch(READ, "acct:1", "w2", "{grp=0}")));
        assertEquals("T1 returned acct:1 from w2 as {bal=1}, but that version is {bal=2}",
                message(new Argument.ValueMismatch(1, "acct:1", "w2", "{bal=1}", "{bal=2}")));
        Argument own = new Argument(List.of(T1), new Argument.OwnWriteMissed(READ, "acct:1", "w1", "{grp=1}", true,
                null), List.of(), "grp = 1", "acct:1", "w1");
        assertEquals(List.of("T1's SELECT WHERE grp = 1 follows its own write w1 of acct:1 = {grp=1}, which matches, "
                + "but it did not return it: a transaction must see its own writes."), ArgumentText.however(own));
        assertEquals("internal", ArgumentText.kind(own.finding()));
    }

    @Test
    void theTextRendererTellsTheArgumentUnderLetAndHowever() {
        Argument g = new Argument(List.of(T1), new Argument.AbortedRead(1, "acct:1", "w2", 2, true), List.of(),
                null, "acct:1", "w2");
        String text = TextRenderer.render(Anomaly.of(AnomalyType.G1A, IsolationLevel.READ_COMMITTED, g));
        assertEquals("G1a — violates read-committed\n"
                + "aborted read: T1 read acct:1 from w2, written by T2, which aborted\n"
                + "Let:\n"
                + "  T1 = [ser, session 0] SELECT * FROM acct WHERE grp = 1 -> []\n"
                + "However:\n"
                + "  T1 read acct:1 from w2, written by T2, which aborted.\n", text);
        String dot = DotRenderer.render(Anomaly.of(AnomalyType.COMMIT_ORDER_CYCLE, null, new Argument(List.of(T1, T2),
                new Argument.CommitOrderCycle(false), List.of(new Edge(1, 2, new Argument.SessionOrder(0)),
                new Edge(2, 1, new Argument.ReadFrom(READ, "acct:1", true, null))), null, null, null)));
        assertTrue(dot.contains("T1 -> T2 [label=\"T2 follows T1 in session 0 (so)\""), dot);
        // Labels are wrapped at about 60 characters, so the graph stays legible.
        assertTrue(dot.contains("T2 -> T1 [label=\"T1's SELECT WHERE grp = 1 returned acct:1 as written by T2\n(wr)\""),
                dot);
    }

    private static String message(Argument.Finding f) {
        return ArgumentText.message(new Argument(List.of(T1), f, List.of(), null, null, null));
    }
}
