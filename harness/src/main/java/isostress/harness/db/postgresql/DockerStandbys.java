package isostress.harness.db.postgresql;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Replicas;
import isostress.harness.provision.DockerContainers;
import isostress.harness.provision.DockerDatabase;
import isostress.harness.provision.DockerEngine;
import isostress.harness.provision.DockerNode;
import isostress.harness.provision.Leftovers;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.testcontainers.containers.Network;
import org.testcontainers.postgresql.PostgreSQLContainer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * {@code provision: docker} with {@code database.replicas}: a PostgreSQL primary container (n1) and N
 * hot-standby containers (n2, ...) on a Docker network of their own, fed by physical streaming replication, as the
 * embedded provisioner's {@link HostStandbys} are. The images built from zonky's binaries have no pg_basebackup,
 * so the base backup is again a copy of the primary's data directory taken while it is stopped cleanly: the primary
 * container is stopped (fast shutdown), its data directory is read out of it with Docker's archive call, and each
 * standby container gets that copy plus {@link StandbyConfig}'s files before it first starts (so the image's
 * entrypoint finds a cluster and runs no initdb). Any image laid out like the official one works this way.
 *
 * <p>The standbys connect to {@code n1} on the network as the clients' user (a superuser, so it may replicate),
 * allowed by one pg_hba line; {@code synchronous_standby_names} is set on the primary with ALTER SYSTEM once the
 * copies are taken. Every container carries the harness's label ({@link DockerContainers#start}), so a killed
 * run's watchdog removes them.
 */
final class DockerStandbys implements DockerDatabase.Replication {
    private final DockerNode primary;
    private final List<DockerNode> standbys;
    private final ReplicaLag lag;

    private DockerStandbys(DockerNode primary, List<DockerNode> standbys, ReplicaLag lag) {
        this.primary = primary;
        this.standbys = List.copyOf(standbys);
        this.lag = lag;
    }

    /**
     * Starts the primary, copies its data directory while it is stopped, starts it again with the standbys, and
     * waits until every standby has replayed its WAL.
     *
     * @param command the primary's command line ({@code postgres -c ...}); the standbys run it too, plus theirs
     */
    static DockerDatabase start(DatabaseSpec db, String image, List<String> command, Path logs)
            throws IOException, InterruptedException {
        Replicas replicas = db.replicas();
        Network network = DockerContainers.network();
        List<DockerNode> nodes = new ArrayList<>();
        Path base = Files.createTempFile(Leftovers.prefix("pgbase"), ".tar");
        long t0 = System.nanoTime();
        try {
            DockerNode primary = node("n1", DockerPostgresProvisioner.container(image, command), network, image, logs,
                    "f");
            nodes.add(primary);
            int major = ReplicaLag.major(primary.url(), login());
            String pgdata = baseBackup(primary, base);
            primary.restart();
            for (int i = 1; i <= replicas.count(); i++) {
                String name = Replicas.nodeName(i);
                StandbyConfig standby = new StandbyConfig(major, "host=n1 port=5432 user=" + DockerContainers.USER
                        + " password=" + DockerContainers.PASSWORD + " application_name=" + name);
                List<String> cmd = new ArrayList<>(command);
                for (Map.Entry<String, String> s : standby.settings()) cmd.addAll(List.of("-c", s.getKey() + "=" + s.getValue()));
                PostgreSQLContainer c = new PostgreSQLContainer(DockerPostgresProvisioner.imageName(image)) {
                    @Override
                    protected void containerIsCreated(String containerId) {
                        try {
                            copyIn(containerId, base, pgdata, standby);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                };
                nodes.add(node(name, DockerPostgresProvisioner.container(c, cmd), network, image, logs, "t"));
            }
            if (replicas.synchronous() > 0) {
                try (Connection c = DriverManager.getConnection(primary.url(), login());
                     Statement st = c.createStatement()) {
                    st.execute("ALTER SYSTEM SET synchronous_standby_names = '" + replicas.synchronousStandbyNames() + "'");
                    st.execute("SELECT pg_reload_conf()");
                } catch (SQLException e) {
                    throw new IOException("setting synchronous_standby_names on n1: " + e.getMessage(), e);
                }
            }
            DockerStandbys standbys = new DockerStandbys(primary, nodes.subList(1, nodes.size()), null);
            standbys.awaitCaughtUp(DockerContainers.STARTUP);
            String what = "docker PostgreSQL (" + image + ") at " + primary.host() + ":" + primary.clientPort();
            return new DockerDatabase(nodes, network, DockerContainers.USER, DockerContainers.PASSWORD,
                    StandbyConfig.describe(what, standbys.standbys, replicas) + ", up in "
                            + DockerContainers.seconds(t0) + " s",
                    new DockerStandbys(primary, standbys.standbys, ReplicaLag.start(primary.url(), login(),
                            logs.resolve("replication.log"))));
        } catch (IOException | InterruptedException | RuntimeException e) {
            DockerDatabase.removeAll(nodes, network);
            throw e;
        } finally {
            Files.deleteIfExists(base);
        }
    }

    /** A container on the network as {@code name}, ready once {@code pg_is_in_recovery()} is {@code inRecovery}. */
    private static DockerNode node(String name, PostgreSQLContainer c, Network network, String image, Path logs,
                                   String inRecovery) throws IOException, InterruptedException {
        c.withNetwork(network).withNetworkAliases(name);
        return DockerContainers.jdbcNode(name, c, "PostgreSQL " + name, image, 5432, "jdbc:postgresql",
                DockerPostgresProvisioner.probeTimeouts(),
                logs.resolve("postgresql-" + name + ".log"), "SELECT pg_is_in_recovery()", inRecovery);
    }

    /**
     * Lets the standbys connect for replication, stops the primary's container cleanly, and writes its data
     * directory (as a tar, its top entry the directory itself) to {@code tar}; returns the directory's path.
     */
    private static String baseBackup(DockerNode primary, Path tar) throws IOException, InterruptedException {
        String id = primary.container().getContainerId();
        String pgdata = pgdata(id);
        var hba = primary.container().execInContainer("sh", "-c",
                "printf '\\nhost replication all all md5\\n' >> \"$PGDATA/pg_hba.conf\"");
        if (hba.getExitCode() != 0) throw new IOException("n1: cannot extend pg_hba.conf: " + hba.getStderr());
        DockerEngine.client().stopContainerCmd(id).withTimeout(60).exec();
        try (InputStream in = DockerEngine.client().copyArchiveFromContainerCmd(id, pgdata).exec()) {
            Files.copy(in, tar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return pgdata;
    }

    /** The container's PGDATA (the image's environment says), by default the official image's. */
    private static String pgdata(String id) throws IOException {
        String[] env = DockerEngine.client().inspectContainerCmd(id).exec().getConfig().getEnv();
        if (env != null) {
            for (String e : env) if (e.startsWith("PGDATA=")) return e.substring("PGDATA=".length());
        }
        return "/var/lib/postgresql/data";
    }

    /** Puts the base backup into a created (not yet started) container, then the files that make it a standby. */
    private static void copyIn(String containerId, Path base, String pgdata, StandbyConfig standby) throws IOException {
        String parent = pgdata.substring(0, pgdata.lastIndexOf('/'));
        try (InputStream in = Files.newInputStream(base)) {
            DockerEngine.client().copyArchiveToContainerCmd(containerId).withTarInputStream(in)
                    .withRemotePath(parent.isEmpty() ? "/" : parent).exec();
        }
        TarArchiveEntry dir;
        try (TarArchiveInputStream in = new TarArchiveInputStream(Files.newInputStream(base))) {
            dir = in.getNextEntry(); // the data directory itself: its owner owns the new files too
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream out = new TarArchiveOutputStream(bytes)) {
            for (Map.Entry<String, String> f : standby.files().entrySet()) {
                byte[] content = f.getValue().getBytes(StandardCharsets.UTF_8);
                TarArchiveEntry e = new TarArchiveEntry(f.getKey());
                e.setSize(content.length);
                e.setMode(0600);
                e.setUserId(dir.getLongUserId());
                e.setGroupId(dir.getLongGroupId());
                out.putArchiveEntry(e);
                out.write(content);
                out.closeArchiveEntry();
            }
        }
        DockerEngine.client().copyArchiveToContainerCmd(containerId)
                .withTarInputStream(new ByteArrayInputStream(bytes.toByteArray())).withRemotePath(pgdata).exec();
    }

    /** The clients' login, which the nodes' URLs do not carry. */
    private static Properties login() {
        Properties p = new Properties();
        p.setProperty("user", DockerContainers.USER);
        p.setProperty("password", DockerContainers.PASSWORD);
        return p;
    }

    /** Waits until every standby has replayed the WAL the primary has written by now ({@link ReplicaLag#awaitCaughtUp}). */
    @Override
    public void awaitCaughtUp(Duration wait) throws IOException, InterruptedException {
        ReplicaLag.awaitCaughtUp(primary.url(), standbys, DockerNode::log, login(), wait);
    }

    /** Stops the lag sampler (the containers are the database's to remove). */
    @Override
    public void close() {
        if (lag != null) lag.close();
    }
}
