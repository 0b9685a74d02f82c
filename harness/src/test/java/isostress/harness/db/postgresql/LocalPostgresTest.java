package isostress.harness.db.postgresql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.checker.model.LevelResult;
import isostress.checker.model.Verdict;
import isostress.harness.Services;
import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;
import isostress.harness.config.ConfigException;
import isostress.harness.run.CampaignRunner;
import isostress.harness.run.RunOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code provision: local} for PostgreSQL: a throwaway cluster from Debian's installed PostgreSQL 15 binaries, run
 * the same way as the embedded one (settings, logs, standbys, cleanup), and the sentences for a bad or missing
 * bin-dir.
 */
class LocalPostgresTest {
    static final String BIN = InstalledBinaries.DEBIAN_BIN_DIR;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path store;

    private static void requireDebianPostgres() {
        Services.require(Files.isExecutable(Path.of(BIN, "postgres")) && Files.isExecutable(Path.of(BIN, "initdb")),
                "PostgreSQL 15's server binaries (" + BIN + ")", "install postgresql-15 (apt-get install -y "
                        + "postgresql-15)");
    }

    private Campaign campaign(String database, String workload) {
        return CampaignLoader.parse(Path.of("local.yaml"), "name: local-pg\n" + database + workload
                + "check: {levels: [read-committed, snapshot-isolation, serializable]}\nstore: " + store + "\n", null);
    }

    /** Runs {@code c} once; returns its output, whose first line names the database. */
    private static String run(Campaign c, RunOutcome[] outcome) throws Exception {
        StringWriter sw = new StringWriter();
        outcome[0] = new CampaignRunner(c, new PrintWriter(sw), false).run(0, c.workload().seed());
        System.out.print(sw);
        return sw.toString();
    }

    /**
     * The run's first line after any cleanup notes ("isostress: removed ... of dead harness N"), which a run prints
     * first when an earlier, killed harness left something behind: that line names the database.
     */
    private static String databaseLine(String out) {
        return out.lines().filter(l -> !l.startsWith("isostress: ")).findFirst().orElse("");
    }

    /** This process's PostgreSQL data directories still in the temporary directory. */
    private static Set<Path> dataDirs() throws IOException {
        String prefix = "isostress-pg-" + ProcessHandle.current().pid() + "-";
        try (Stream<Path> all = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return all.filter(p -> p.getFileName().toString().startsWith(prefix)).collect(Collectors.toSet());
        }
    }

    @Test
    @Timeout(180)
    void aSerializableCampaignOnTheInstalledBinariesIsValid() throws Exception {
        requireDebianPostgres();
        Set<Path> before = dataDirs();
        RunOutcome[] o = new RunOutcome[1];
        String out = run(campaign("database: {type: postgresql, provision: local, bin-dir: " + BIN
                + ", isolation: serializable, settings: {max_locks_per_transaction: 96}}\n",
                "workload: {type: mini, sessions: 6, transactions: 400, keys: 8, distribution: zipfian, seed: 5}\n"),
                o);
        assertNull(o[0].error(), o[0].error());
        String first = databaseLine(out);
        assertTrue(first.contains("local PostgreSQL 15.") && first.contains(" from " + BIN + " on port "), first);
        assertNotNull(o[0].result(), "the history was checked: " + o[0].unchecked());
        for (LevelResult l : o[0].result().levels()) {
            if (l.level() == null) continue; // a count, not a level
            assertEquals(Verdict.VALID, l.verdict(), l.level() + ": " + l.reason());
        }
        assertEquals(0, o[0].exitStatus());
        String log = Files.readString(o[0].dir().logs().resolve("postgresql.log"));
        assertTrue(log.contains("database system is ready to accept connections"), "the server's log is the run's");
        assertEquals(before, dataDirs(), "the data directory is removed after the run");
    }

    @Test
    @Timeout(240)
    void aStandbyOfTheInstalledBinariesServesReads() throws Exception {
        requireDebianPostgres();
        Set<Path> before = dataDirs();
        RunOutcome[] o = new RunOutcome[1];
        String out = run(campaign("database: {type: postgresql, provision: local, bin-dir: " + BIN
                + ", isolation: repeatable-read, replicas: 1}\n",
                "workload: {type: mini, read-from: any, sessions: 4, transactions: 300, keys: 6, seed: 3}\n"), o);
        assertNull(o[0].error(), o[0].error());
        String first = databaseLine(out);
        assertTrue(first.contains("local PostgreSQL 15.") && first.contains("with 1 streaming replica(s)"), first);
        assertNotNull(o[0].result(), "the history was checked: " + o[0].unchecked());
        for (String f : List.of("postgresql-n1.log", "postgresql-n2.log", "replication.log")) {
            assertTrue(Files.exists(o[0].dir().logs().resolve(f)), f);
        }
        Set<String> nodes = new TreeSet<>();
        for (String line : Files.readAllLines(o[0].dir().history())) {
            JsonNode e = JSON.readTree(line);
            if (e.has("node")) nodes.add(e.get("node").asText());
        }
        assertEquals(Set.of("n1", "n2"), nodes, "transactions ran on the primary and the standby");
        assertEquals(before, dataDirs(), "the primary's and the standby's data directories are removed");
    }

    @Test
    void withoutBinDirPgConfigSaysWhereTheServerIs() throws Exception {
        requireDebianPostgres();
        Path pgConfig = Path.of("/usr/bin/pg_config");
        Services.require(Files.isExecutable(pgConfig), "pg_config", "apt-get install -y postgresql-15");
        assertEquals(Path.of(BIN), InstalledBinaries.fromPgConfig(pgConfig));
        assertTrue(InstalledBinaries.version(Path.of(BIN)).startsWith("15."));
    }

    @Test
    void withoutAnyPostgresTheSentenceNamesWhatToInstall() {
        IOException e = assertThrows(IOException.class, () -> InstalledBinaries.fromPgConfig(null));
        assertTrue(e.getMessage().contains("apt-get install postgresql-15")
                && e.getMessage().contains("database.bin-dir"), e.getMessage());
    }

    @Test
    void aBadBinDirIsACampaignErrorWithFileLineAndKey() throws Exception {
        Path empty = Files.createDirectories(store.resolve("no-postgres"));
        assertProblem("database:\n  type: postgresql\n  provision: local\n  bin-dir: " + empty + "\n",
                "local.yaml:4 database.bin-dir:", "no initdb, pg_ctl, postgres in " + empty);
        assertProblem("database: {type: postgresql, provision: local, bin-dir: /nonexistent/bin}\n",
                "local.yaml:1 database.bin-dir:", "/nonexistent/bin is not a directory");
        assertProblem("database: {type: postgresql, provision: embedded, bin-dir: " + BIN + "}\n",
                "local.yaml:1 database.bin-dir:", "only applies to provision: local");
        assertProblem("database: {type: mariadb, provision: local, bin-dir: /usr/sbin}\n",
                "local.yaml:1 database.bin-dir:", "mariadb does not use");
    }

    private static void assertProblem(String yaml, String prefix, String fragment) {
        List<String> problems = assertThrows(ConfigException.class,
                () -> CampaignLoader.parse(Path.of("local.yaml"), yaml, null)).problems();
        assertTrue(problems.stream().anyMatch(p -> p.startsWith(prefix) && p.contains(fragment)),
                "no problem starting '" + prefix + "' containing '" + fragment + "' in " + problems);
    }
}
