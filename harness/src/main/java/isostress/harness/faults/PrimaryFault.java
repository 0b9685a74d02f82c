package isostress.harness.faults;

import java.util.EnumSet;
import java.util.Set;

/**
 * A fault aimed at a role, not a node: it hits whichever member the failover manager names as primary when the fault
 * starts, so it needs a database the harness started under such a manager.
 */
abstract class PrimaryFault implements Fault {
    private final String name;

    PrimaryFault(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public Set<Need> needs() {
        return EnumSet.of(Need.STARTED_DATABASE, Need.FAILOVER_MANAGER);
    }

    @Override
    public final boolean onPrimary() {
        return true;
    }
}
