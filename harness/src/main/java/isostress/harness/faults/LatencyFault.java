package isostress.harness.faults;

import java.util.EnumSet;
import java.util.Set;

/** Delays every chunk between the clients and a node by {@code nemesis.latency} each way, in the node's proxy. */
public final class LatencyFault implements Fault {
    @Override
    public String name() {
        return "latency";
    }

    @Override
    public Set<Need> needs() {
        return EnumSet.of(Need.CLIENT_PROXY);
    }

    @Override
    public Active on(FaultTarget target) {
        long millis = target.spec().latency().toMillis();
        return new Active(() -> target.requireProxy().delay(millis), () -> target.requireProxy().delay(0));
    }
}
