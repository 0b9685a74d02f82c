package isostress.harness.config;

import isostress.generator.workload.WorkloadType;
import isostress.harness.db.Database;
import isostress.harness.db.Isolation;
import isostress.harness.db.Provision;
import isostress.harness.db.Replicas;

import java.util.Locale;

/**
 * The campaign's read replicas: {@code database.replicas}, {@code database.synchronous-standbys} and
 * {@code workload.read-from}, checked together, as {@link CampaignLoader} checks the rest.
 */
final class ReplicasSection {
    /** Most standbys one machine is asked to run. */
    static final int MAX_REPLICAS = 8;

    private ReplicasSection() {
    }

    /**
     * @param d the database section
     * @param w the workload section
     */
    static Replicas read(ConfigNode d, ConfigNode w, Database type, Provision provision, String version,
                         Isolation isolation, int nodes, WorkloadType workload, boolean nemesis) {
        int count = d.integer("replicas", 0L, 0, MAX_REPLICAS).intValue();
        // RDS's default (Multi-AZ DB clusters): a commit waits for one of the standbys.
        int synchronous = d.integer("synchronous-standbys", (long) Math.min(1, count), 0, MAX_REPLICAS).intValue();
        String from = w.choice("read-from", "primary", Replicas.ReadFrom.yamlNames());
        Replicas.ReadFrom readFrom = from == null ? Replicas.ReadFrom.PRIMARY
                : Replicas.ReadFrom.valueOf(from.toUpperCase(Locale.ROOT));
        if (count > 0) {
            String problem = type.replicasProblem(provision, version);
            if (problem != null) d.problem("replicas", problem);
            if (nodes > 1) d.problem("replicas", "replicas are standbys of one primary; leave nodes at 1");
            if (workload == WorkloadType.SQL) d.problem("replicas", "sql workloads run on a single server for now");
            // Embedded and local standbys are nodes the nemesis can kill, pause and cut off (and it waits for them to
            // stream again); Docker standbys have not been tried under faults.
            if (nemesis && provision == Provision.DOCKER) {
                d.problem("replicas", "faults (nemesis) run with replicas that isostress starts on this machine "
                        + "(provision: embedded or local), not yet with provision: docker");
            }
        }
        if (synchronous > count) {
            d.problem("synchronous-standbys", count == 0 ? "only applies with database.replicas"
                    : "is more than the " + count + " replica(s)");
            synchronous = count;
        }
        if (readFrom != Replicas.ReadFrom.PRIMARY) {
            if (count == 0) {
                w.problem("read-from", readFrom.yamlName() + " needs database.replicas of at least 1");
            } else if (isolation == Isolation.SERIALIZABLE) {
                // PostgreSQL: "cannot use serializable mode in a hot standby"; running the reads at REPEATABLE
                // READ behind the campaign's back would check a level the campaign did not ask for.
                w.problem("read-from", "a PostgreSQL standby has no SERIALIZABLE (it refuses it in a hot standby): "
                        + "use database.isolation repeatable-read with read-from " + readFrom.yamlName()
                        + ", or read-from primary");
            }
        }
        return new Replicas(count, synchronous, readFrom);
    }
}
