package isostress.harness.config;

import isostress.harness.db.Database;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Databases;
import isostress.harness.db.Provision;
import isostress.harness.faults.Fault;
import isostress.harness.faults.Faults;
import isostress.harness.faults.NemesisSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a campaign's {@code nemesis:} section into a {@link NemesisSpec} for {@link CampaignLoader} (the faults by
 * name, their timing, targets and seed), and checks it against the database: targets that exist, faults the
 * provisioning allows.
 */
final class NemesisSection {
    private static final List<String> KEYS = List.of("faults", "interval", "duration", "targets", "latency", "seed");

    private NemesisSection() {
    }

    /** The nemesis, whose seed defaults to the workload's. */
    static NemesisSpec read(ConfigNode n, long workloadSeed) {
        n.rejectUnknownKeys(KEYS);
        List<String> names = n.strings("faults");
        List<Fault> faults = new ArrayList<>();
        if (names == null || names.isEmpty()) {
            n.problem("faults", "must list at least one of " + Faults.names());
        } else {
            for (int i = 0; i < names.size(); i++) {
                Optional<Fault> f = Faults.byName(names.get(i));
                if (f.isEmpty()) {
                    n.problem("faults[" + i + "]", "unknown fault '" + names.get(i) + "'; known: " + Faults.names());
                } else if (!faults.contains(f.get())) {
                    faults.add(f.get());
                }
            }
        }
        Duration interval = orDefault(n.duration("interval", false), Duration.ofSeconds(10));
        Duration length = orDefault(n.duration("duration", false), Duration.ofSeconds(5));
        Duration latency = orDefault(n.duration("latency", false), Duration.ofMillis(100));
        List<Integer> targets = new ArrayList<>();
        List<String> t = n.strings("targets");
        if (t != null) {
            for (int i = 0; i < t.size(); i++) {
                try {
                    int v = Integer.parseInt(t.get(i).trim().replaceFirst("^n", ""));
                    if (v < 1) throw new NumberFormatException();
                    targets.add(v);
                } catch (NumberFormatException e) {
                    n.problem("targets[" + i + "]", "must be a node number from 1 (or n1, n2, ...), was '" + t.get(i) + "'");
                }
            }
        }
        long seed = n.integer("seed", workloadSeed, Long.MIN_VALUE, Long.MAX_VALUE);
        return new NemesisSpec(faults, interval, length, targets, latency, seed);
    }

    /** Targets beyond the database's nodes, and faults that need a database isostress starts on an external one. */
    static void checkAgainst(ConfigNode n, NemesisSpec nemesis, DatabaseSpec db) {
        // A primary with read replicas is nodes n1 (the primary), n2, ... (its standbys).
        int standbys = db.replicas() == null ? 0 : db.replicas().count();
        int nodes = db.nodes() + standbys;
        for (int i = 0; i < nemesis.targets().size(); i++) {
            if (nemesis.targets().get(i) > nodes) {
                n.problem("targets[" + i + "]", "node " + nemesis.targets().get(i) + " does not exist: the database has "
                        + nodes + " node(s)" + (standbys > 0 ? " (n1 the primary, n2 to n" + nodes
                        + " its standbys)" : ""));
            }
        }
        boolean started = db.provision() != Provision.EXTERNAL;
        List<Fault> anywhere = new ArrayList<>();
        for (Fault f : Faults.all()) if (!f.needs().contains(Fault.Need.STARTED_DATABASE)) anywhere.add(f);
        String allowed = Faults.names(anywhere);
        int last = allowed.lastIndexOf(", ");
        if (last >= 0) allowed = allowed.substring(0, last) + " and " + allowed.substring(last + 2);
        for (Fault f : nemesis.faults()) {
            if (f.needs().contains(Fault.Need.FAILOVER_MANAGER) && !db.provision().failoverManager()) {
                n.problem("faults", f.name() + " acts on the primary a failover manager elects: it needs provision: "
                        + "patroni, was " + db.type().name() + " with provision: " + db.provision().yamlName());
            } else if (f.needs().contains(Fault.Need.STARTED_DATABASE) && !started) {
                n.problem("faults", f.name() + " needs a database isostress starts (provision "
                        + startedBy(db.type()) + "); an external one only allows " + allowed);
            }
        }
    }

    /** "embedded, local or docker": the provisions of {@code type} in which isostress starts the servers. */
    private static String startedBy(Database type) {
        Set<Provision> started = EnumSet.noneOf(Provision.class);
        started.addAll(type.provisions());
        started.remove(Provision.EXTERNAL);
        return Databases.either(Databases.yamlNames(started));
    }

    private static Duration orDefault(Duration d, Duration dflt) {
        return d == null ? dflt : d;
    }
}
