package isostress.harness.run;

import isostress.checker.model.LevelResult;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code workload.type: sql} end to end against embedded PostgreSQL 16: the recorded history is well formed, and the
 * SQL checker finds what PostgreSQL promises. PostgreSQL implements the mixed semantics of Bouajjani, Enea and
 * Román-Calvo, CAV 2025 (each transaction's reads obey its own level), so a mix of serializable and read-committed transactions is valid at
 * their own levels, while the read-committed transactions' anomalies show when the same history is checked as if
 * everything ran serializable.
 */
class SqlWorkloadPostgresTest {
    @TempDir
    Path store;

    static String yaml(String name, String mix, int txns, long seed, String levels) {
        return "name: " + name + "\n"
                + "database: {type: postgresql, provision: embedded, op-pause: 5ms}\n"
                + "workload: {type: sql, sessions: 3, transactions: " + txns + ", keys: 4, groups: 2, seed: " + seed
                + ", isolation-mix: " + mix + "}\n"
                + "check: {timeout: 15s" + (levels == null ? "" : ", levels: " + levels) + "}\n";
    }

    static LevelResult check(RunOutcome o, String level) {
        assertNotNull(o.result(), "not checked: " + o.unchecked());
        for (LevelResult c : o.result().levels()) if (c.name().equals(level)) return c;
        throw new AssertionError("no check " + level + " in " + o.result().levels());
    }

    /** The run's counterexamples as text, for assertion messages. */
    static String text(RunOutcome o) {
        StringBuilder sb = new StringBuilder();
        for (var a : o.result().anomalies()) sb.append(isostress.checker.explain.TextRenderer.render(a));
        return check(o, "own").reason() + "\n" + sb;
    }

    @Test
    void recordsAWellFormedHistoryAtEachTransactionsLevel() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml("pg-sql-mixed",
                "{serializable: 60, read-committed: 40}", 30, 5, null)));
        assertNull(o.error(), o.error());
        SqlHistoryAudit h = new SqlHistoryAudit(o.dir().history()).wellFormed();
        assertEquals(30, h.txns.size());
        assertEquals(Set.of("ser", "rc"), h.levels.keySet(), "levels " + h.levels);
        assertTrue(h.outcomes.getOrDefault("ok", 0) >= 15, "outcomes " + h.outcomes);
        assertTrue(h.rowsChecked >= 20, "only " + h.rowsChecked + " returned rows");
        assertEquals(30, o.stats().attempted());
        assertEquals(1, o.result().levels().size(), "without check.levels only the own levels are checked");
    }

    @Test
    void allSerializableIsValid() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml("pg-sql-ser", "{serializable: 1}", 30, 7, null)));
        assertNull(o.error(), o.error());
        assertEquals(Set.of("ser"), new SqlHistoryAudit(o.dir().history()).wellFormed().levels.keySet());
        if (check(o, "own").verdict() != Verdict.VALID) SqlHistoryAudit.keep(o);
        assertEquals(Verdict.VALID, check(o, "own").verdict(), text(o));
        assertEquals(0, o.exitStatus());
    }

    /**
     * Three runs (seeds 11-13) of a 50/50 mix: at least one is valid at the transactions' own levels while the same
     * history checked as all-serializable is invalid (the read-committed transactions' anomalies). Measured: own
     * levels valid in 24 of 25 runs (1 unknown), all-serializable invalid in most. An own-level violation is possible
     * and real (PostgreSQL's SSI ignores read-committed writers: {@code PostgresMixedSerializableTest}); such a
     * history is kept under target/sql-kept and reported, not failed.
     */
    @Test
    void readCommittedWritersAreValidAtTheirOwnLevelsButNotAsSerializable() throws Exception {
        var c = Campaigns.parse(store, yaml("pg-sql-rc", "{serializable: 50, read-committed: 50}", 30, 11,
                "[serializable]")).withRuns(3);
        StringWriter sw = new StringWriter();
        List<RunOutcome> runs = new CampaignRunner(c, new PrintWriter(sw), false).runAll(11);
        System.out.print(sw);
        int shown = 0;
        for (RunOutcome o : runs) {
            assertNull(o.error(), o.error());
            new SqlHistoryAudit(o.dir().history()).wellFormed();
            Verdict own = check(o, "own").verdict(), ser = check(o, "serializable").verdict();
            if (own == Verdict.INVALID) {
                System.out.println("invalid at the transactions' own levels (kept in " + SqlHistoryAudit.keep(o)
                        + "): " + check(o, "own").reason());
            }
            if (own == Verdict.VALID && ser == Verdict.INVALID) {
                shown++;
                assertEquals(1, o.exitStatus(), "check.levels counts toward the run's verdict");
            }
        }
        assertEquals(3, runs.size());
        assertTrue(shown >= 1, "no run was valid at its own levels and invalid as all-serializable");
    }
}
