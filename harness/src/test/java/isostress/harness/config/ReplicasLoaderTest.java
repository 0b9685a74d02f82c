package isostress.harness.config;

import isostress.harness.db.Replicas;
import org.junit.jupiter.api.Test;

import static isostress.harness.config.CampaignLoaderTest.FILE;
import static isostress.harness.config.CampaignLoaderTest.hasProblem;
import static isostress.harness.config.CampaignLoaderTest.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code database.replicas}, {@code database.synchronous-standbys} and {@code workload.read-from}. */
class ReplicasLoaderTest {
    private static Replicas replicas(String yaml) {
        return CampaignLoader.parse(FILE, yaml).database().replicas();
    }

    @Test
    void defaultsAreOneServerOrOneSynchronousStandbyAsRds() {
        assertEquals(Replicas.NONE, replicas("name: x\n"));
        Replicas r = replicas("database: {replicas: 2, isolation: repeatable-read}\n");
        assertEquals(new Replicas(2, 1, Replicas.ReadFrom.PRIMARY), r);
        assertEquals("ANY 1 (n2, n3)", r.synchronousStandbyNames());
        assertEquals("", new Replicas(2, 0, Replicas.ReadFrom.ANY).synchronousStandbyNames());
    }

    @Test
    void readFromAndSynchronousStandbysAreRead() {
        Replicas r = replicas("database: {replicas: 3, synchronous-standbys: 2, isolation: snapshot}\n"
                + "workload: {type: list-append, read-from: replicas}\n");
        assertEquals(new Replicas(3, 2, Replicas.ReadFrom.REPLICAS), r);
        assertEquals("ANY 2 (n2, n3, n4)", r.synchronousStandbyNames());
        assertEquals(Replicas.ReadFrom.ANY, replicas("database: {replicas: 1, isolation: read-committed}\n"
                + "workload: {type: rw-register, read-from: any}\n").readFrom());
        // Serializable reads only from the primary: allowed.
        assertEquals(Replicas.ReadFrom.PRIMARY, replicas("database: {replicas: 1}\n").readFrom());
    }

    @Test
    void readNodesGoRoundRobin() {
        assertEquals(0, Replicas.ReadFrom.PRIMARY.readNode(5, 2));
        assertEquals(1, Replicas.ReadFrom.REPLICAS.readNode(0, 2));
        assertEquals(2, Replicas.ReadFrom.REPLICAS.readNode(1, 2));
        assertEquals(1, Replicas.ReadFrom.REPLICAS.readNode(2, 2));
        assertEquals(0, Replicas.ReadFrom.ANY.readNode(3, 2));
        assertEquals(2, Replicas.ReadFrom.ANY.readNode(5, 2));
    }

    @Test
    void badValuesAreNamedByFileLineAndKey() {
        hasProblem(problems("database:\n  replicas: -1\n"), "camp.yaml:2 database.replicas:", "must be >= 0");
        hasProblem(problems("database:\n  replicas: 9\n"), "camp.yaml:2 database.replicas:", "must be <= 8");
        hasProblem(problems("database:\n  replicas: two\n"), "camp.yaml:2 database.replicas:", "must be an integer");
        hasProblem(problems("database:\n  isolation: repeatable-read\n  replicas: 1\n  synchronous-standbys: 2\n"),
                "camp.yaml:4 database.synchronous-standbys:", "is more than the 1 replica(s)");
        hasProblem(problems("database:\n  synchronous-standbys: 1\n"), "camp.yaml:2 database.synchronous-standbys:",
                "only applies with database.replicas");
        hasProblem(problems("database: {isolation: repeatable-read}\nworkload:\n  read-from: replicas\n"),
                "camp.yaml:3 workload.read-from:", "replicas needs database.replicas of at least 1");
        hasProblem(problems("database: {replicas: 2}\nworkload:\n  read-from: any\n"),
                "camp.yaml:3 workload.read-from:", "a PostgreSQL standby has no SERIALIZABLE");
        hasProblem(problems("database: {replicas: 2, isolation: repeatable-read}\nworkload:\n  read-from: all\n"),
                "camp.yaml:3 workload.read-from:", "must be one of primary, replicas, any, was 'all'");
    }

    @Test
    void replicasArePostgresqlsStartedByIsostressOfAnyVersion() {
        hasProblem(problems("database:\n  type: mariadb\n  replicas: 2\n"), "camp.yaml:3 database.replicas:",
                "read replicas are PostgreSQL's");
        hasProblem(problems("database:\n  provision: external\n  url: jdbc:postgresql://db/x\n  replicas: 2\n"),
                "camp.yaml:4 database.replicas:", "provision: embedded, local or docker");
        assertEquals(2, CampaignLoader.parse(FILE, "database:\n  provision: docker\n  isolation: repeatable-read\n"
                + "  replicas: 2\n").database().replicas().count(), "docker runs standbys too");
        assertEquals(1, CampaignLoader.parse(FILE, "database:\n  version: \"11.7\"\n  isolation: repeatable-read\n"
                + "  replicas: 1\n").database().replicas().count(), "so does PostgreSQL 11 (recovery.conf)");
        hasProblem(problems("database:\n  isolation: repeatable-read\n  replicas: 1\nworkload: {type: sql}\n"),
                "camp.yaml:3 database.replicas:", "sql workloads run on a single server");
    }

    /**
     * Faults run on standbys isostress starts on this machine, n2, n3, ... after the primary n1; Docker standbys are
     * refused with a sentence, and so are targets beyond the standbys and role faults (no failover manager).
     */
    @Test
    void faultsRunOnEmbeddedAndLocalStandbysOnly() {
        Campaign c = CampaignLoader.parse(FILE, "database:\n  isolation: repeatable-read\n  replicas: 2\n"
                + "nemesis: {faults: [kill, pause, partition, latency, drop], targets: [n2, n3]}\n");
        assertEquals(2, c.database().replicas().count());
        assertEquals(java.util.List.of(2, 3), c.nemesis().targets());
        CampaignLoader.parse(FILE, "database:\n  provision: local\n  isolation: repeatable-read\n  replicas: 1\n"
                + "nemesis: {faults: [kill]}\n");
        hasProblem(problems("database:\n  provision: docker\n  isolation: repeatable-read\n  replicas: 1\n"
                + "nemesis: {faults: [kill]}\n"), "camp.yaml:4 database.replicas:",
                "faults (nemesis) run with replicas that isostress starts on this machine (provision: embedded or "
                        + "local), not yet with provision: docker");
        hasProblem(problems("database:\n  isolation: repeatable-read\n  replicas: 2\n"
                + "nemesis:\n  faults: [kill]\n  targets: [n4]\n"), "camp.yaml:6 nemesis.targets[0]:",
                "node 4 does not exist: the database has 3 node(s) (n1 the primary, n2 to n3 its standbys)");
        hasProblem(problems("database:\n  isolation: repeatable-read\n  replicas: 2\n"
                + "nemesis:\n  faults: [crash-primary]\n"), "camp.yaml:5 nemesis.faults:",
                "crash-primary acts on the primary a failover manager elects: it needs provision: patroni");
    }
}
