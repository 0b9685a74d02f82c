package isostress.harness.provision;

import java.util.List;

/**
 * A database ready for clients. Closing it stops what the harness started (nothing for an external database).
 */
public interface RunningDatabase extends AutoCloseable {
    /** The first node's client URL (JDBC, or mongodb://). */
    String jdbcUrl();

    String user();

    String password();

    /** For people: what it is and where, e.g. "embedded PostgreSQL 16.15.0 on port 41234". */
    String description();

    /** The (first) server's process id when the harness started it, else -1 (faults and tests use it). */
    long serverPid();

    /** Its servers; sessions are spread over them and faults act on them. A single server is one node. */
    List<DbNode> nodes();

    /** Copies what the servers logged into the run's logs (also done by close). */
    default void collectLogs() {
    }

    @Override
    void close();
}
