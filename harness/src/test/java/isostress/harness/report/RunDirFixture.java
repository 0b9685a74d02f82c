package isostress.harness.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A small run directory for the report tests: results.json trimmed from a real PostgreSQL read-committed run (its
 * internal, G-single and lost-update counterexamples, three shapes, one kill of n2 from 1.0 s to 1.8 s, and an
 * error message with markup in it), and a hand-made history.jsonl of three seconds: two sessions committing and
 * aborting, slower while n2 is down, with the nemesis's start-kill / stop-kill events.
 */
final class RunDirFixture {
    static final long SECOND = 1_000_000_000L;

    private RunDirFixture() {
    }

    /** Writes the run directory into {@code dir}; {@code faultsInResults} false drops results.json's fault list. */
    static Path write(Path dir, boolean faultsInResults) throws IOException {
        String results;
        try (InputStream in = RunDirFixture.class.getResourceAsStream("results.json")) {
            results = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!faultsInResults) results = results.replaceAll("(?s)\"faults\": \\[.*?\\],", "");
        Files.writeString(dir.resolve("results.json"), results);
        Files.writeString(dir.resolve("campaign.yaml"), "name: postgres-read-committed\n"
                + "database: {type: postgresql, provision: embedded, version: \"16.15\", isolation: read-committed}\n"
                + "workload: {type: mini, sessions: 2, transactions: 60, keys: 20, distribution: zipfian, seed: 1}\n");
        Files.createDirectories(dir.resolve("logs"));
        Files.writeString(dir.resolve("logs/harness.log"), "run started\n");
        Files.createDirectories(dir.resolve("anomalies"));
        Files.writeString(dir.resolve("anomalies/G-single-1.txt"), "G-single (FracturedRead)\n");
        Files.writeString(dir.resolve("anomalies/G-single-1.dot"), "digraph g { T460 -> T472; }\n");
        StringBuilder h = new StringBuilder("{\"type\":\"header\",\"real-time\":true,\"initial-default\":0}\n");
        int index = 0, value = 1;
        // Two sessions, one transaction every 50 ms each; 8 ms latency, 40 ms while n2 is killed; every 10th aborts.
        for (long t = 5_000_000; t < 3 * SECOND; t += 50_000_000) {
            if (index == 40) h.append(nemesis(index++, 1 * SECOND, "start-kill", "{\"node\":\"n2\"}"));
            if (index == 58) h.append(nemesis(index++, 1_800_000_000L, "stop-kill", "{\"node\":\"n2\",\"restart_ms\":412}"));
            for (int p = 0; p < 2; p++) {
                long start = t + p * 20_000_000L;
                boolean down = start >= SECOND && start < 1_800_000_000L;
                long end = start + (down ? 40_000_000L : 8_000_000L);
                String ops = "[[\"r\",3,null],[\"w\",3," + value + "]]";
                h.append(String.format(Locale.ROOT, "{\"index\":%d,\"type\":\"invoke\",\"process\":%d,\"time\":%d,\"f\":\"txn\",\"value\":%s}%n",
                        index++, p, start, ops));
                boolean abort = value % 10 == 0;
                String done = "[[\"r\",3," + (value - 1) + "],[\"w\",3," + value + "]]";
                h.append(String.format(Locale.ROOT, "{\"index\":%d,\"type\":\"%s\",\"process\":%d,\"time\":%d,\"f\":\"txn\",\"value\":%s%s}%n",
                        index++, abort ? "fail" : "ok", p, end, abort ? ops : done, abort ? ",\"error\":\"serialization failure\"" : ""));
                value++;
            }
        }
        h.append("{\"index\":").append(index).append(",\"type\":\"invoke\",\"proc"); // cut short, as after Ctrl-C
        Files.writeString(dir.resolve("history.jsonl"), h.toString());
        return dir;
    }

    private static String nemesis(int index, long time, String f, String value) {
        return String.format(Locale.ROOT, "{\"index\":%d,\"type\":\"info\",\"process\":\"nemesis\",\"time\":%d,\"f\":\"%s\",\"value\":%s}%n",
                index, time, f, value);
    }
}
