package isostress.harness.config;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Provision;
import isostress.harness.cli.Main;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code isostress run --provision P}: the campaign as if its file said {@code provision: P}, checked the same way,
 * and otherwise unchanged, so every PostgreSQL known-bug campaign runs in Docker as shipped.
 */
class ProvisionOverrideTest {
    private static final Path KNOWN = Path.of("..", "configs", "known-bugs");

    private static List<Path> postgresKnownBugs() throws IOException {
        try (Stream<Path> files = Files.list(KNOWN)) {
            return files.filter(f -> f.getFileName().toString().matches("postgres-.*\\.yaml")).sorted().toList();
        }
    }

    @Test
    void everyPostgresKnownBugLoadsWithProvisionDockerAndOnlyThatChanged() throws IOException {
        List<Path> files = postgresKnownBugs();
        assertTrue(files.size() >= 5, "the PostgreSQL known bugs: " + files);
        for (Path f : files) {
            Campaign shipped = CampaignLoader.load(f);
            Campaign docker = CampaignLoader.load(f, Provision.DOCKER);
            assertEquals(Provision.EMBEDDED, shipped.database().provision(), f.toString());
            DatabaseSpec d = shipped.database();
            DatabaseSpec expected = new DatabaseSpec(d.type(), Provision.DOCKER, d.version(), d.url(), d.userEnv(),
                    d.passwordEnv(), d.isolation(), d.settings(), d.nodes(), d.image(), d.timeout(), d.upsert(),
                    d.opPause(), d.tables(), d.connectTimeout(), d.replicas());
            assertEquals(expected, docker.database(), f + ": the same database section but for provision");
            // (by text: a zipfian distribution is compared by identity)
            assertEquals(shipped.workload().toString(), docker.workload().toString(), f.toString());
            assertEquals(shipped.levels(), docker.levels(), f.toString());
            assertEquals(shipped.runs(), docker.runs(), f.toString());
            assertEquals(shipped.stopOnViolation(), docker.stopOnViolation(), f.toString());
            // The stored campaign.yaml says what ran; the file's lines keep their numbers (problems cite them).
            assertTrue(docker.text().startsWith(shipped.text()), f.toString());
            assertTrue(docker.text().endsWith("# run with --provision docker: database.provision was docker in this "
                    + "run\n"), docker.text());
            assertEquals(CampaignLoader.where(shipped, "database.settings"),
                    CampaignLoader.where(docker, "database.settings"));
        }
    }

    @Test
    void theOverrideIsCheckedAsIfTheFileSaidIt() {
        String mariadb = "database: {type: mariadb, provision: local}\n";
        ConfigException e = assertThrows(ConfigException.class,
                () -> CampaignLoader.parse(CampaignLoaderTest.FILE, mariadb, Provision.EMBEDDED));
        CampaignLoaderTest.hasProblem(e.problems(), "camp.yaml:1 database.provision:", "embedded is PostgreSQL's");
        // image only applies to docker: an override to docker makes a file's image valid, one away from it not.
        String image = "database: {type: postgresql, provision: docker, image: \"isostress/postgres:15\"}\n";
        assertEquals("isostress/postgres:15", CampaignLoader.parse(CampaignLoaderTest.FILE, image, null)
                .database().image());
        CampaignLoaderTest.hasProblem(assertThrows(ConfigException.class,
                () -> CampaignLoader.parse(CampaignLoaderTest.FILE, image, Provision.EMBEDDED)).problems(),
                "camp.yaml:1 database.image:", "only applies to provision: docker");
    }

    @Test
    void theCliTakesTheProvisionsThatNeedNoUrlAndSaysSoInOneLineOtherwise() {
        CommandLine cl = Main.commandLine();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute("run", "--provision", "external",
                KNOWN.resolve("postgres-12.3-serializable.yaml").toString());
        assertEquals(Main.BAD_INPUT, code, err.toString());
        assertEquals("isostress: --provision must be embedded, local, patroni or docker, was 'external'",
                err.toString().strip());
    }
}
