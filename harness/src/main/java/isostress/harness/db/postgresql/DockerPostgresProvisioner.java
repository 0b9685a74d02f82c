package isostress.harness.db.postgresql;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import isostress.harness.provision.DockerContainers;
import isostress.harness.provision.DockerEngine;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * {@code provision: docker} for PostgreSQL: one server ({@code postgres:<version>} when the engine has it, else an
 * image built here from the embedded provisioner's binaries of that version, default the bundled one:
 * {@link #image}), or with {@code database.replicas} the primary of that many standbys ({@link DockerStandbys}).
 * The server gets the campaign's settings, plus room for the clients and the same 20 ms deadlock timeout as the
 * embedded one; its output goes to {@code postgresql-n1.log}.
 */
final class DockerPostgresProvisioner implements Provisioner {
    static final String DEFAULT_VERSION = "16";

    @Override
    public RunningDatabase start(DatabaseSpec db, Path logs, int maxClients) throws IOException, InterruptedException {
        DockerContainers.prepare(logs);
        String image = image(db);
        List<String> cmd = new ArrayList<>(List.of("postgres", "-c", "fsync=off",
                "-c", "max_connections=" + Math.max(100, maxClients + 20), "-c", "deadlock_timeout=20ms"));
        for (Map.Entry<String, String> e : db.settings().entrySet()) cmd.addAll(List.of("-c", e.getKey() + "=" + e.getValue()));
        if (db.replicas().count() > 0) return DockerStandbys.start(db, image, cmd, logs);
        return DockerContainers.single(container(image, cmd), "PostgreSQL", image, 5432, "jdbc:postgresql",
                probeTimeouts(), logs.resolve("postgresql-n1.log"));
    }

    /** How long a readiness probe may wait to connect and for an answer: pgjdbc counts in seconds. */
    static Properties probeTimeouts() {
        Properties p = new Properties();
        p.setProperty("connectTimeout", "5");
        p.setProperty("socketTimeout", "10");
        return p;
    }

    /** A PostgreSQL container running {@code cmd}, its clients' user and database made on its first start. */
    static PostgreSQLContainer container(String image, List<String> cmd) {
        return container(new PostgreSQLContainer(imageName(image)), cmd);
    }

    static DockerImageName imageName(String image) {
        return DockerImageName.parse(image).asCompatibleSubstituteFor("postgres");
    }

    /** {@code c} (a subclass, say) set up as {@link #container(String, List)} does. */
    static PostgreSQLContainer container(PostgreSQLContainer c, List<String> cmd) {
        c.withDatabaseName(DockerContainers.DATABASE).withUsername(DockerContainers.USER)
                .withPassword(DockerContainers.PASSWORD)
                // PostgreSQL's shared memory for parallel queries lives in /dev/shm, 64 MB in a container by default.
                .withSharedMemorySize(256L << 20)
                .waitingFor(DockerContainers.NO_WAIT);
        c.setCommand(cmd.toArray(String[]::new));
        return c;
    }

    /**
     * The campaign's {@code image}; else {@code postgres:<version>} if the engine has it; else, for a version zonky
     * publishes (the embedded provisioner's versions; with none given, its default), an image built here from those
     * binaries ({@link ZonkyPostgresImage}), so no registry is needed; else the official image, pulled.
     */
    static String image(DatabaseSpec db) throws IOException, InterruptedException {
        if (db.image() != null) return db.image();
        String official = DockerContainers.image(db, "postgres", DEFAULT_VERSION);
        if (DockerEngine.hasImage(official)) return official;
        String version = db.version() != null ? db.version() : ZonkyBundles.bundledVersion();
        if (!ZonkyPostgresImage.buildable(version)) return official;
        return ZonkyPostgresImage.ensure(version, ZonkyPostgresImage.BASE, db.connectTimeout());
    }
}
