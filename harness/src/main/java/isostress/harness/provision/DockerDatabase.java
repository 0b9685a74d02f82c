package isostress.harness.provision;

import isostress.harness.db.DbNode;
import isostress.harness.db.RunningDatabase;
import org.testcontainers.containers.Network;

import java.util.List;

/**
 * Databases in containers isostress started: one node per container. Closing copies each container's output into the
 * run's logs, then stops and removes the containers (with their data volumes) and the network they shared.
 */
public final class DockerDatabase implements RunningDatabase {
    private final List<DockerNode> nodes;
    private final Network network;
    private final String user, password, description;
    private final Replication standbys;
    private boolean closed;

    /**
     * @param network the nodes' own network, removed on close; null when they have none
     * @param user    the clients' user (can create tables), or null when the server wants none (MongoDB)
     */
    public DockerDatabase(List<DockerNode> nodes, Network network, String user, String password, String description) {
        this(nodes, network, user, password, description, null);
    }

    /** @param standbys what watches the standbys among {@code nodes} (a PostgreSQL primary's), or null */
    public DockerDatabase(List<DockerNode> nodes, Network network, String user, String password, String description,
                          Replication standbys) {
        this.standbys = standbys;
        this.nodes = List.copyOf(nodes);
        this.network = network;
        this.user = user;
        this.password = password;
        this.description = description;
    }

    /** The replication among the nodes, as the database that set it up watches it. */
    public interface Replication extends AutoCloseable {
        /** Waits until every replica has replayed what the primary has written so far. */
        void awaitCaughtUp(java.time.Duration wait) throws java.io.IOException, InterruptedException;

        @Override
        void close();
    }

    public String jdbcUrl() {
        return nodes.get(0).url();
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    public String description() {
        return description;
    }

    public List<DbNode> nodes() {
        return List.copyOf(nodes);
    }

    @Override
    public void awaitReplicas(java.time.Duration wait) throws java.io.IOException, InterruptedException {
        if (standbys != null) standbys.awaitCaughtUp(wait);
    }

    public synchronized void close() {
        if (closed) return;
        closed = true;
        if (standbys != null) standbys.close();
        removeAll(nodes, network);
    }

    /** Copies the logs of and removes {@code nodes}, then {@code network}: also for a start that failed half way. */
    public static void removeAll(List<DockerNode> nodes, Network network) {
        for (DockerNode n : nodes) {
            n.writeLogs();
            n.remove();
        }
        if (network != null) {
            try {
                network.close();
            } catch (RuntimeException e) {
                System.err.println("isostress: removing the nodes' docker network: " + e.getMessage());
            }
        }
    }
}
