package isostress.harness.provision;

import isostress.harness.db.Database;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.mariadb.MariaDb;
import isostress.harness.db.mongodb.MongoDb;
import isostress.harness.db.postgresql.PostgreSql;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.mongodb.MongoDBContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * {@code provision: docker}: the database in containers, through Testcontainers' modules. PostgreSQL
 * ({@code postgres:<version>} when the engine has it, else an image built here from the embedded provisioner's
 * binaries of that version, default the bundled one: {@link #postgresImage}) and MariaDB ({@code mariadb:<version>},
 * default 10.11) run one server; MariaDB with {@code nodes: 3} is a Galera cluster ({@link GaleraCluster}); MongoDB
 * ({@code mongo:<version>}, default 7.0) is a one-node replica set, since its transactions need one. {@code image}
 * replaces the official image with any image that starts the same way (the ones {@code docker/} builds from Debian's
 * packages, for instance).
 *
 * <p>Each client port is published on a fixed free host port, so a node keeps its address across a kill and restart.
 * Clients log in as {@value #USER} (password {@value #PASSWORD}), which owns database {@value #DATABASE} (MongoDB: no
 * authentication). Servers get the campaign's settings, plus room for the clients and, for PostgreSQL, the same 20 ms
 * deadlock timeout as the embedded one. Container output goes to the run's logs ({@code <type>-<node>.log}).
 */
public final class DockerProvisioner implements Provisioner {
    static final String USER = "isostress", PASSWORD = "isostress", DATABASE = "isostress";
    static final String DEFAULT_POSTGRES = "16", DEFAULT_MARIADB = "10.11", DEFAULT_MONGO = "7.0";
    /** First start: an image's first initialization (initdb, mariadb-install-db) takes seconds, a slow disk more. */
    static final Duration STARTUP = Duration.ofMinutes(3);
    /** A restarted server recovers its data (a Galera node: a whole state transfer) before it is ready. */
    static final Duration RESTART = Duration.ofMinutes(3);
    /**
     * Instead of Testcontainers' waits, which run out their whole timeout when the server exits (a bad setting, say),
     * the JDBC databases are waited for by their node's probe, which logs in as the clients will and gives up as soon
     * as the container stops. Both images keep TCP closed until the real server runs (the entrypoints' initializing
     * servers listen on a socket only), so a login over TCP means ready.
     */
    static final WaitStrategy NO_WAIT = new AbstractWaitStrategy() {
        @Override
        protected void waitUntilReady() {
        }
    };

    @Override
    public RunningDatabase start(DatabaseSpec db, Path logs, int maxClients) throws IOException, InterruptedException {
        Files.createDirectories(logs);
        DockerEngine.client(); // fails first, and clearly, when there is no engine
        // The provisioner, not the database, picks the module: the adapters sit below the provisioners.
        Database type = db.type();
        if (type instanceof PostgreSql) return postgres(db, logs, maxClients);
        if (type instanceof MariaDb) return mariadb(db, logs, maxClients);
        if (type instanceof MongoDb) return mongo(db, logs);
        throw new IOException("provision: docker runs postgresql, mariadb (one server or Galera) and mongodb; for "
                + type.name() + " use provision: external");
    }

    /** MariaDB's official image: one server, or a Galera cluster with {@code nodes > 1}. */
    static RunningDatabase mariadb(DatabaseSpec db, Path logs, int maxClients)
            throws IOException, InterruptedException {
        String image = image(db, "mariadb", DEFAULT_MARIADB);
        return db.nodes() > 1 ? GaleraCluster.start(db, image, logs, maxClients) : mariadb(db, image, logs, maxClients);
    }

    /** The campaign's image, or the official one of its version (or of {@code dflt}). */
    static String image(DatabaseSpec db, String repository, String dflt) {
        if (db.image() != null) return db.image();
        return repository + ":" + (db.version() != null ? db.version() : dflt);
    }

    /**
     * One PostgreSQL server: the campaign's image, the official one when it is here, else one built here; with
     * {@code database.replicas}, the primary of that many standbys ({@link DockerStandbys}).
     */
    static RunningDatabase postgres(DatabaseSpec db, Path logs, int maxClients)
            throws IOException, InterruptedException {
        String image = postgresImage(db);
        List<String> cmd = new ArrayList<>(List.of("postgres", "-c", "fsync=off",
                "-c", "max_connections=" + Math.max(100, maxClients + 20), "-c", "deadlock_timeout=20ms"));
        for (Map.Entry<String, String> e : db.settings().entrySet()) cmd.addAll(List.of("-c", e.getKey() + "=" + e.getValue()));
        if (db.replicas().count() > 0) return DockerStandbys.start(db, image, cmd, logs);
        return single(postgresContainer(image, cmd), "PostgreSQL", image, 5432, "jdbc:postgresql",
                logs.resolve("postgresql-n1.log"));
    }

    /** A PostgreSQL container running {@code cmd}, its clients' user and database made on its first start. */
    static PostgreSQLContainer postgresContainer(String image, List<String> cmd) {
        return postgresContainer(new PostgreSQLContainer(postgresImageName(image)), cmd);
    }

    static DockerImageName postgresImageName(String image) {
        return DockerImageName.parse(image).asCompatibleSubstituteFor("postgres");
    }

    /** {@code c} (a subclass, say) set up as {@link #postgresContainer(String, List)} does. */
    static PostgreSQLContainer postgresContainer(PostgreSQLContainer c, List<String> cmd) {
        c.withDatabaseName(DATABASE).withUsername(USER).withPassword(PASSWORD)
                // PostgreSQL's shared memory for parallel queries lives in /dev/shm, 64 MB in a container by default.
                .withSharedMemorySize(256L << 20)
                .waitingFor(NO_WAIT);
        c.setCommand(cmd.toArray(String[]::new));
        return c;
    }

    /**
     * The campaign's {@code image}; else {@code postgres:<version>} if the engine has it; else, for a version zonky
     * publishes (the embedded provisioner's versions; with none given, its default), an image built here from those
     * binaries ({@link ZonkyPostgresImage}), so no registry is needed; else the official image, pulled.
     */
    static String postgresImage(DatabaseSpec db) throws IOException, InterruptedException {
        if (db.image() != null) return db.image();
        String official = image(db, "postgres", DEFAULT_POSTGRES);
        if (DockerEngine.hasImage(official)) return official;
        String version = db.version() != null ? db.version() : PostgresBinaries.bundledVersion();
        if (!ZonkyPostgresImage.buildable(version)) return official;
        return ZonkyPostgresImage.ensure(version, ZonkyPostgresImage.BASE, db.connectTimeout());
    }

    private static RunningDatabase mariadb(DatabaseSpec db, String image, Path logs, int maxClients)
            throws IOException, InterruptedException {
        MariaDBContainer c = new MariaDBContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("mariadb")) {
            @Override
            protected void waitUntilContainerStarted() {
                // the node's probe waits instead: see NO_WAIT
            }
        }.withDatabaseName(DATABASE).withUsername(USER).withPassword(PASSWORD);
        c.setCommand(mariadbOptions(db, maxClients).toArray(String[]::new));
        return single(c, "MariaDB", image, 3306, "jdbc:mariadb", logs.resolve("mariadb-n1.log"));
    }

    /** The server options of a MariaDB node: room for the clients, then the campaign's settings. */
    static List<String> mariadbOptions(DatabaseSpec db, int maxClients) {
        // Options only: the official entrypoint (and docker/mariadb's) puts the server's name in front.
        List<String> opts = new ArrayList<>(List.of("--max-connections=" + Math.max(151, maxClients + 20)));
        for (Map.Entry<String, String> e : db.settings().entrySet()) opts.add("--" + e.getKey() + "=" + e.getValue());
        return opts;
    }

    /** Starts a one-server JDBC database on a fixed host port; the node's probe is a query. */
    private static RunningDatabase single(GenericContainer<?> c, String what, String image, int containerPort,
                                          String scheme, Path logFile) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        DockerNode node = jdbcNode("n1", c, what, image, containerPort, scheme, logFile, "SELECT 1", "1");
        return new DockerDatabase(List.of(node), null, USER, PASSWORD, "docker " + what + " (" + image + ") at "
                + node.host() + ":" + node.clientPort() + ", up in " + seconds(t0) + " s");
    }

    /**
     * Starts {@code c} with its client port on a fixed free host port and waits until {@code query} gives
     * {@code expected} there; removes it when it does not.
     */
    static DockerNode jdbcNode(String name, GenericContainer<?> c, String what, String image, int containerPort,
                               String scheme, Path logFile, String query, String expected)
            throws IOException, InterruptedException {
        int port = EmbeddedPostgresProvisioner.freePort();
        c.setPortBindings(List.of(port + ":" + containerPort));
        ContainerLog log = new ContainerLog(logFile);
        c.withLogConsumer(log);
        start(c, what, image, log);
        String host = c.getHost();
        String url = scheme + "://" + host + ":" + port + "/" + DATABASE;
        DockerNode node = new DockerNode(name, c, url, host, port, jdbcProbe(url, query, expected), RESTART, log);
        try {
            node.awaitReady(STARTUP);
        } catch (IOException | InterruptedException e) {
            DockerDatabase.removeAll(List.of(node), null);
            throw e;
        }
        return node;
    }

    /** A Docker network for one database's nodes, labelled like its containers so a killed harness's watchdog removes it. */
    static Network network() {
        Watchdog.docker();
        return Network.builder().createNetworkCmdModifier(c -> c.withLabels(Map.of(
                Leftovers.DOCKER_OWNER, Long.toString(ProcessHandle.current().pid())))).build();
    }

    /** MongoDB's official image as a one-node replica set. */
    static RunningDatabase mongo(DatabaseSpec db, Path logs) throws IOException, InterruptedException {
        if (db.nodes() > 1) {
            throw new IOException("provision: docker starts MongoDB as a one-node replica set; for " + db.nodes()
                    + " nodes run your own replica set and use provision: external");
        }
        String image = image(db, "mongo", DEFAULT_MONGO);
        MongoDBContainer c = new MongoDBContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("mongo"))
                .withReplicaSet();
        List<String> cmd = new ArrayList<>(List.of("--replSet", "docker-rs")); // what withReplicaSet initiates
        for (Map.Entry<String, String> e : db.settings().entrySet()) cmd.add("--" + e.getKey() + "=" + e.getValue());
        c.setCommand(cmd.toArray(String[]::new));
        c.withStartupTimeout(STARTUP);
        int port = EmbeddedPostgresProvisioner.freePort();
        c.setPortBindings(List.of(port + ":27017"));
        ContainerLog log = new ContainerLog(logs.resolve("mongodb-n1.log"));
        c.withLogConsumer(log);
        long t0 = System.nanoTime();
        start(c, "MongoDB", image, log);
        String host = c.getHost();
        // The replica set's one member is named after the container, which only Docker's network resolves: the
        // clients talk to this node directly.
        String url = "mongodb://" + host + ":" + port + "/" + DATABASE + "?directConnection=true";
        DockerNode node = new DockerNode("n1", c, url, host, port, () -> {
            var r = c.execInContainer("sh", "-c", "mongosh --quiet --eval 'db.hello().isWritablePrimary' "
                    + "|| mongo --quiet --eval 'db.isMaster().ismaster'");
            return r.getStdout().contains("true");
        }, RESTART, log);
        return new DockerDatabase(List.of(node), null, null, null, "docker MongoDB replica set of 1 (" + image
                + ") at " + host + ":" + port + ", up in " + seconds(t0) + " s");
    }

    /** Starts {@code c}; when it fails, says which image and where its output went. */
    static void start(GenericContainer<?> c, String what, String image, ContainerLog log) throws IOException {
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

    /** A probe that logs in as the clients do and expects {@code query}'s first value to be {@code expected}. */
    static DockerNode.Probe jdbcProbe(String url, String query, String expected) {
        Properties p = new Properties();
        p.setProperty("user", USER);
        p.setProperty("password", PASSWORD);
        boolean pg = url.startsWith("jdbc:postgresql:");
        p.setProperty("connectTimeout", pg ? "5" : "5000");   // PostgreSQL in seconds, MariaDB in milliseconds
        p.setProperty("socketTimeout", pg ? "10" : "10000");
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

    static String seconds(long t0) {
        return String.format("%.1f", (System.nanoTime() - t0) / 1e9);
    }
}
