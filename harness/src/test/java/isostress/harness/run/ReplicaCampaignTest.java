package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.harness.config.Campaign;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Short campaigns on an embedded primary with two standbys, reading from any node. Completions
 * record where they ran: writes on n1 only, read-only transactions on n1, n2 and n3; a verdict is produced (which
 * one is not asserted: the Long Fork these runs may show is rare, and the test does not wait for it).
 */
class ReplicaCampaignTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path store;
    private RunOutcome last;

    private Map<String, int[]> runAndCountNodes(String workload, String check) throws Exception {
        Campaign c = Campaigns.parse(store, "name: replicas-" + workload + "\n"
                + "database: {type: postgresql, provision: embedded, isolation: repeatable-read, replicas: 2}\n"
                + "workload: {type: " + workload + ", read-from: any, sessions: 6, transactions: 1500, keys: 6,"
                + (workload.equals("mini") ? "" : " min-ops: 2, max-ops: 2,") + " seed: 3}\n" + check);
        RunOutcome o = Campaigns.run(c);
        last = o;
        assertNull(o.error(), o.error());
        assertNotNull(o.result(), "the run's history was checked: " + o.unchecked());
        for (String log : new String[] {"postgresql-n1.log", "postgresql-n2.log", "postgresql-n3.log",
                "replication.log"}) {
            assertTrue(Files.exists(o.dir().logs().resolve(log)), log);
        }
        // node -> {read-only completions, writing completions}
        Map<String, int[]> nodes = new TreeMap<>();
        for (String line : Files.readAllLines(o.dir().history())) {
            JsonNode e = JSON.readTree(line);
            if (!e.has("node") || e.path("type").asText().equals("invoke")) continue;
            boolean writes = false;
            for (JsonNode op : e.get("value")) writes |= !op.get(0).asText().equals("r");
            nodes.computeIfAbsent(e.get("node").asText(), k -> new int[2])[writes ? 1 : 0]++;
        }
        return nodes;
    }

    private static void readsEverywhereWritesOnThePrimary(Map<String, int[]> nodes) {
        assertEquals(java.util.Set.of("n1", "n2", "n3"), nodes.keySet(), "completions name their node");
        for (String n : new String[] {"n1", "n2", "n3"}) assertTrue(nodes.get(n)[0] > 0, n + " ran reads");
        assertTrue(nodes.get("n1")[1] > 0, "writes run on the primary");
        assertEquals(0, nodes.get("n2")[1] + nodes.get("n3")[1], "no write on a standby");
    }

    /** results.json's per-node outcomes count each transaction where it ran. */
    private void outcomesPerNode() {
        for (String n : new String[] {"n1", "n2", "n3"}) {
            Map<?, ?> counts = (Map<?, ?>) last.nodes().get(n);
            assertTrue(((Number) counts.get("untouched_ok")).longValue() > 0, n + ": " + counts);
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void miniTransactionsWithTheStreamingCheck() throws Exception {
        readsEverywhereWritesOnThePrimary(runAndCountNodes("mini", "check: {levels: [snapshot-isolation]}\n"));
        assertTrue(last.streaming() != null && last.streaming().checks() > 0, "checked while running");
        outcomesPerNode();
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void listAppendAndRwRegister() throws Exception {
        readsEverywhereWritesOnThePrimary(runAndCountNodes("list-append", "check: {levels: [snapshot-isolation]}\n"));
        readsEverywhereWritesOnThePrimary(runAndCountNodes("rw-register", "check: {levels: [snapshot-isolation]}\n"));
    }
    /**
     * SERIALIZABLE with standbys, reading from the primary: a hot standby refuses that level, so the wait for the
     * standbys to have every key (before the workload starts) must not ask for it; it used to time out with
     * "node 2 has -1 of N keys".
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void serializableWithStandbysReadingFromThePrimary() throws Exception {
        Campaign c = Campaigns.parse(store, "name: replicas-serializable\n"
                + "database: {type: postgresql, provision: embedded, isolation: serializable, replicas: 1}\n"
                + "workload: {type: mini, sessions: 2, transactions: 300, keys: 20, seed: 3}\n");
        RunOutcome o = Campaigns.run(c);
        assertNull(o.error(), o.error());
        assertNotNull(o.result(), "the run's history was checked: " + o.unchecked());
        for (String line : Files.readAllLines(o.dir().history())) {
            JsonNode e = JSON.readTree(line);
            if (e.has("node")) assertEquals("n1", e.get("node").asText(), "read-from primary: " + line);
        }
    }
}
