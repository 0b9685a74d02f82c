package isostress.harness.faults;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * {@code partition-primary}: cuts the primary off from the failover manager's store and from the other members
 * (iptables, {@link isostress.harness.db.Failover#links}), not from its clients. Its manager can no longer renew the
 * leader key and demotes it after the retry timeout, while the others elect a new primary; until then clients
 * still write to the old one, whose writes reach no replica. Healing removes the rules and waits until the member
 * runs again (as a replica, rewound when its timeline forked).
 */
public final class PartitionPrimaryFault extends PrimaryFault {
    public PartitionPrimaryFault() {
        super("partition-primary");
    }

    @Override
    public Set<Need> needs() {
        return EnumSet.of(Need.STARTED_DATABASE, Need.IPTABLES, Need.FAILOVER_MANAGER);
    }

    @Override
    public Active on(FaultTarget target) {
        return new Active(() -> {
            for (List<String> m : target.requireFailover().links(target.node())) Iptables.drop(m);
        }, () -> {
            Iptables.heal();
            target.requireFailover().awaitRunning(target.node(), Duration.ofSeconds(120));
        });
    }
}
