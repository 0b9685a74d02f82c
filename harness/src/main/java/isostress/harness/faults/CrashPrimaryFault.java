package isostress.harness.faults;

import java.util.EnumSet;
import java.util.Set;

/**
 * The primary's machine crashing: SIGKILL of its manager and database server at once, so nothing hands the role on
 * and the other members elect a new primary when the leader key expires. Healing starts the member again; it
 * rejoins as a replica (with pg_rewind when its timeline forked).
 */
public final class CrashPrimaryFault implements Fault {
    @Override
    public String name() {
        return "crash-primary";
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
        return new Active(target.node()::kill, target.node()::restart);
    }

    @Override
    public String healTimeKey() {
        return "restart-ms";
    }
}
