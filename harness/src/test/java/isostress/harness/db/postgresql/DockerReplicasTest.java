package isostress.harness.db.postgresql;

import com.github.dockerjava.api.exception.NotFoundException;
import isostress.harness.Services;
import isostress.harness.config.CampaignLoader;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.DbNode;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import isostress.harness.provision.DockerEngine;
import isostress.harness.provision.DockerNode;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code provision: docker} with {@code replicas: 2} starts a primary and two hot-standby
 * containers from the image built from zonky's binaries (16.15, and 11.7 for recovery.conf), on one network: a row
 * written on the primary is on both standbys once they have caught up, they refuse writes, the primary waits for one
 * standby of the two, each container's output is in logs/postgresql-nK.log, and closing removes every container.
 */
class DockerReplicasTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "version {0}")
    @ValueSource(strings = {"16.15", "11.7"})
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void primaryAndTwoStandbyContainersReplicateAndLeaveNothingBehind(String version) throws Exception {
        boolean ok = DockerEngine.available() && DockerEngine.hasImage(ZonkyPostgresImage.BASE);
        Services.require(ok, "Docker with the isostress images (" + ZonkyPostgresImage.BASE + ")",
                "install docker.io, start dockerd and run .ci/docker-images");
        DatabaseSpec spec = CampaignLoader.parse(Path.of("camp.yaml"), "database: {provision: docker, version: \""
                + version + "\", isolation: repeatable-read, replicas: 2}\n").database();
        Path logs = dir.resolve("logs");
        List<String> ids;
        try (RunningDatabase db = Provisioner.of(spec).start(spec, logs, 4)) {
            System.out.println(db.description());
            List<DbNode> nodes = db.nodes();
            assertEquals(List.of("n1", "n2", "n3"), nodes.stream().map(DbNode::name).toList());
            ids = nodes.stream().map(n -> ((DockerNode) n).container().getContainerId()).toList();
            try (Connection c = connect(db, nodes.get(0)); Statement st = c.createStatement()) {
                assertEquals(version.split("\\.")[0], EmbeddedReplicasTest.one(st, "SHOW server_version").split("\\.")[0]);
                st.execute("CREATE TABLE t (k int PRIMARY KEY, v text)");
                st.execute("INSERT INTO t VALUES (1, 'written on the primary')");
                assertEquals("ANY 1 (n2, n3)", EmbeddedReplicasTest.one(st, "SHOW synchronous_standby_names"));
                assertEquals("2", EmbeddedReplicasTest.one(st, "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'quorum'"));
            }
            db.awaitReplicas(Duration.ofSeconds(60));
            for (DbNode standby : nodes.subList(1, 3)) {
                try (Connection c = connect(db, standby); Statement st = c.createStatement()) {
                    EmbeddedReplicasTest.assertStandbyWithTheRow(st, standby.name());
                }
            }
            assertTrue(db.description().contains("2 streaming replica(s)"), db.description());
        }
        for (String id : ids) {
            assertThrows(NotFoundException.class, () -> DockerEngine.client().inspectContainerCmd(id).exec(),
                    "container " + id + " is still there after close");
        }
        for (String log : List.of("postgresql-n1.log", "postgresql-n2.log", "postgresql-n3.log")) {
            assertTrue(Files.readString(logs.resolve(log)).contains("ready to accept"), log);
        }
        assertTrue(Files.readString(logs.resolve("postgresql-n2.log")).contains("started streaming WAL"),
                "n2 streams from the primary");
        assertTrue(Files.readString(logs.resolve("replication.log")).contains("# n2: "), "lag summary per standby");
    }

    private static Connection connect(RunningDatabase db, DbNode node) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", db.user());
        p.setProperty("password", db.password());
        p.setProperty("connectTimeout", "10");
        p.setProperty("socketTimeout", "10");
        return DriverManager.getConnection(node.url(), p);
    }
}
