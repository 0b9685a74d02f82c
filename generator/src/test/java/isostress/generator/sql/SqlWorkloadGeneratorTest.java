package isostress.generator.sql;

import isostress.generator.KeyDistribution;
import isostress.generator.workload.WorkloadSpec;
import isostress.generator.workload.WorkloadType;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SqlWorkloadGeneratorTest {
    static WorkloadSpec spec(long seed, Map<String, Double> mix) {
        return new WorkloadSpec(WorkloadType.SQL, 3, 300, 6, new KeyDistribution.Uniform(6), seed, Map.of(), 1, 4,
                0.4, 0.5, 0, 3, mix);
    }

    @Test
    void sameSeedSameWorkloadOtherSeedOtherWorkload() {
        Map<String, Double> mix = Map.of("serializable", 70.0, "read-committed", 30.0);
        assertEquals(SqlWorkloadGenerator.generate(spec(4, mix), "serializable"),
                SqlWorkloadGenerator.generate(spec(4, mix), "serializable"));
        assertNotEquals(SqlWorkloadGenerator.generate(spec(4, mix), "serializable").sessions(),
                SqlWorkloadGenerator.generate(spec(5, mix), "serializable").sessions());
    }

    @Test
    void levelsFollowTheMixOrTheDefault() {
        SqlWorkload w = SqlWorkloadGenerator.generate(spec(1, Map.of("serializable", 70.0, "read-committed", 30.0)),
                "repeatable-read");
        Map<String, Integer> n = new HashMap<>();
        for (List<SqlTxnPlan> s : w.sessions()) for (SqlTxnPlan t : s) n.merge(t.isolation(), 1, Integer::sum);
        assertEquals(300, w.size());
        assertEquals(2, n.size(), n.toString());
        assertTrue(n.get("serializable") > 170 && n.get("serializable") < 250, n.toString());
        SqlWorkload d = SqlWorkloadGenerator.generate(spec(1, Map.of()), "repeatable-read");
        for (List<SqlTxnPlan> s : d.sessions()) for (SqlTxnPlan t : s) assertEquals("repeatable-read", t.isolation());
    }

    @Test
    void transactionsGoRoundRobinAndWriteIdsAreUnique() {
        SqlWorkload w = SqlWorkloadGenerator.generate(spec(2, Map.of()), "serializable");
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (int s = 0; s < 3; s++) {
            assertEquals(100, w.sessions().get(s).size());
            for (int i = 0; i < 100; i++) {
                SqlTxnPlan t = w.sessions().get(s).get(i);
                assertEquals(s, t.session());
                assertEquals(i, t.index());
                assertTrue(t.statements().size() >= 1 && t.statements().size() <= 4);
                for (int k = 0; k < t.statements().size(); k++) assertTrue(ids.add(t.writeId(k)));
            }
        }
        assertEquals(6, w.init().size());
        for (SqlWorkload.Row r : w.init()) assertEquals(r.id() % 3, r.grp());
    }

    @Test
    void predicateSqlParametersAndJsonComeFromOneSpec() {
        SqlPredicate p = SqlPredicate.and(SqlPredicate.eq("grp", 2), SqlPredicate.eq("deleted", false));
        assertEquals("(grp = ? AND deleted = ?)", p.sql());
        assertEquals(List.of(2, false), p.params());
        assertEquals("{\"and\":[{\"eq\":[\"grp\",2]},{\"eq\":[\"deleted\",false]}]}", p.json());
        assertTrue(p.test(Map.of("id", 5L, "grp", 2, "bal", 1, "deleted", false)));
        assertFalse(p.test(Map.of("id", 5L, "grp", 2, "bal", 1, "deleted", true)));
        assertFalse(p.test(Map.of("id", 5L, "grp", 1, "bal", 1, "deleted", false)));
        assertFalse(p.test(null), "an absent row satisfies no predicate");
        assertTrue(SqlPredicate.eq("id", 5L).test(Map.of("id", 5)), "numbers compare by value");
    }

    @Test
    void insertsKeepTheGroupOfTheirId() {
        SqlWorkload w = SqlWorkloadGenerator.generate(spec(3, Map.of()), "serializable");
        int inserts = 0;
        for (List<SqlTxnPlan> s : w.sessions()) {
            for (SqlTxnPlan t : s) {
                for (SqlStatement st : t.statements()) {
                    if (st.kind() != SqlStatement.Kind.INSERT) continue;
                    inserts++;
                    assertEquals(st.id() % 3, st.grp());
                    assertTrue(st.id() >= 0 && st.id() < 6 + 2 * 3, "id " + st.id());
                }
            }
        }
        assertTrue(inserts > 10, inserts + " inserts");
    }
}
