package isostress.harness.config;

import isostress.checker.model.IsolationLevel;
import isostress.generator.workload.WorkloadType;
import isostress.harness.db.Isolation;
import isostress.harness.db.Provision;
import isostress.harness.faults.Faults;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad campaigns stop before anything starts, each problem named with file, line and key path. */
class CampaignLoaderTest {
    static final Path FILE = Path.of("camp.yaml");

    static List<String> problems(String yaml) {
        return assertThrows(ConfigException.class, () -> CampaignLoader.parse(FILE, yaml)).problems();
    }

    static void hasProblem(List<String> problems, String prefix, String fragment) {
        assertTrue(problems.stream().anyMatch(p -> p.startsWith(prefix) && p.contains(fragment)),
                "no problem starting '" + prefix + "' containing '" + fragment + "' in " + problems);
    }

    /**
     * PostgreSQL takes any text for a custom setting, so the snapshot log's switch is judged by the loader: a
     * misspelt value is refused at its key, not read as off.
     */
    @Test
    void snapshotLogSwitchMustBeOnOrOff() {
        hasProblem(problems("database:\n  settings: {isostress.log_snapshots: onn}\n"), "camp.yaml:",
                "database.settings.isostress.log_snapshots: must be on or off (true/false, yes/no, 1/0), was 'onn'");
        // YAML reads a bare on as the boolean true, which the server and the adapter take as on.
        assertEquals("true", CampaignLoader.parse(FILE, "database:\n  settings: {isostress.log_snapshots: on}\n")
                .serverSpec().settings().get("isostress.log_snapshots"));
    }

    @Test
    void defaults() {
        Campaign c = CampaignLoader.parse(FILE, "name: x\n");
        assertEquals("postgresql", c.database().type().name());
        assertEquals(Provision.EMBEDDED, c.database().provision());
        assertEquals("16.15", c.database().version());
        assertEquals(Isolation.SERIALIZABLE, c.database().isolation());
        assertEquals(WorkloadType.MINI, c.workload().type());
        assertEquals(List.of(IsolationLevel.SERIALIZABLE), c.levels());
        assertEquals(1, c.runs());
        assertEquals(Campaign.StopOnViolation.NEVER, c.stopOnViolation());
        assertTrue(c.streaming(), "mini-transaction workloads are checked while running");
    }

    @Test
    void stopOnViolationIsTrueFalseRunOrCampaign() {
        assertEquals(Campaign.StopOnViolation.RUN, CampaignLoader.parse(FILE, "stop-on-violation: true\n")
                .stopOnViolation());
        assertEquals(Campaign.StopOnViolation.RUN, CampaignLoader.parse(FILE, "stop-on-violation: run\n")
                .stopOnViolation());
        assertEquals(Campaign.StopOnViolation.CAMPAIGN, CampaignLoader.parse(FILE, "stop-on-violation: campaign\n")
                .stopOnViolation());
        assertEquals(Campaign.StopOnViolation.NEVER, CampaignLoader.parse(FILE, "stop-on-violation: false\n")
                .stopOnViolation());
        hasProblem(problems("name: x\nstop-on-violation: always\n"), "camp.yaml:2 stop-on-violation:",
                "must be true, false or run, campaign, was 'always'");
        Campaign c = CampaignLoader.parse(FILE, "runs: 4\n").withRuns(9)
                .withStopOnViolation(Campaign.StopOnViolation.CAMPAIGN);
        assertEquals(9, c.runs());
        assertEquals(Campaign.StopOnViolation.CAMPAIGN, c.stopOnViolation());
    }

    @Test
    void streamingIsForTheWorkloadsWithUniqueWrittenValues() {
        assertTrue(CampaignLoader.parse(FILE, "workload: {type: list-append}\n").streaming(), "on by default");
        assertTrue(CampaignLoader.parse(FILE, "workload: {type: rw-register}\n").streaming(), "on by default");
        assertTrue(!CampaignLoader.parse(FILE, "workload: {type: list-append}\ncheck: {streaming: false}\n")
                .streaming());
        assertTrue(!CampaignLoader.parse(FILE, "workload: {type: cas}\n").streaming(), "off by default");
        assertTrue(!CampaignLoader.parse(FILE, "check: {streaming: false}\n").streaming());
        hasProblem(problems("workload: {type: cas}\ncheck:\n  streaming: true\n"),
                "camp.yaml:3 check.streaming:", "needs workload.type mini, rw-register or list-append");
    }

    @Test
    void unknownKeyNamesTheKeyTheFileAndTheLine() {
        List<String> p = problems("name: x\nworkload:\n  type: mini\n  sesions: 8\n");
        hasProblem(p, "camp.yaml:4 workload.sesions:", "unknown key");
        hasProblem(p, "camp.yaml:4", "sessions");
    }

    @Test
    void wrongTypesAndImpossibleValuesAreAllReported() {
        List<String> p = problems("name: x\nworkload:\n  sessions: 0\n  transactions: many\n  keys: 10\n"
                + "  read-ratio: 1.5\nruns: -1\n");
        hasProblem(p, "camp.yaml:3 workload.sessions:", "must be >= 1, was 0");
        hasProblem(p, "camp.yaml:4 workload.transactions:", "must be an integer, was 'many'");
        hasProblem(p, "camp.yaml:6 workload.read-ratio:", "must be <= 1.0, was 1.5");
        hasProblem(p, "camp.yaml:7 runs:", "must be >= 1, was -1");
        assertEquals(4, p.size(), p.toString());
    }

    @Test
    void isolationTheDatabaseLacks() {
        List<String> p = problems("database:\n  type: mariadb\n  isolation: snapshot\n");
        hasProblem(p, "camp.yaml:3 database.isolation:", "mariadb has no snapshot isolation level");
    }

    @Test
    void choicesListWhatIsAllowed() {
        List<String> p = problems("database:\n  type: oracle\nworkload:\n  distribution: gauss\n");
        hasProblem(p, "camp.yaml:2 database.type:", "must be one of postgresql, mariadb, mysql, mongodb");
        hasProblem(p, "camp.yaml:4 workload.distribution:", "must be one of uniform, zipfian, hotspot, exponential");
    }

    @Test
    void externalNeedsAUrlOfTheRightKind() {
        hasProblem(problems("database: {type: postgresql, provision: external}\n"), "camp.yaml:1 database.url:",
                "is required with provision: external");
        hasProblem(problems("database:\n  type: postgresql\n  provision: external\n  url: jdbc:mysql://h/db\n"),
                "camp.yaml:4 database.url:", "must be a jdbc:postgresql: URL");
        hasProblem(problems("database:\n  provision: external\n  url: jdbc:postgresql://h/db\n  password-env: "
                + "ISOSTRESS_NO_SUCH_VARIABLE_SET\n"), "camp.yaml:4 database.password-env:", "is not set");
    }

    @Test
    void levelsShapesAndDurations() {
        List<String> p = problems("workload:\n  shapes: {R1W1: 2, R9: 1}\n  duration: soon\ncheck:\n  levels: [ser, acid]\n");
        hasProblem(p, "camp.yaml:2 workload.shapes.R9:", "unknown mini-transaction shape");
        hasProblem(p, "camp.yaml:3 workload.duration:", "must look like 500ms, 30s, 2m or 1h");
        hasProblem(p, "camp.yaml:5 check.levels[1]:", "unknown level 'acid'");
        Campaign c = CampaignLoader.parse(FILE, "workload:\n  duration: 90s\ncheck:\n  levels: [si, sser]\n");
        assertEquals(90, c.duration().toSeconds());
        assertEquals(List.of(IsolationLevel.SNAPSHOT_ISOLATION, IsolationLevel.STRICT_SERIALIZABLE), c.levels());
    }

    @Test
    void twoKeyShapesNeedTwoKeys() {
        hasProblem(problems("workload: {keys: 1}\n"), "camp.yaml:1 workload.keys:", "need at least 2 keys");
        CampaignLoader.parse(FILE, "workload: {keys: 1, shapes: {R1W1: 1}}\n");
    }

    @Test
    void malformedYamlAndNonMappings() {
        hasProblem(problems("name: x\nworkload: [\n"), "camp.yaml:", "malformed YAML");
        hasProblem(problems("- just\n- a list\n"), "camp.yaml:1", "must be a YAML mapping");
        hasProblem(problems("database: postgresql\n"), "camp.yaml:1 database:", "must be a mapping of keys");
    }

    @Test
    void mongodbAndClustersAreCheckedForWhatTheyNeed() {
        hasProblem(problems("database: {type: mongodb}\n"), "camp.yaml:1 database.url:", "required");
        hasProblem(problems("database: {type: mongodb, url: 'jdbc:postgresql://x/y'}\n"), "camp.yaml:1 database.url:",
                "mongodb://");
        hasProblem(problems("database: {type: mongodb, provision: local}\n"), "camp.yaml:1 database.provision:",
                "external");
        hasProblem(problems("database: {type: postgresql, nodes: 3}\n"), "camp.yaml:1 database.nodes:", "one server");
        hasProblem(problems("database: {type: mariadb, provision: local, image: x}\n"), "camp.yaml:1 database.image:",
                "docker");
        Campaign c = CampaignLoader.parse(FILE, "database: {type: mariadb, provision: local, nodes: 3, timeout: 4s}\n");
        assertEquals(3, c.database().nodes());
        assertEquals(java.time.Duration.ofSeconds(4), c.database().timeout());
        assertEquals(java.time.Duration.ofSeconds(4), c.database().connectTimeout(), "no longer than timeout");
        assertEquals(java.time.Duration.ofSeconds(10), CampaignLoader.parse(FILE, "database: {}\n").database()
                .connectTimeout(), "10 s by default, though statements may take 60 s");
        assertEquals(java.time.Duration.ofSeconds(30), CampaignLoader.parse(FILE, "database: {connect-timeout: 30s}\n")
                .database().connectTimeout());
        hasProblem(problems("database: {connect-timeout: 0s}\n"), "camp.yaml:1 database.connect-timeout:",
                "more than 0");
        assertEquals(null, c.nemesis());
        hasProblem(problems("database: {writes: insert}\n"), "camp.yaml:1 database.writes:", "upsert");
        hasProblem(problems("database: {type: mongodb, url: 'mongodb://h/', writes: upsert}\n"),
                "camp.yaml:1 database.writes:", "SQL");
        Campaign u = CampaignLoader.parse(FILE, "database: {writes: upsert, op-pause: 20ms}\n");
        assertTrue(u.database().upsert());
        assertEquals(java.time.Duration.ofMillis(20), u.database().opPause());
    }

    @Test
    void nemesisNamesBadFaultsTargetsAndDurations() {
        List<String> p = problems("database: {type: mariadb, provision: local, nodes: 3}\n"
                + "nemesis:\n  faults: [kill, explode]\n  interval: soon\n  targets: [2, 5]\n  durration: 1s\n");
        hasProblem(p, "camp.yaml:3 nemesis.faults[1]:",
                "unknown fault 'explode'; known: kill, pause, partition, latency, drop, crash-primary, "
                + "kill-primary-postgres, kill-primary-patroni, partition-primary, pause-primary, switchover");
        hasProblem(p, "camp.yaml:4 nemesis.interval:", "500ms");
        hasProblem(p, "camp.yaml:5 nemesis.targets[1]:", "node 5 does not exist");
        hasProblem(p, "camp.yaml:6 nemesis.durration:", "unknown key");
        hasProblem(problems("database: {type: postgresql, provision: external, url: 'jdbc:postgresql://h/d'}\n"
                + "nemesis: {faults: [kill]}\n"), "camp.yaml:2 nemesis.faults:", "latency and drop");
        hasProblem(problems("nemesis: {faults: []}\n"), "camp.yaml:1 nemesis.faults:", "at least one");
        hasProblem(problems("database: {type: mariadb, provision: local, nodes: 3}\n"
                + "nemesis: {faults: [kill, crash-primary]}\n"), "camp.yaml:2 nemesis.faults:",
                "crash-primary acts on the primary a failover manager elects: it needs provision: patroni, was mariadb "
                + "with provision: local");
        Campaign patroni = CampaignLoader.parse(FILE, "database: {type: postgresql, provision: patroni}\n"
                + "nemesis: {faults: [crash-primary, kill-primary-patroni, switchover, kill, pause]}\n");
        assertEquals(Faults.list("crash-primary", "kill-primary-patroni", "switchover", "kill", "pause"),
                patroni.nemesis().faults());
        Campaign c = CampaignLoader.parse(FILE, "database: {type: mariadb, provision: local, nodes: 3}\n"
                + "nemesis: {faults: [pause, partition], interval: 2s, duration: 500ms, targets: [n3]}\n");
        assertEquals(Faults.list("pause", "partition"), c.nemesis().faults());
        assertEquals(java.time.Duration.ofMillis(500), c.nemesis().duration());
        assertEquals(List.of(3), c.nemesis().targets());
        assertEquals(Campaign.DEFAULT_TIMEOUT, c.database().timeout());
    }
}
