package isostress.harness.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import isostress.generator.workload.WorkloadType;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * JDBC clients: one HikariCP pool per node, each session on its node's pool. Every statement has a socket timeout,
 * so a paused or partitioned server ends a statement with an error instead of hanging the session.
 */
public final class JdbcClientFactory implements ClientFactory {
    private final JdbcDatabase database;
    private final DatabaseAdapter adapter;
    private final List<HikariDataSource> pools = new ArrayList<>();
    private final Map<String, String> nodeAt;

    /**
     * @param urls    the client URL of each node (a latency proxy's address when faults need one)
     * @param nodeAt  which node answers at a {@code host:port} of the URLs ({@link Database#clients})
     * @param timeout the longest a statement or a connection attempt may take
     */
    public JdbcClientFactory(JdbcDatabase database, Credentials login, List<String> urls, Map<String, String> nodeAt,
                             DatabaseAdapter adapter, Isolation isolation, int sessions, Duration timeout) {
        this.database = database;
        this.adapter = adapter;
        this.nodeAt = Map.copyOf(nodeAt);
        // Every session may hold a connection on any node (read replicas: each on the primary and on its read node);
        // pools open connections only when asked (minimum idle 0).
        int perNode = sessions + 1;
        for (int i = 0; i < urls.size(); i++) {
            pools.add(pool(urls.get(i), login, isolation, perNode, timeout, "isostress-n" + (i + 1)));
        }
    }

    /** The database these clients speak to. */
    public JdbcDatabase database() {
        return database;
    }

    public DatabaseAdapter adapter() {
        return adapter;
    }

    /**
     * Creates the keys on the first node, then waits until every other node has them all: a Galera node applies
     * replicated writes asynchronously, and a first read there could otherwise find no row at all.
     */
    @Override
    public void createSchema(WorkloadType type, long maxKey) throws SQLException, InterruptedException {
        long keys;
        try (Connection c = pools.get(0).getConnection()) {
            c.setAutoCommit(true);
            adapter.createSchema(c, type, maxKey);
            c.setAutoCommit(false);
            keys = adapter.keyCount(c, type);
        }
        for (int i = 1; i < pools.size(); i++) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            long seen = -1;
            while (System.nanoTime() < deadline) {
                try (Connection c = pools.get(i).getConnection()) {
                    // The pool's level may be one this node refuses (a PostgreSQL hot standby has no SERIALIZABLE);
                    // counting replayed rows needs none. The pool restores its level when the connection returns.
                    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                    seen = adapter.keyCount(c, type);
                } catch (SQLException e) {
                    seen = -1; // the table itself has not arrived yet
                }
                if (seen == keys) break;
                Thread.sleep(50);
            }
            if (seen != keys) {
                throw new SQLException("node " + (i + 1) + " has " + seen + " of " + keys + " keys after 60 s");
            }
        }
    }

    /**
     * True when a connection may be rolled back and used again after its transaction failed with {@code f}: not when
     * the outcome is in doubt (its session state is unknown) or the link failed ({@link SqlAdapter#interrupted}).
     */
    public static boolean reusable(Failure f, SQLException e) {
        return !f.inDoubt() && !SqlAdapter.interrupted(e);
    }

    /** A connection of node {@code node}'s pool (auto-commit off), for clients that run their own SQL. */
    public Connection connection(int node) throws SQLException {
        Connection c = pools.get(node).getConnection();
        c.setAutoCommit(false);
        return c;
    }

    /** Closes {@code c}, taken from node {@code node}'s pool, and removes it from there (its state is unknown). */
    public void discard(int node, Connection c) {
        try {
            pools.get(node).evictConnection(c);
        } catch (RuntimeException e) {
            // closed below anyway
        }
        try {
            c.close();
        } catch (SQLException | RuntimeException e) {
            // already gone
        }
    }

    @Override
    public TxnClient open(int session, int node) {
        return new JdbcTxnClient(pools.get(node), adapter, nodeAt);
    }

    @Override
    public void close() {
        for (HikariDataSource p : pools) p.close();
    }

    private HikariDataSource pool(String url, Credentials login, Isolation isolation, int size,
                                  Duration timeout, String name) {
        HikariConfig cfg = new HikariConfig();
        cfg.setJdbcUrl(url);
        if (login.user() != null) cfg.setUsername(login.user());
        if (login.password() != null) cfg.setPassword(login.password());
        cfg.setMaximumPoolSize(size);
        cfg.setMinimumIdle(0);
        cfg.setAutoCommit(false);
        cfg.setConnectionTimeout(Math.max(250, timeout.toMillis()));
        cfg.setValidationTimeout(Math.max(250, Math.min(timeout.toMillis(), 5_000)));
        // A node that is down must not stop the pool from being built: clients find out per transaction.
        cfg.setInitializationFailTimeout(-1);
        cfg.setPoolName(name);
        cfg.setTransactionIsolation(isolationName(adapter.jdbcIsolation(isolation)));
        // The database's own driver, named: two drivers on the class path take jdbc:mysql: URLs.
        cfg.setDriverClassName(database.driverClass());
        database.timeouts(timeout).forEach((k, v) -> cfg.addDataSourceProperty((String) k, v));
        database.clientProperties().forEach((k, v) -> cfg.addDataSourceProperty((String) k, v));
        return new HikariDataSource(cfg);
    }

    private static String isolationName(int jdbc) {
        switch (jdbc) {
            case Connection.TRANSACTION_READ_UNCOMMITTED: return "TRANSACTION_READ_UNCOMMITTED";
            case Connection.TRANSACTION_READ_COMMITTED: return "TRANSACTION_READ_COMMITTED";
            case Connection.TRANSACTION_REPEATABLE_READ: return "TRANSACTION_REPEATABLE_READ";
            default: return "TRANSACTION_SERIALIZABLE";
        }
    }
}
