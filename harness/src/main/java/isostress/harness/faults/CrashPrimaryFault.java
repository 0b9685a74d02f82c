package isostress.harness.faults;

/**
 * The primary's machine crashing: SIGKILL of its manager and database server at once, so nothing hands the role on
 * and the other members elect a new primary when the leader key expires. Healing starts the member again; it
 * rejoins as a replica (with pg_rewind when its timeline forked).
 */
public final class CrashPrimaryFault extends PrimaryFault {
    public CrashPrimaryFault() {
        super("crash-primary");
    }

    @Override
    public Active on(FaultTarget target) {
        return new Active(target.node()::kill, target.node()::restart);
    }

    @Override
    public String healTimeKey() {
        return "restart-ms";
    }
}
