package isostress.harness.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code isostress hermitage} removes its scratch directory, after a full table on embedded PostgreSQL and when the
 * database cannot be reached. Each runs in its own JVM whose java.io.tmpdir is a fresh directory, so what is left
 * there is this command's alone.
 */
class HermitageCommandTest {
    @TempDir
    Path dir;

    record Exit(int code, String output, List<Path> leftInTmp) {
    }

    Exit hermitage(String yaml) throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path config = dir.resolve("db.yaml");
        Files.writeString(config, yaml);
        Path log = dir.resolve("out.txt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
                "isostress.harness.cli.Main", "hermitage", "--database", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(4, TimeUnit.MINUTES), "hermitage did not finish");
        try (Stream<Path> s = Files.list(tmp)) {
            return new Exit(p.exitValue(), Files.readString(log),
                    s.filter(q -> q.getFileName().toString().startsWith("isostress-hermitage")).toList());
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void removesItsDirectoryAfterATable() throws Exception {
        Exit e = hermitage("name: h\ndatabase: {type: postgresql, provision: embedded, isolation: serializable}\n"
                + "workload: {type: mini, transactions: 1}\n");
        assertEquals(0, e.code(), e.output());
        assertTrue(e.output().contains("G2"), e.output());
        assertEquals(List.of(), e.leftInTmp(), e.output());
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void removesItsDirectoryWhenTheDatabaseIsNotThere() throws Exception {
        // Port 1 (tcpmux) has no PostgreSQL behind it.
        Exit e = hermitage("name: h\ndatabase: {type: postgresql, provision: external, "
                + "url: 'jdbc:postgresql://127.0.0.1:1/postgres', isolation: serializable}\n"
                + "workload: {type: mini, transactions: 1}\n");
        assertEquals(Main.BAD_INPUT, e.code(), e.output());
        assertEquals(List.of(), e.leftInTmp(), e.output());
    }
}
