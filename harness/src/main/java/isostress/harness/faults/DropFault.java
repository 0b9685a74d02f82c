package isostress.harness.faults;

import java.util.EnumSet;
import java.util.Set;

/** Closes every client connection to a node at once, in the node's proxy; the clients reconnect. */
public final class DropFault implements Fault {
    @Override
    public String name() {
        return "drop";
    }

    @Override
    public Set<Need> needs() {
        return EnumSet.of(Need.CLIENT_PROXY);
    }

    @Override
    public Active on(FaultTarget target) {
        return Active.once(() -> target.requireProxy().dropAll());
    }

    /** The connections are gone once closed; new ones work at once. */
    @Override
    public boolean lasts() {
        return false;
    }
}
