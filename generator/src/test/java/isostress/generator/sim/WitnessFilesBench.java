package isostress.generator.sim;

import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.generator.KeyDistribution;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a large simulated history and its store's commit log as a witness (docs/witness.md), to measure
 * {@code isostress check H --witness W} with and without the log's version order (the figures are in
 * docs/witness.md). Not a timed test: it only writes the two files. {@code mvn -o -B -q -pl checker,generator test
 * -Dtest=WitnessFilesBench -Dsurefire.excludedGroups= -Disostress.wbench.dir=DIR [-Disostress.wbench.txns=1000000]
 * [-Disostress.wbench.workload=rw-register|list-append] [-Disostress.wbench.level=serializable]
 * [-Disostress.wbench.keys=N]} (uniform keys: 10,000 registers, 100,000 lists by default, which keeps the lists
 * read short): writes
 * DIR/history.jsonl and DIR/witness.jsonl.
 */
@Tag("bench")
class WitnessFilesBench {
    @Test
    void writeHistoryAndWitness() throws IOException {
        Path dir = Path.of(System.getProperty("isostress.wbench.dir", "target/witness-bench"));
        int txns = Integer.getInteger("isostress.wbench.txns", 1_000_000);
        boolean lists = "list-append".equals(System.getProperty("isostress.wbench.workload", "rw-register"));
        GeneralSimulation.Level level = GeneralSimulation.Level.valueOf(System.getProperty("isostress.wbench.level",
                "serializable").toUpperCase().replace('-', '_'));
        GeneralSimulation.Config c = new GeneralSimulation.Config(txns, 16, 4, false, 0.5,
                new KeyDistribution.Uniform(Integer.getInteger("isostress.wbench.keys", lists ? 100_000 : 10_000)),
                lists ? GeneralSimulation.Workload.LIST_APPEND : GeneralSimulation.Workload.RW_REGISTER, level, 0.01, 0.01, 42);
        Files.createDirectories(dir);
        History h;
        try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("witness.jsonl"), StandardCharsets.UTF_8)) {
            SimulatedLog log = new SimulatedLog(w);
            h = GeneralSimulation.history(c, (pos, keys, values, count) -> {
                try {
                    log.commit(keys, values, null, lists, count);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
        try (OutputStream out = Files.newOutputStream(dir.resolve("history.jsonl"))) {
            HistoryFormat.JSONL.write(h, out);
        }
        System.out.println("wrote " + dir.resolve("history.jsonl") + " (" + h.size() + " transactions) and "
                + dir.resolve("witness.jsonl"));
    }
}
