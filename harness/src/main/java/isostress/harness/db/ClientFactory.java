package isostress.harness.db;

import isostress.generator.workload.WorkloadType;

/**
 * Opens the sessions' clients on one running database (all its nodes). One implementation per client library:
 * JDBC ({@link JdbcClientFactory}) and the MongoDB driver.
 */
public interface ClientFactory extends AutoCloseable {
    /** (Re)creates the keys {@code 0..maxKey} for {@code type}, each at its initial value. */
    void createSchema(WorkloadType type, long maxKey) throws Exception;

    /** A client for {@code session} talking to node {@code node} (0-based index into the database's nodes). */
    TxnClient open(int session, int node);

    /** Closes every pool and client. Never throws. */
    @Override
    void close();
}
