package isostress.harness.provision;

import com.github.dockerjava.api.exception.NotFoundException;
import isostress.harness.Services;
import isostress.harness.config.CampaignLoader;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.DbNode;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code provision: docker} on a real Docker engine, with images built from Debian's packages by
 * {@code .ci/docker-images} (no registry is reachable where CI runs); {@code ISOSTRESS_DOCKER_*_IMAGE} names others.
 * Each test starts its database, uses it as the clients would, acts on its nodes as the nemesis does, and checks that
 * close removed every container.
 */
class DockerContainersTest {
    private static final String POSTGRES = image("ISOSTRESS_DOCKER_POSTGRES_IMAGE", "isostress/postgres:15");
    private static final String MARIADB = image("ISOSTRESS_DOCKER_MARIADB_IMAGE", "isostress/mariadb:10.11");

    @TempDir
    Path logs;

    private static String image(String env, String dflt) {
        String v = System.getenv(env);
        return v == null || v.isBlank() ? dflt : v;
    }

    private static void requireDocker(String image) {
        boolean ok = DockerEngine.available() && DockerEngine.hasImage(image);
        Services.require(ok, "Docker with the isostress images (" + image + ")",
                "install docker.io, start dockerd and run .ci/docker-images");
    }

    /** The database section of a campaign, read as a user's YAML is. */
    private static DatabaseSpec database(String type, String image, int nodes, String settings) {
        String yaml = "database:\n  type: " + type + "\n  provision: docker\n  image: " + image + "\n  nodes: " + nodes
                + "\n  isolation: " + (type.equals("mongodb") ? "snapshot" : "serializable")
                + "\n  settings: " + settings + "\n";
        return CampaignLoader.parse(Path.of("docker-test.yaml"), yaml).database();
    }

    /** A connection that gives up within seconds, so a paused server shows as a timeout. */
    /** Each database's provision: docker, as a campaign gets it. */
    private static RunningDatabase docker(DatabaseSpec db, Path logs, int maxClients) throws Exception {
        return Provisioner.of(db).start(db, logs, maxClients);
    }

    private static Connection connect(RunningDatabase db, DbNode node, int timeoutSeconds) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", db.user());
        p.setProperty("password", db.password());
        boolean pg = node.url().startsWith("jdbc:postgresql:");
        p.setProperty("connectTimeout", String.valueOf(pg ? timeoutSeconds : timeoutSeconds * 1000));
        p.setProperty("socketTimeout", String.valueOf(pg ? timeoutSeconds : timeoutSeconds * 1000));
        return DriverManager.getConnection(node.url(), p);
    }

    private static String one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static void update(Connection c, String... sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String q : sql) s.executeUpdate(q);
        }
    }

    private static void assertRemoved(List<String> containerIds) throws Exception {
        for (String id : containerIds) {
            assertThrows(NotFoundException.class, () -> DockerEngine.client().inspectContainerCmd(id).exec(),
                    "container " + id + " is still there after close");
        }
    }

    private static List<String> containerIds(RunningDatabase db) {
        return db.nodes().stream().map(n -> ((DockerNode) n).container().getContainerId()).toList();
    }

    @Test
    @Timeout(240)
    void postgresServesClientsAndSurvivesKillRestartPauseResume() throws Exception {
        requireDocker(POSTGRES);
        List<String> ids;
        long t0 = System.nanoTime();
        try (RunningDatabase db = docker(
                database("postgresql", POSTGRES, 1, "{max_locks_per_transaction: 128}"), logs, 10)) {
            System.out.println(db.description());
            ids = containerIds(db);
            DbNode n = db.nodes().get(0);
            assertTrue(n.controllable() && n.pid() > 0, "a running, controllable node with a pid");
            assertEquals(db.jdbcUrl(), n.url());
            try (Connection c = connect(db, n, 10)) {
                update(c, "CREATE TABLE t (k int PRIMARY KEY, v int)", "INSERT INTO t VALUES (1, 10)");
                assertEquals("128", one(c, "SHOW max_locks_per_transaction"), "the campaign's settings reach the server");
                assertEquals("20ms", one(c, "SHOW deadlock_timeout"));
            }

            long t1 = System.nanoTime();
            n.kill();
            assertEquals(-1, n.pid(), "a killed node has no process");
            assertThrows(SQLException.class, () -> connect(db, n, 3).close());
            n.restart();
            System.out.printf("postgres kill+restart: %.1f s%n", (System.nanoTime() - t1) / 1e9);
            try (Connection c = connect(db, n, 10)) {
                assertEquals("10", one(c, "SELECT v FROM t WHERE k = 1"), "committed data survives SIGKILL, same URL");
            }

            try (Connection c = connect(db, n, 3)) {
                n.pause();
                assertThrows(SQLException.class, () -> one(c, "SELECT 1"), "a paused server does not answer");
                n.resume();
            }
            try (Connection c = connect(db, n, 10)) {
                assertEquals("1", one(c, "SELECT 1"), "a resumed server answers");
            }
        }
        System.out.printf("postgres test total: %.1f s%n", (System.nanoTime() - t0) / 1e9);
        assertRemoved(ids);
        String log = Files.readString(logs.resolve("postgresql-n1.log"));
        assertTrue(log.contains("ready to accept connections"), "the container's output is in the run's logs");
        assertTrue(log.split("ready to accept connections", -1).length - 1 >= 3,
                "the log covers the restart too (init server, server, restarted server)");
    }

    @Test
    @Timeout(180)
    void mariadbServesClientsWithTheCampaignsSettings() throws Exception {
        requireDocker(MARIADB);
        List<String> ids;
        try (RunningDatabase db = docker(
                database("mariadb", MARIADB, 1, "{innodb_snapshot_isolation: \"ON\"}"), logs, 10)) {
            System.out.println(db.description());
            ids = containerIds(db);
            DbNode n = db.nodes().get(0);
            assertTrue(n.url().startsWith("jdbc:mariadb://"), n.url());
            try (Connection c = connect(db, n, 10)) {
                update(c, "CREATE TABLE t (k int PRIMARY KEY, v int)", "INSERT INTO t VALUES (1, 10)");
                assertEquals("10", one(c, "SELECT v FROM t WHERE k = 1"));
                assertEquals("1", one(c, "SELECT @@innodb_snapshot_isolation"));
            }
        }
        assertRemoved(ids);
        assertTrue(Files.readString(logs.resolve("mariadb-n1.log")).contains("ready for connections"));
    }

    @Test
    @Timeout(420)
    void galeraNodesSyncReplicateAndRejoinAfterAKill() throws Exception {
        requireDocker(MARIADB);
        List<String> ids;
        try (RunningDatabase db = docker(database("mariadb", MARIADB, 3, "{}"), logs, 10)) {
            System.out.println(db.description());
            ids = containerIds(db);
            List<DbNode> nodes = db.nodes();
            assertEquals(3, nodes.size());
            for (DbNode n : nodes) {
                try (Connection c = connect(db, n, 10)) {
                    assertEquals("Synced", one(c, "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS "
                            + "WHERE VARIABLE_NAME = 'WSREP_LOCAL_STATE_COMMENT'"), n.name());
                    assertEquals("3", one(c, "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS "
                            + "WHERE VARIABLE_NAME = 'WSREP_CLUSTER_SIZE'"), n.name());
                }
            }
            try (Connection c = connect(db, nodes.get(0), 10)) {
                update(c, "CREATE TABLE t (k int PRIMARY KEY, v int)", "INSERT INTO t VALUES (1, 10)");
            }
            try (Connection c = connect(db, nodes.get(2), 10)) {
                update(c, "SET SESSION wsrep_sync_wait = 1"); // read after every write the cluster committed
                assertEquals("10", one(c, "SELECT v FROM t WHERE k = 1"), "n1's write is visible on n3");
            }

            // n1 bootstrapped the cluster; killed and restarted it must join the others, not start a second cluster.
            long t1 = System.nanoTime();
            nodes.get(0).kill();
            try (Connection c = connect(db, nodes.get(1), 10)) {
                update(c, "UPDATE t SET v = 20 WHERE k = 1");
            }
            nodes.get(0).restart();
            System.out.printf("galera n1 kill+restart (synced): %.1f s%n", (System.nanoTime() - t1) / 1e9);
            try (Connection c = connect(db, nodes.get(0), 10)) {
                assertEquals("3", one(c, "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS "
                        + "WHERE VARIABLE_NAME = 'WSREP_CLUSTER_SIZE'"), "n1 rejoined the cluster of 3");
                update(c, "SET SESSION wsrep_sync_wait = 1");
                assertEquals("20", one(c, "SELECT v FROM t WHERE k = 1"), "n1 caught up with what it missed");
            }
        }
        assertRemoved(ids);
        for (String n : List.of("n1", "n2", "n3")) assertTrue(Files.exists(logs.resolve("mariadb-" + n + ".log")), n);
    }

    @Test
    @Timeout(180)
    void mongodbReplicaSetOfOne() throws Exception {
        String image = System.getenv("ISOSTRESS_DOCKER_MONGODB_IMAGE");
        // No MongoDB image can be built from Debian's packages, so this runs only where one is named (and pulled).
        Assumptions.assumeTrue(image != null && !image.isBlank(),
                "ISOSTRESS_DOCKER_MONGODB_IMAGE names no MongoDB image (e.g. mongo:7.0): MongoDB in docker not tested");
        requireDocker(image);
        List<String> ids;
        try (RunningDatabase db = docker(database("mongodb", image, 1, "{}"), logs, 10)) {
            System.out.println(db.description());
            ids = containerIds(db);
            DockerNode n = (DockerNode) db.nodes().get(0);
            assertTrue(n.url().startsWith("mongodb://") && n.url().contains("directConnection=true"), n.url());
            n.awaitReady(Duration.ofSeconds(30));
            n.kill();
            n.restart(); // waits until the node is the replica set's primary again
            assertTrue(n.pid() > 0);
        }
        assertRemoved(ids);
    }
}
