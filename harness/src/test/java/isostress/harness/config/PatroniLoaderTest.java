package isostress.harness.config;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Provision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static isostress.harness.config.CampaignLoaderTest.FILE;
import static isostress.harness.config.CampaignLoaderTest.hasProblem;
import static isostress.harness.config.CampaignLoaderTest.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code provision: patroni} and Patroni's own settings ({@code database.patroni}). */
class PatroniLoaderTest {
    private static DatabaseSpec database(String yaml) {
        return CampaignLoader.parse(FILE, yaml).database();
    }

    @Test
    void aPatroniClusterHasThreeMembersUnlessTold() {
        DatabaseSpec d = database("database: {provision: patroni}\n");
        assertEquals(Provision.PATRONI, d.provision());
        assertEquals(3, d.nodes());
        assertEquals(Map.of(), d.patroni());
        assertEquals(5, database("database: {provision: patroni, nodes: 5}\n").nodes());
    }

    @Test
    void patroniSettingsPassThroughInTheirOrder() {
        DatabaseSpec d = database("database:\n  provision: patroni\n  patroni:\n    synchronous_mode: true\n"
                + "    synchronous_mode_strict: true\n    maximum_lag_on_failover: 1048576\n    ttl: 20\n");
        assertEquals(List.of("synchronous_mode", "synchronous_mode_strict", "maximum_lag_on_failover", "ttl"),
                List.copyOf(d.patroni().keySet()));
        assertEquals("1048576", d.patroni().get("maximum_lag_on_failover"));
        assertEquals("true", d.patroni().get("synchronous_mode_strict"));
    }

    @Test
    void badPatroniSettingsGetASentenceWithLineAndKey() {
        List<String> p = problems("database:\n  provision: patroni\n  patroni:\n    ttl: ten\n"
                + "    synchronous_mode: yes please\n    loop_wiat: 2\n    master_start_timeout: 10\n"
                + "    retry_timeout: 0\n    postgresql: {use_slots: true}\n");
        hasProblem(p, "camp.yaml:4 database.patroni.ttl:", "must be a whole number, was 'ten'");
        hasProblem(p, "camp.yaml:5 database.patroni.synchronous_mode:", "must be true or false");
        hasProblem(p, "camp.yaml:6 database.patroni.loop_wiat:", "is not one of Patroni's dynamic settings");
        hasProblem(p, "camp.yaml:7 database.patroni.master_start_timeout:", "write primary_start_timeout");
        hasProblem(p, "camp.yaml:8 database.patroni.retry_timeout:", "must be at least 1");
        hasProblem(p, "camp.yaml:9 database.patroni.postgresql:", "must be a single value");
    }

    @Test
    void patroniSettingsAndMembersBelongToProvisionPatroni() {
        hasProblem(problems("database:\n  provision: embedded\n  patroni: {ttl: 10}\n"),
                "camp.yaml:3 database.patroni.ttl:", "only applies to provision: patroni, was provision: embedded");
        hasProblem(problems("database:\n  type: mariadb\n  provision: local\n  patroni: {ttl: 10}\n"),
                "camp.yaml:4 database.patroni.ttl:", "provision: patroni, was mariadb");
        hasProblem(problems("database:\n  provision: local\n  nodes: 3\n"), "camp.yaml:3 database.nodes:",
                "unless provision is patroni");
        hasProblem(problems("database:\n  type: mariadb\n  provision: patroni\n"), "camp.yaml:3 database.provision:",
                "patroni is PostgreSQL's");
    }

    /** Another Patroni than Debian's: a readable file, and only for provision: patroni. */
    @Test
    void aPatroniProgramIsAFileAndBelongsToProvisionPatroni(@TempDir Path dir)
            throws IOException {
        Path program = Files.writeString(dir.resolve("patroni.py"), "# a Patroni\n");
        assertEquals(program.toString(), database("database: {provision: patroni, patroni-program: '" + program
                + "'}\n").patroniProgram());
        assertNull(database("database: {provision: patroni}\n").patroniProgram());
        hasProblem(problems("database:\n  provision: patroni\n  patroni-program: " + dir.resolve("nothing.py") + "\n"),
                "camp.yaml:3 database.patroni-program:", "nothing.py is not a file (the Patroni program to run");
        hasProblem(problems("database:\n  provision: embedded\n  patroni-program: " + program + "\n"),
                "camp.yaml:3 database.patroni-program:", "only applies to provision: patroni, was provision: embedded");
        hasProblem(problems("database:\n  type: mariadb\n  provision: local\n  patroni-program: " + program + "\n"),
                "camp.yaml:4 database.patroni-program:", "provision: patroni, was mariadb");
    }

    /** Faults run on a Patroni cluster: the role faults and those of any member. */
    @Test
    void aNemesisRunsOnAPatroniCluster() {
        Campaign c = CampaignLoader.parse(FILE, "database: {type: postgresql, provision: patroni}\n"
                + "nemesis: {faults: [crash-primary, kill-primary-postgres, kill-primary-patroni, pause-primary, "
                + "switchover, kill, pause, partition]}\n");
        assertEquals(8, c.nemesis().faults().size());
        hasProblem(problems("database: {type: postgresql, provision: embedded}\nnemesis: {faults: [switchover]}\n"),
                "camp.yaml:2 nemesis.faults:", "switchover acts on the primary a failover manager elects");
    }

    /** Final reads: on by default with a nemesis where they show lost writes; asked for elsewhere, refused. */
    @Test
    void finalReadsAreOnWithANemesisForListAppendAndRegisters() {
        String nemesis = "nemesis: {faults: [crash-primary]}\n";
        String db = "database: {type: postgresql, provision: patroni}\n";
        assertTrue(CampaignLoader.parse(FILE, db + "workload: {type: list-append}\n" + nemesis).finalRead());
        assertTrue(CampaignLoader.parse(FILE, db + "workload: {type: rw-register}\n" + nemesis).finalRead());
        assertFalse(CampaignLoader.parse(FILE, db + "workload: {type: list-append}\n").finalRead(), "no nemesis");
        assertFalse(CampaignLoader.parse(FILE, db + "workload: {type: list-append, final-read: false}\n" + nemesis)
                .finalRead());
        assertTrue(CampaignLoader.parse(FILE, db + "workload: {type: list-append, final-read: true}\n").finalRead());
        assertFalse(CampaignLoader.parse(FILE, db + "workload: {type: mini}\n" + nemesis).finalRead());
        hasProblem(problems(db + "workload:\n  type: cas\n  final-read: true\n"), "camp.yaml:4 workload.final-read:",
                "applies to workload.type rw-register or list-append");
    }

    @Test
    void whatDoesNotRunOnAPatroniClusterYetIsRefused() {
        hasProblem(problems("database:\n  provision: patroni\n  replicas: 1\n"), "camp.yaml:3 database.replicas:",
                "give database.nodes instead");
        hasProblem(problems("database:\n  provision: patroni\n  bin-dir: /nonexistent\n"),
                "camp.yaml:3 database.bin-dir:", "/nonexistent is not a directory");
    }

    @Test
    void theWitnessIsReadFromAPatroniClusterWhenAskedAndEveryMemberDecodes() {
        String db = "database: {provision: patroni}\nworkload: {type: list-append}\n";
        assertFalse(CampaignLoader.parse(FILE, db).witness(), "off unless asked: it costs the cluster throughput");
        Campaign c = CampaignLoader.parse(FILE, db + "check: {witness: true}\n");
        assertTrue(c.witness());
        // The dynamic configuration carries the settings to every member, a promoted one included.
        assertEquals("logical", c.serverSpec().settings().get("wal_level"));
        assertEquals("on", c.serverSpec().settings().get("hot_standby_feedback"));
    }
}
