package isostress.harness.faults;

import isostress.harness.db.DbNode;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Cuts a node off with iptables rules in the harness's chain ({@link Iptables}): a cluster node from its peers (both
 * directions of every connection on their group-communication, IST and SST ports; clients still reach it, as in a
 * real network split between data-centre links), a single server from its clients, a read replica (a standby) from
 * its clients and its primary's replication ({@link DbNode#groupLinks}); a member of a cluster under a
 * failover manager from the manager's store and its peers, as the manager's {@link isostress.harness.db.Failover#links}
 * says. Healing flushes the chain.
 */
public final class PartitionFault implements Fault {
    @Override
    public String name() {
        return "partition";
    }

    /** A started database: the rules match local addresses and ports, which only a database isostress runs has. */
    @Override
    public Set<Need> needs() {
        return EnumSet.of(Need.STARTED_DATABASE, Need.IPTABLES);
    }

    @Override
    public Active on(FaultTarget target) {
        if (target.failover() != null) {
            // A cluster under a failover manager says itself which traffic links a member to the others.
            return new Active(() -> {
                for (List<String> m : target.failover().links(target.node())) Iptables.drop(m);
            }, Iptables::heal);
        }
        return new Active(() -> cut(target.node(), target.cluster()), Iptables::heal);
    }

    private static void cut(DbNode node, List<DbNode> cluster) throws IOException {
        if (node.peerPorts().isEmpty()) {
            String port = Integer.toString(node.clientPort());
            Iptables.drop(List.of("--dport", port));
            Iptables.drop(List.of("--sport", port));
            for (List<String> m : node.groupLinks()) Iptables.drop(m);
            return;
        }
        for (DbNode other : cluster) {
            if (other == node) continue;
            for (int p : node.peerPorts()) {
                String port = Integer.toString(p);
                Iptables.drop(List.of("-s", other.host(), "-d", node.host(), "--dport", port));
                Iptables.drop(List.of("-s", node.host(), "-d", other.host(), "--sport", port));
            }
            for (int p : other.peerPorts()) {
                String port = Integer.toString(p);
                Iptables.drop(List.of("-s", node.host(), "-d", other.host(), "--dport", port));
                Iptables.drop(List.of("-s", other.host(), "-d", node.host(), "--sport", port));
            }
        }
    }
}
