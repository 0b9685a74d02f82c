package isostress.harness.provision;

/**
 * A database ready for clients. Closing it stops what the harness started (nothing for an external database).
 */
public interface RunningDatabase extends AutoCloseable {
    String jdbcUrl();

    String user();

    String password();

    /** For people: what it is and where, e.g. "embedded PostgreSQL 16.15.0 on port 41234". */
    String description();

    /** The server's process id when the harness started it, else -1 (faults and tests use it). */
    long serverPid();

    @Override
    void close();
}
