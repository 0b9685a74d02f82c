package isostress.harness.provision;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.RunningDatabase;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.containers.wait.strategy.WaitStrategy;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What every database's {@code provision: docker} shares, through Testcontainers: a container started with the
 * harness's owner label (so a killed harness's watchdog removes it), its client port on a fixed free host port (so a
 * node keeps its address across a kill and restart), its output in the run's logs, and a probe that says when it is
 * ready. Each database's own Docker provisioner ({@code db.<database>}) picks the image, the module and the command
 * line. Clients log in as {@value #USER} (password {@value #PASSWORD}), which owns database {@value #DATABASE}
 * (MongoDB: no authentication).
 */
public final class DockerContainers {
    public static final String USER = "isostress", PASSWORD = "isostress", DATABASE = "isostress";
    /** First start: an image's first initialization (initdb, mariadb-install-db) takes seconds, a slow disk more. */
    public static final Duration STARTUP = Duration.ofMinutes(3);
    /** A restarted server recovers its data (a Galera node: a whole state transfer) before it is ready. */
    public static final Duration RESTART = Duration.ofMinutes(3);
    /**
     * Instead of Testcontainers' waits, which run out their whole timeout when the server exits (a bad setting, say),
     * the JDBC databases are waited for by their node's probe, which logs in as the clients will and gives up as soon
     * as the container stops. Both images keep TCP closed until the real server runs (the entrypoints' initializing
     * servers listen on a socket only), so a login over TCP means ready.
     */
    public static final WaitStrategy NO_WAIT = new AbstractWaitStrategy() {
        @Override
        protected void waitUntilReady() {
        }
    };

    private DockerContainers() {
    }

    /** Makes the run's log directory and fails first, and clearly, when there is no Docker engine. */
    public static void prepare(Path logs) throws IOException {
        java.nio.file.Files.createDirectories(logs);
        DockerEngine.client();
    }

    /** The campaign's image, or the official one of its version (or of {@code dflt}). */
    public static String image(DatabaseSpec db, String repository, String dflt) {
        if (db.image() != null) return db.image();
        return repository + ":" + (db.version() != null ? db.version() : dflt);
    }

    /**
     * Starts a one-server JDBC database on a fixed host port; the node's probe is a query.
     *
     * @param timeouts the driver's connect and socket timeouts for the probe, in the driver's units
     */
    public static RunningDatabase single(GenericContainer<?> c, String what, String image, int containerPort,
                                         String scheme, Properties timeouts, Path logFile)
            throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        DockerNode node = jdbcNode("n1", c, what, image, containerPort, scheme, timeouts, logFile, "SELECT 1", "1");
        return new DockerDatabase(List.of(node), null, USER, PASSWORD, "docker " + what + " (" + image + ") at "
                + node.host() + ":" + node.clientPort() + ", up in " + seconds(t0) + " s");
    }

    /**
     * Starts {@code c} with its client port on a fixed free host port and waits until {@code query} gives
     * {@code expected} there; removes it when it does not.
     */
    public static DockerNode jdbcNode(String name, GenericContainer<?> c, String what, String image,
                                      int containerPort, String scheme, Properties timeouts, Path logFile,
                                      String query, String expected)
            throws IOException, InterruptedException {
        int port = Host.freePort();
        c.setPortBindings(List.of(port + ":" + containerPort));
        ContainerLog log = new ContainerLog(logFile);
        c.withLogConsumer(log);
        start(c, what, image, log);
        String host = c.getHost();
        String url = scheme + "://" + host + ":" + port + "/" + DATABASE;
        DockerNode node = new DockerNode(name, c, url, host, port, jdbcProbe(url, timeouts, query, expected), RESTART, log);
        try {
            node.awaitReady(STARTUP);
        } catch (IOException | InterruptedException e) {
            DockerDatabase.removeAll(List.of(node), null);
            throw e;
        }
        return node;
    }

    /** A Docker network for one database's nodes, labelled like its containers so a killed harness's watchdog removes it. */
    public static Network network() {
        Watchdog.docker();
        return Network.builder().createNetworkCmdModifier(c -> c.withLabels(Map.of(
                Leftovers.DOCKER_OWNER, Long.toString(ProcessHandle.current().pid())))).build();
    }

    /** Starts {@code c}; when it fails, says which image and where its output went. */
    public static void start(GenericContainer<?> c, String what, String image, ContainerLog log) throws IOException {
        if (!DockerEngine.hasImage(image)) {
            System.err.println("isostress: image " + image + " is not here yet: pulling it");
        }
        // Whose it is: without Ryuk, a harness killed by SIGKILL leaves its containers; its watchdog removes them,
        // or else the next run removes those whose owner is gone (Leftovers).
        Watchdog.docker();
        c.withLabel(Leftovers.DOCKER_OWNER, Long.toString(ProcessHandle.current().pid()));
        try {
            c.start();
        } catch (RuntimeException e) {
            log.close();
            c.stop();
            Throwable cause = e;
            while (cause.getCause() != null) cause = cause.getCause();
            throw new IOException("docker " + what + " (" + image + ") did not start: " + cause.getMessage()
                    + " (its output: " + log.file() + ")", e);
        }
    }

    /**
     * A probe that logs in as the clients do and expects {@code query}'s first value to be {@code expected}.
     *
     * @param timeouts the driver's connect and socket timeouts (each driver has its own units)
     */
    public static DockerNode.Probe jdbcProbe(String url, Properties timeouts, String query, String expected) {
        Properties p = new Properties();
        p.putAll(timeouts);
        p.setProperty("user", USER);
        p.setProperty("password", PASSWORD);
        return () -> {
            try (Connection conn = DriverManager.getConnection(url, p);
                 Statement s = conn.createStatement();
                 ResultSet rs = s.executeQuery(query)) {
                String got = rs.next() ? rs.getString(1) : null;
                if (expected.equals(got)) return true;
                throw new IOException(query + " gave " + got + ", not " + expected);
            }
        };
    }

    public static String seconds(long t0) {
        return String.format("%.1f", (System.nanoTime() - t0) / 1e9);
    }
}
