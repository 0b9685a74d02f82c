package isostress.harness.faults;

import isostress.harness.db.Failover;

import java.io.IOException;
import java.time.Duration;

/**
 * A planned switchover, as an operator runs for maintenance: the manager demotes the primary cleanly and promotes a
 * replica it picks. Nothing should be lost; sessions on the old primary see their connections close. Over once
 * done, so not held for the duration.
 */
public final class SwitchoverFault extends PrimaryFault {
    public SwitchoverFault() {
        super("switchover");
    }

    @Override
    public Active on(FaultTarget target) {
        return Active.once(() -> target.requireFailover().switchover(target.node()));
    }

    @Override
    public void awaitReady(Failover failover, Duration wait) throws IOException, InterruptedException {
        if (failover != null) failover.awaitSwitchoverCandidate(wait);
    }

    @Override
    public boolean lasts() {
        return false;
    }
}
