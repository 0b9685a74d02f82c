package isostress.harness.db.mariadb;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.RunningDatabase;
import isostress.harness.provision.DockerContainers;
import isostress.harness.provision.DockerDatabase;
import isostress.harness.provision.DockerNode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.utility.DockerImageName;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A MariaDB Galera cluster of n containers of a mariadb image (the official one, or {@code docker/mariadb}'s) on a
 * Docker network of its own, where the nodes find each other by their names n1..nn. Node n1 bootstraps the cluster;
 * the others join one at a time (each started once the one before is synced), each receiving a full state transfer (mariabackup, which the official image ships),
 * and count as up once {@code wsrep_local_state_comment} is {@code Synced}. Finally every node must see all n.
 *
 * <p>A node restarted after a kill must join the running cluster, never bootstrap a second one, yet Docker restarts a
 * container with the command it was created with. So the nodes start through a small shell step that adds
 * {@code --wsrep-new-cluster} only on n1's first start, while its data directory is still empty (what
 * {@code docker/galera}'s entrypoint does too).
 */
final class GaleraCluster {
    private static final String PROVIDER = "/usr/lib/galera/libgalera_smm.so";
    private static final String ROOT_PASSWORD = "isostress";
    private static final String START = "if [ \"$GALERA_BOOTSTRAP\" = 1 ] && [ ! -d /var/lib/mysql/mysql ]; then "
            + "set -- \"$@\" --wsrep-new-cluster; fi; exec docker-entrypoint.sh \"$@\"";
    private static final String STATUS = "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = ";
    private static final String SYNCED = STATUS + "'WSREP_LOCAL_STATE_COMMENT'";
    private static final String CLUSTER_SIZE = STATUS + "'WSREP_CLUSTER_SIZE'";

    private GaleraCluster() {
    }

    static RunningDatabase start(DatabaseSpec db, String image, Path logs, int maxClients)
            throws IOException, InterruptedException {
        int n = db.nodes();
        String peers = IntStream.rangeClosed(1, n).mapToObj(i -> "n" + i).collect(Collectors.joining(","));
        Network network = DockerContainers.network();
        List<DockerNode> nodes = new ArrayList<>();
        long t0 = System.nanoTime();
        try {
            for (int i = 1; i <= n; i++) {
                nodes.add(node("n" + i, i == 1, peers, db, image, network, logs, maxClients));
            }
            for (DockerNode node : nodes) {
                node.awaitReady(Duration.ofSeconds(60), DockerContainers.jdbcProbe(node.url(),
                        DockerMariaDbProvisioner.probeTimeouts(), CLUSTER_SIZE, String.valueOf(n)));
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            DockerDatabase.removeAll(nodes, network);
            throw e;
        }
        String ports = nodes.stream().map(x -> String.valueOf(x.clientPort())).collect(Collectors.joining(", "));
        return new DockerDatabase(nodes, network, DockerContainers.USER, DockerContainers.PASSWORD,
                "docker Galera cluster of " + n + " MariaDB nodes (" + image + ") at " + nodes.get(0).host()
                        + " ports " + ports + ", synced in " + DockerContainers.seconds(t0) + " s");
    }

    private static DockerNode node(String name, boolean bootstrap, String peers, DatabaseSpec db, String image,
                                   Network network, Path logs, int maxClients)
            throws IOException, InterruptedException {
        List<String> opts = new ArrayList<>(List.of("--wsrep-on=ON", "--wsrep-provider=" + PROVIDER,
                "--wsrep-cluster-name=isostress", "--wsrep-cluster-address=gcomm://" + peers, "--wsrep-node-name=" + name,
                "--wsrep-sst-method=mariabackup", "--wsrep-sst-auth=root:" + ROOT_PASSWORD,
                // Galera's requirements (mariadb.com, "Configuring MariaDB Galera Cluster").
                "--binlog-format=ROW", "--default-storage-engine=InnoDB", "--innodb-autoinc-lock-mode=2"));
        opts.addAll(DockerMariaDbProvisioner.options(db, maxClients));
        GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(image).asCompatibleSubstituteFor("mariadb"))
                .withNetwork(network)
                .withNetworkAliases(name)
                .withEnv("MARIADB_ROOT_PASSWORD", ROOT_PASSWORD)
                .withEnv("MARIADB_DATABASE", DockerContainers.DATABASE)
                .withEnv("MARIADB_USER", DockerContainers.USER)
                .withEnv("MARIADB_PASSWORD", DockerContainers.PASSWORD)
                .withEnv("GALERA_BOOTSTRAP", bootstrap ? "1" : "0")
                .withExposedPorts(3306)
                .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("bash", "-c", START, "galera-node"))
                .withCommand(opts.toArray(String[]::new))
                .waitingFor(DockerContainers.NO_WAIT); // start() waits until the node is synced
        return DockerContainers.jdbcNode(name, c, "Galera node " + name, image, 3306, "jdbc:mariadb",
                DockerMariaDbProvisioner.probeTimeouts(),
                logs.resolve("mariadb-" + name + ".log"), SYNCED, "Synced");
    }
}
