package isostress.harness.db;

import java.io.IOException;
import java.util.List;

/**
 * One server of a running database, as clients and the nemesis see it. A single server is a one-node cluster.
 * Faults act through the methods here; a database the harness did not start cannot be acted on
 * ({@link #controllable()} false, the methods throw).
 */
public interface DbNode {
    /** {@code n1}, {@code n2}, ...: what the history's {@code node} field says. */
    String name();

    /** The clients' URL for this node (JDBC, or mongodb://). */
    String url();

    /** The address the node serves clients on. */
    String host();

    int clientPort();

    /** Ports the node talks to its peers on (Galera group communication, IST, SST); empty for a single server. */
    List<Integer> peerPorts();

    /** The server's process id, or -1 when the harness did not start it or it is down. */
    long pid();

    /** True when the harness started this node and can kill, pause and restart it. */
    boolean controllable();

    /** SIGKILL: the node dies without a chance to flush or say goodbye. */
    void kill() throws IOException;

    /** Starts a killed node again and waits until it serves clients (a cluster node: until it is synced). */
    void restart() throws IOException, InterruptedException;

    /** SIGSTOP on the server and its child processes. */
    void pause() throws IOException;

    /** SIGCONT, undoing {@link #pause()}. */
    void resume() throws IOException;

    /**
     * What a partition drops besides the node's client port: iptables matches, one per direction, of the links to
     * the rest of its group that do not pass that port (a standby's replication connection to its primary). Empty
     * for a single server and for a node whose peers are {@link #peerPorts()}.
     */
    default List<List<String>> groupLinks() {
        return List.of();
    }

    /**
     * After a fault on this node was healed: waits, at most {@code wait}, until the node is back in its group where
     * serving clients is not all (a standby streams from its primary again and has replayed what the primary had
     * written; a primary has its standbys streaming again), and throws saying what is missing otherwise. Nothing for
     * a node without such a group.
     */
    default void awaitRejoined(java.time.Duration wait) throws IOException, InterruptedException {
    }
}
