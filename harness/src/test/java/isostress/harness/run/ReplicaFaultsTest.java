package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Verdict;
import isostress.harness.Services;
import isostress.harness.faults.FaultRecord;
import isostress.harness.faults.Iptables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Faults on the standbys of an embedded primary: a short campaign with two replicas, read-only transactions on the
 * standbys at repeatable read, and a nemesis that kills, pauses and partitions n2 and n3. The run ends, every fault
 * is healed (the nemesis records an error when a standby does not stream from the primary again, per the primary's
 * pg_stat_replication, within its bound), the events name the standby hit, the sessions reading from a standby
 * that was down read from it again once it is back, and the history is checked.
 */
class ReplicaFaultsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path store;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void standbysKilledPausedAndPartitionedRejoinTheirPrimary() throws Exception {
        Services.require(Iptables.available(), "iptables (as root)", "apt-get install -y iptables, run as root");
        // Seed 33 draws kill@n3, pause@n2, partition@n2, partition@n3: every fault, on both standbys.
        RunOutcome o = Campaigns.run(Campaigns.parse(store, "name: replica-faults\n"
                + "database: {type: postgresql, provision: embedded, isolation: repeatable-read, replicas: 2}\n"
                + "workload: {type: mini, read-from: replicas, sessions: 6, transactions: 1000000, keys: 20, seed: 5,"
                + " duration: 25s}\n"
                + "nemesis: {faults: [kill, partition, pause], targets: [n2, n3], interval: 2s, duration: 2s,"
                + " seed: 33}\n"
                + "stop-on-violation: false\n"
                + "check: {levels: [read-committed, snapshot-isolation]}\n"));
        assertNull(o.error(), o.error());
        assertNotNull(o.result(), "the history was checked: " + o.unchecked());
        // Standbys show committed data only, whatever the faults: read committed holds. (Snapshot isolation is
        // checked, not asserted: reads on standbys may show the known Long Fork.)
        assertEquals(Verdict.VALID, o.result().level(IsolationLevel.READ_COMMITTED).verdict(),
                o.result().anomalyCounts().toString());

        List<FaultRecord> faults = o.faults();
        Set<String> kinds = new TreeSet<>();
        for (FaultRecord f : faults) {
            kinds.add(f.kind());
            assertNull(f.error(), f.kind() + " on " + f.node() + ": " + f.error());
            assertTrue(Set.of("n2", "n3").contains(f.node()), "aimed at the standbys: " + f);
        }
        assertEquals(Set.of("kill", "partition", "pause"), kinds, "faults " + faults);

        List<JsonNode> events = new ArrayList<>();
        for (String line : Files.readAllLines(o.dir().history())) events.add(JSON.readTree(line));
        int starts = 0, stops = 0;
        long lastCompletion = 0;
        for (JsonNode e : events) {
            String f = e.path("f").asText();
            if (e.path("process").asText().equals("nemesis")) {
                assertTrue(Set.of("n2", "n3").contains(e.path("value").path("node").asText()), "names the node: " + e);
                if (f.startsWith("start-")) starts++;
                if (f.startsWith("stop-")) stops++;
            } else if (e.has("node") && !e.path("type").asText().equals("invoke")) {
                lastCompletion = Math.max(lastCompletion, e.path("time").asLong());
                // A transaction cut short by a fault is info or fail with the driver's sentence, not a stack trace.
                assertFalse(e.path("error").asText().contains("\tat "), "a stack trace in " + e);
            }
        }
        assertEquals(faults.size(), starts);
        assertEquals(faults.size(), stops);

        // The sessions reading from a standby a fault hit read from it again once it is back.
        int checked = 0;
        for (FaultRecord f : faults) {
            if (f.end() > lastCompletion - TimeUnit.SECONDS.toNanos(2)) continue; // healed as the run ended
            checked++;
            boolean readAgain = false, cutShort = false;
            for (JsonNode e : events) {
                if (!f.node().equals(e.path("node").asText())) continue;
                String type = e.path("type").asText();
                long t = e.path("time").asLong();
                if (type.equals("ok") && t > f.end()) readAgain = true;
                if ((type.equals("info") || type.equals("fail")) && t >= f.start() && t <= f.end()) cutShort = true;
            }
            assertTrue(readAgain, "no read on " + f.node() + " after its " + f.kind() + " ended");
            if (f.kind().equals("kill")) assertTrue(cutShort, "a read on the killed " + f.node() + " was cut short");
        }
        assertTrue(checked > 0, "a fault healed while the workload ran: " + faults);

        // After the last fault, the primary's pg_stat_replication (sampled into replication.log until the end)
        // shows both standbys.
        List<String> samples = new ArrayList<>();
        for (String line : Files.readAllLines(o.dir().logs().resolve("replication.log"))) {
            if (!line.startsWith("#")) samples.add(line);
        }
        Set<String> last = new TreeSet<>();
        for (String line : samples.subList(Math.max(0, samples.size() - 2), samples.size())) {
            last.add(line.split(" ")[1]);
        }
        assertEquals(Set.of("n2", "n3"), last, "the last samples of replication.log");
        assertTrue(Files.readString(o.dir().results()).contains("\"node\" : \"n3\"")
                || Files.readString(o.dir().results()).contains("\"node\":\"n3\""), "results.json names the node");
        assertFalse(Iptables.program() != null && java.util.regex.Pattern.compile("\\b" + Iptables.CHAIN + "\\b")
                .matcher(Iptables.list()).find(), "iptables rules left");
    }
}
