package isostress.harness.faults;

/**
 * {@code kill-primary-patroni}: SIGKILL of the primary's failover manager alone. Without a watchdog device nothing
 * fences the database server it leaves behind: a zombie primary that keeps accepting writes while the others, once
 * the leader key expires, promote a new one. Healing starts the manager again, which finds another leader and
 * demotes its server (pg_rewind when the timelines forked); writes the zombie acknowledged meanwhile are then gone.
 */
public final class KillPrimaryManagerFault extends PrimaryFault {
    public KillPrimaryManagerFault() {
        super("kill-primary-patroni");
    }

    @Override
    public Active on(FaultTarget target) {
        return new Active(() -> target.requireFailover().killManager(target.node()), target.node()::restart);
    }

    @Override
    public String healTimeKey() {
        return "restart-ms";
    }
}
