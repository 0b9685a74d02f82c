package isostress.harness.faults;

import java.time.Duration;

/**
 * {@code kill-primary-postgres}: SIGKILL of the primary's database server alone. Its manager still holds the leader
 * key and starts the server again in place (crash recovery), so there is normally no failover; healing waits until
 * the manager reports the member running.
 */
public final class KillPrimaryServerFault extends PrimaryFault {
    public KillPrimaryServerFault() {
        super("kill-primary-postgres");
    }

    @Override
    public Active on(FaultTarget target) {
        return new Active(() -> target.requireFailover().killServer(target.node()),
                () -> target.requireFailover().awaitRunning(target.node(), Duration.ofSeconds(120)));
    }

    @Override
    public String healTimeKey() {
        return "restart-ms";
    }
}
