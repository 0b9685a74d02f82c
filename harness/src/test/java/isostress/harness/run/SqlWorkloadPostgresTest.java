package isostress.harness.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code workload.type: sql} end to end against embedded PostgreSQL 16 (issue 7). */
class SqlWorkloadPostgresTest {
    @TempDir
    Path store;

    static String yaml(String name, String mix, int txns, long seed) {
        return "name: " + name + "\n"
                + "database: {type: postgresql, provision: embedded, op-pause: 3ms}\n"
                + "workload: {type: sql, sessions: 3, transactions: " + txns + ", keys: 6, groups: 2, seed: " + seed
                + ", isolation-mix: " + mix + "}\n";
    }

    @Test
    void recordsAWellFormedHistoryAtEachTransactionsLevel() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml("pg-sql-mixed", "{serializable: 60, read-committed: 40}",
                60, 5)));
        assertNull(o.error(), o.error());
        SqlHistoryAudit h = new SqlHistoryAudit(o.dir().history()).wellFormed();
        assertEquals(60, h.txns.size());
        assertEquals(Set.of("ser", "rc"), h.levels.keySet(), "levels " + h.levels);
        assertTrue(h.outcomes.getOrDefault("ok", 0) >= 30, "outcomes " + h.outcomes);
        assertTrue(h.rowsChecked >= 30, "only " + h.rowsChecked + " returned rows");
        assertEquals(60, o.stats().attempted());
    }
}
