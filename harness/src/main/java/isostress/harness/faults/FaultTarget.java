package isostress.harness.faults;

import isostress.harness.db.DbNode;
import isostress.harness.db.Failover;

import java.io.IOException;
import java.util.List;

/**
 * Where a fault strikes and what it may use there.
 *
 * @param node    the node chosen
 * @param index   its position in {@code cluster} (0-based)
 * @param cluster all the database's nodes (a partition cuts {@code node} off from the others)
 * @param proxy   the clients' proxy in front of {@code node}, or null when the clients connect directly
 * @param spec    the campaign's nemesis section (settings such as {@code latency})
 * @param failover the cluster's failover manager, or null when it has none
 */
public record FaultTarget(DbNode node, int index, List<DbNode> cluster, TcpProxy proxy, NemesisSpec spec,
                          Failover failover) {
    /** The failover manager, or why there is none (a role fault was injected without one). */
    public Failover requireFailover() throws IOException {
        if (failover == null) throw new IOException("the database has no failover manager to act through");
        return failover;
    }

    /** The proxy, or why there is none (a fault needing one was injected without {@link Fault.Need#CLIENT_PROXY}). */
    public TcpProxy requireProxy() throws IOException {
        if (proxy == null) throw new IOException("no client proxy for node " + (index + 1));
        return proxy;
    }
}
