package isostress.harness.db.mariadb;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import isostress.harness.provision.DockerContainers;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.utility.DockerImageName;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * {@code provision: docker} for MariaDB: {@code mariadb:<version>} (default {@value #DEFAULT_VERSION}) or the
 * campaign's image, one server, or with {@code nodes > 1} a Galera cluster ({@link GaleraCluster}). The server gets
 * room for the clients and the campaign's settings; its output goes to {@code mariadb-n1.log}. With the binary log
 * on ({@code check.witness}), a single server's user may also read it as a replica.
 */
final class DockerMariaDbProvisioner implements Provisioner {
    static final String DEFAULT_VERSION = "10.11";

    @Override
    public RunningDatabase start(DatabaseSpec db, Path logs, int maxClients) throws IOException, InterruptedException {
        DockerContainers.prepare(logs);
        String image = DockerContainers.image(db, "mariadb", DEFAULT_VERSION);
        return db.nodes() > 1 ? GaleraCluster.start(db, image, logs, maxClients) : single(db, image, logs, maxClients);
    }

    private static RunningDatabase single(DatabaseSpec db, String image, Path logs, int maxClients)
            throws IOException, InterruptedException {
        MariaDBContainer c = new MariaDBContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("mariadb")) {
            @Override
            protected void waitUntilContainerStarted() {
                // the node's probe waits instead: see DockerContainers.NO_WAIT
            }
        }.withDatabaseName(DockerContainers.DATABASE).withUsername(DockerContainers.USER)
                .withPassword(DockerContainers.PASSWORD);
        c.setCommand(options(db, maxClients).toArray(String[]::new));
        if (db.settings().containsKey("log_bin")) {
            // check.witness reads the binary log as a replica does; the image grants its user the database only.
            // The entrypoint runs this after creating the user (the official image's and docker/mariadb's alike).
            c.withCopyToContainer(Transferable.of("GRANT REPLICATION SLAVE, BINLOG MONITOR ON *.* TO '"
                    + DockerContainers.USER + "'@'%';\n"), "/docker-entrypoint-initdb.d/zz-isostress-witness.sql");
        }
        return DockerContainers.single(c, "MariaDB", image, 3306, "jdbc:mariadb", probeTimeouts(),
                logs.resolve("mariadb-n1.log"));
    }

    /** How long a readiness probe may wait to connect and for an answer: Connector/J counts in milliseconds. */
    static Properties probeTimeouts() {
        Properties p = new Properties();
        p.setProperty("connectTimeout", "5000");
        p.setProperty("socketTimeout", "10000");
        return p;
    }

    /** The server options of a MariaDB node: room for the clients, then the campaign's settings. */
    static List<String> options(DatabaseSpec db, int maxClients) {
        // Options only: the official entrypoint (and docker/mariadb's) puts the server's name in front.
        List<String> opts = new ArrayList<>(List.of("--max-connections=" + Math.max(151, maxClients + 20)));
        for (Map.Entry<String, String> e : db.settings().entrySet()) opts.add("--" + e.getKey() + "=" + e.getValue());
        return opts;
    }
}
