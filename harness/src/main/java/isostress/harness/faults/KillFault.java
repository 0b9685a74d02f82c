package isostress.harness.faults;

import java.util.EnumSet;
import java.util.Set;

/**
 * SIGKILL a node, then start it again and wait until it serves clients (a cluster node: until it is synced; a read
 * replica: until it streams from its primary again, which the {@link Nemesis} waits for after every heal).
 */
public final class KillFault implements Fault {
    @Override
    public String name() {
        return "kill";
    }

    @Override
    public Set<Need> needs() {
        return EnumSet.of(Need.STARTED_DATABASE);
    }

    @Override
    public Active on(FaultTarget target) {
        return new Active(target.node()::kill, target.node()::restart);
    }

    /** How long recovery took is what a kill measures (a Galera node's state transfer, PostgreSQL's WAL replay). */
    @Override
    public String healTimeKey() {
        return "restart-ms";
    }
}
