package isostress.harness.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * One connection's prepared statements, each made on first use and reused by every later transaction on that
 * connection (pgbench {@code -M prepared}'s way). Re-preparing per operation cost a statement object, a pool proxy
 * and a cache look-up in the driver each time; reused, a statement is bound and executed, and with pgjdbc's
 * {@code prepareThreshold=1} it is a named server-side statement from its first execution (parsed and planned
 * once per connection). Keyed by the SQL text: the adapter hands out the same String instances (built once per
 * table), so a look-up hashes nothing new. The statements close with their connection (discarded or closed).
 */
public final class Statements {
    private final Connection connection;
    private final Map<String, PreparedStatement> bySql = new HashMap<>();

    public Statements(Connection connection) {
        this.connection = connection;
    }

    public Connection connection() {
        return connection;
    }

    /** The prepared statement for {@code sql}, made on first use. */
    public PreparedStatement get(String sql) throws SQLException {
        PreparedStatement p = bySql.get(sql);
        if (p == null) {
            p = connection.prepareStatement(sql);
            bySql.put(sql, p);
        }
        return p;
    }
}
