package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One results.json schema (docs/results-json.md) for every workload. A mini, an rw-register, a
 * list-append, a CAS and an sql run against embedded PostgreSQL write the same top-level keys and the same
 * {@code check} keys, and report.html is written from them.
 */
class ResultsJsonSchemaTest {
    /** results.json's keys that every run writes (docs/results-json.md); the others appear only when they apply. */
    static final Set<String> REQUIRED = Set.of("campaign", "run", "seed", "database", "isolation", "workload",
            "exit_status", "stats", "check");
    static final Set<String> OPTIONAL = Set.of("error", "interrupted", "faults", "nodes", "streaming",
            "first_violation", "incomplete");
    static final Set<String> CHECK = Set.of("verdict", "shape", "requested", "weakest_violated", "levels",
            "anomaly_counts", "anomalies", "anomalies_omitted", "stats");
    /** {@code check} keys written only when they apply: {@code witness}, when the history was joined with one. */
    static final Set<String> CHECK_OPTIONAL = Set.of("witness");

    @TempDir
    Path store;

    @Test
    void everyWorkloadWritesTheOneSchema() throws Exception {
        Map<String, String> workloads = new LinkedHashMap<>();
        for (String t : new String[] {"mini", "rw-register", "list-append", "cas"}) {
            workloads.put(t, "database: {type: postgresql, provision: embedded, isolation: serializable}\n"
                    + "workload: {type: " + t + ", sessions: 2, transactions: 40, keys: 4, seed: 3}\n");
        }
        workloads.put("sql", "database: {type: postgresql, provision: embedded}\n"
                + "workload: {type: sql, sessions: 2, transactions: 20, keys: 4, groups: 2, seed: 3, "
                + "isolation-mix: {serializable: 50, read-committed: 50}}\ncheck: {timeout: 15s}\n");
        ObjectMapper m = new ObjectMapper();
        Set<String> first = null;
        for (Map.Entry<String, String> w : workloads.entrySet()) {
            RunOutcome o = Campaigns.run(Campaigns.parse(store, "name: schema-" + w.getKey() + "\n" + w.getValue()));
            assertNull(o.error(), w.getKey() + ": " + o.error());
            JsonNode root = m.readTree(o.dir().results().toFile());
            Set<String> keys = names(root);
            assertTrue(keys.containsAll(REQUIRED), w.getKey() + " lacks " + diff(REQUIRED, keys));
            assertTrue(union().containsAll(keys), w.getKey() + " has undocumented " + diff(keys, union()));
            Set<String> required = new TreeSet<>(keys);
            required.retainAll(REQUIRED);
            if (first == null) first = required;
            assertEquals(first, required, w.getKey());
            Set<String> check = names(root.path("check"));
            check.removeAll(CHECK_OPTIONAL);
            assertEquals(CHECK, check, w.getKey() + "'s check");
            assertTrue(root.path("check").path("levels").size() >= 1, w.getKey() + ": no level checked");
            assertTrue(java.nio.file.Files.isRegularFile(o.dir().path().resolve("report.html")), w.getKey());
        }
    }

    private static Set<String> union() {
        Set<String> s = new TreeSet<>(REQUIRED);
        s.addAll(OPTIONAL);
        return s;
    }

    private static Set<String> diff(Set<String> a, Set<String> b) {
        Set<String> s = new TreeSet<>(a);
        s.removeAll(b);
        return s;
    }

    static Set<String> names(JsonNode n) {
        Set<String> s = new TreeSet<>();
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) s.add(it.next());
        return s;
    }
}
