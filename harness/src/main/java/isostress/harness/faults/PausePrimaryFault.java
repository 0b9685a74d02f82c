package isostress.harness.faults;

/**
 * {@code pause-primary}: SIGSTOP of the primary's manager and its database server with every backend, as a machine
 * that stalls (a VM frozen, a long GC-like pause) rather than dies: clients' connections stay open and hang. Both
 * are stopped because a stalled machine stalls both; pausing only the server would leave the manager renewing the
 * leader key, and no failover would follow. With a duration beyond the leader key's ttl another member is promoted,
 * and on SIGCONT the old primary's manager finds it lost the key and demotes its server.
 */
public final class PausePrimaryFault extends PrimaryFault {
    public PausePrimaryFault() {
        super("pause-primary");
    }

    @Override
    public Active on(FaultTarget target) {
        return new Active(target.node()::pause, target.node()::resume);
    }
}
