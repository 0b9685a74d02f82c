package isostress.harness.db;

import java.util.List;

/**
 * A database ready for clients. Closing it stops what the harness started (nothing for an external database).
 */
public interface RunningDatabase extends Credentials, AutoCloseable {
    /** The first node's client URL (JDBC, or mongodb://). */
    String jdbcUrl();

    /** For people: what it is and where, e.g. "embedded PostgreSQL 16.15.0 on port 41234". */
    String description();

    /** Its servers; sessions are spread over them and faults act on them. A single server is one node. */
    List<DbNode> nodes();

    /** The first server's process id when the harness started it, else -1 (tests kill it). */
    default long serverPid() {
        return nodes().get(0).pid();
    }

    /**
     * Waits until every read replica has replayed all the primary has written so far (nothing without replicas);
     * throws naming a replica that does not catch up within {@code wait}.
     */
    default void awaitReplicas(java.time.Duration wait) throws java.io.IOException, InterruptedException {
    }

    /** The failover manager that moves the primary role among the nodes, when the database has one. */
    default java.util.Optional<Failover> failover() {
        return java.util.Optional.empty();
    }

    @Override
    void close();
}
