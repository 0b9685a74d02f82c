package isostress.harness.faults;

import java.util.EnumSet;
import java.util.Set;

/** SIGSTOP a node's server and its child processes, then SIGCONT: the node hangs without closing its connections. */
public final class PauseFault implements Fault {
    @Override
    public String name() {
        return "pause";
    }

    @Override
    public Set<Need> needs() {
        return EnumSet.of(Need.STARTED_DATABASE);
    }

    @Override
    public Active on(FaultTarget target) {
        return new Active(target.node()::pause, target.node()::resume);
    }
}
