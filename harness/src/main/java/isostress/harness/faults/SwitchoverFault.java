package isostress.harness.faults;

import java.util.EnumSet;
import java.util.Set;

/**
 * A planned switchover, as an operator runs for maintenance: the manager demotes the primary cleanly and promotes a
 * replica it picks. Nothing should be lost; sessions on the old primary see their connections close. Over once
 * done, so not held for the duration.
 */
public final class SwitchoverFault implements Fault {
    @Override
    public String name() {
        return "switchover";
    }

    @Override
    public Set<Need> needs() {
        return EnumSet.of(Need.STARTED_DATABASE, Need.FAILOVER_MANAGER);
    }

    @Override
    public boolean onPrimary() {
        return true;
    }

    @Override
    public Active on(FaultTarget target) {
        return Active.once(() -> target.requireFailover().switchover(target.node()));
    }

    @Override
    public boolean lasts() {
        return false;
    }
}
