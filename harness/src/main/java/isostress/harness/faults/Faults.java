package isostress.harness.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The faults a campaign can name in {@code nemesis.faults}, one line each. The order is the one the README and error
 * messages list them in; it does not affect the schedule (that follows the campaign's own list).
 */
public final class Faults {
    private static final List<Fault> ALL = List.of(
            new KillFault(),
            new PauseFault(),
            new PartitionFault(),
            new LatencyFault(),
            new DropFault(),
            new CrashPrimaryFault(),
            new KillPrimaryServerFault(),
            new KillPrimaryManagerFault(),
            new PartitionPrimaryFault(),
            new PausePrimaryFault(),
            new SwitchoverFault());

    private Faults() {
    }

    public static List<Fault> all() {
        return ALL;
    }

    /** The fault called {@code name} in YAML, if there is one. */
    public static Optional<Fault> byName(String name) {
        for (Fault f : ALL) if (f.name().equals(name)) return Optional.of(f);
        return Optional.empty();
    }

    /** The faults called {@code names}, in that order; for code and tests (campaigns go through the loader). */
    public static List<Fault> list(String... names) {
        List<Fault> out = new ArrayList<>();
        for (String n : names) {
            out.add(byName(n).orElseThrow(() -> new IllegalArgumentException("unknown fault '" + n + "'")));
        }
        return out;
    }

    /** "kill, pause, partition, latency, drop, crash-primary, ...": the names, for messages. */
    public static String names() {
        return names(ALL);
    }

    public static String names(Collection<Fault> faults) {
        return faults.stream().map(Fault::name).collect(Collectors.joining(", "));
    }

    /** True when one of {@code faults} needs {@code need}. */
    public static boolean anyNeeds(Collection<Fault> faults, Fault.Need need) {
        for (Fault f : faults) if (f.needs().contains(need)) return true;
        return false;
    }
}
