package isostress.harness.faults;

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
    public boolean lasts() {
        return false;
    }
}
