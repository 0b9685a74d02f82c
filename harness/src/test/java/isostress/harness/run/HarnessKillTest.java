package isostress.harness.run;

import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.harness.Services;
import isostress.harness.faults.Iptables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The harness itself killed with SIGKILL mid-run (during a partition, so iptables rules exist): the history it
 * leaves is readable, and the next run's cleanup stops the database it left running and removes the rules.
 */
class HarnessKillTest {
    @TempDir
    Path store;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void killedHarnessLeavesACheckableHistoryAndTheNextRunCleansUp() throws Exception {
        Services.require(Iptables.available(), "iptables (as root)", "apt-get install -y iptables, run as root");
        Path yaml = store.resolve("killed.yaml");
        Files.writeString(yaml, "name: killed\n"
                + "database: {type: postgresql, isolation: serializable, timeout: 2s}\n"
                + "workload: {type: mini, sessions: 4, transactions: 1000000, keys: 100, seed: 9, duration: 120s}\n"
                + "nemesis: {faults: [partition], interval: 1s, duration: 60s}\n"
                + "store: " + store + "\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process harness = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "isostress.harness.cli.Main", "run", yaml.toString(), "--no-progress")
                .redirectErrorStream(true).redirectOutput(store.resolve("harness.out").toFile()).start();
        long pid = harness.pid();
        Path history = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        // Wait until transactions are recorded and the partition is in place.
        while (System.nanoTime() < deadline) {
            history = findHistory();
            if (history != null && Files.readString(history).contains("start-partition")
                    && Iptables.list().contains("-A " + Iptables.CHAIN)) {
                break;
            }
            Thread.sleep(200);
        }
        assertTrue(history != null && Iptables.list().contains("-A " + Iptables.CHAIN),
                "the run did not get going: " + Files.readString(store.resolve("harness.out")));
        Thread.sleep(500);
        harness.destroyForcibly(); // SIGKILL: no shutdown hook runs
        harness.waitFor(30, TimeUnit.SECONDS);
        Thread.sleep(300);

        History h = HistoryFormat.JSONL.read(history);
        assertTrue(h.size() > 10, "transactions " + h.size());
        List<ProcessHandle> servers = serversOf(pid);
        assertFalse(servers.isEmpty(), "the killed harness's PostgreSQL should still be running before cleanup");
        assertTrue(Iptables.list().contains(Iptables.CHAIN), "the killed harness's rules should still be there");

        RunOutcome next = Campaigns.run(Campaigns.parse(store, "name: next\n"
                + "database: {type: postgresql, isolation: serializable}\n"
                + "workload: {type: mini, sessions: 2, transactions: 200, keys: 10, seed: 1}\n"));
        assertNull(next.error(), next.error());
        for (ProcessHandle p : servers) assertFalse(p.isAlive(), "server " + p.pid() + " still running");
        assertEquals(List.of(), serversOf(pid));
        assertFalse(Iptables.list().contains(Iptables.CHAIN), "iptables rules left: " + Iptables.list());
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertEquals(List.of(), s.filter(p -> p.getFileName().toString().contains("-" + pid + "-")).toList());
        }
    }

    private Path findHistory() throws Exception {
        Path dir = store.resolve("killed");
        if (!Files.isDirectory(dir)) return null;
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().equals("history.jsonl")).findFirst().orElse(null);
        }
    }

    /** Processes using a data directory of the harness with this pid. */
    private static List<ProcessHandle> serversOf(long pid) {
        String mark = File.separator + "isostress-pg-" + pid + "-";
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().map(c -> c.contains(mark)).orElse(false))
                .toList();
    }
}
