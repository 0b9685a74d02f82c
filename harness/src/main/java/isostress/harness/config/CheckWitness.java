package isostress.harness.config;

import isostress.generator.workload.WorkloadType;
import isostress.harness.db.Database;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Databases;
import isostress.harness.db.Provision;

import java.util.EnumSet;
import java.util.Set;

/**
 * {@code check.witness}: copy the database's commit log into {@code witness.jsonl} during the run and join it with
 * the history. On by default where the harness starts a server it configures itself (embedded, local) and whose
 * log it can read, for the workloads the join takes; asked for elsewhere, a sentence says why it cannot be.
 */
final class CheckWitness {
    /** What the witness is on for by default: the servers the harness starts and configures on this machine. */
    static final Set<Provision> BY_DEFAULT = EnumSet.of(Provision.EMBEDDED, Provision.LOCAL);
    /** Whether those get it without asking: the measured cost is in docs/witness.md. */
    static final boolean ON_BY_DEFAULT = true;
    /**
     * The workloads whose values name their writer: the join refuses single-register (cas) histories, and sql
     * histories are not key-value ones.
     */
    static final Set<WorkloadType> JOINED = EnumSet.of(WorkloadType.MINI, WorkloadType.RW_REGISTER,
            WorkloadType.LIST_APPEND);

    private CheckWitness() {
    }

    /** The setting, its problems reported on {@code check}. */
    static boolean read(ConfigNode check, DatabaseSpec db, WorkloadType type) {
        Boolean asked = check.bool("witness", null);
        boolean capturable = db.type().capturesCommitLog() && JOINED.contains(type);
        if (asked == null) return ON_BY_DEFAULT && capturable && BY_DEFAULT.contains(db.provision());
        if (!asked) return false;
        if (!db.type().capturesCommitLog()) {
            check.problem("witness", "needs a database whose commit log isostress reads ("
                    + Databases.either(Databases.names(Database::capturesCommitLog)) + "), was " + db.type().name());
        } else if (!JOINED.contains(type)) {
            check.problem("witness", "applies to the mini, rw-register and list-append workloads (whose values name "
                    + "their writer), was " + type.yamlName());
        }
        return true;
    }
}
