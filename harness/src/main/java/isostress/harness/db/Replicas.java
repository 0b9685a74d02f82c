package isostress.harness.db;

import java.util.List;
import java.util.Locale;

/**
 * Read replicas of a single primary ({@code database.replicas}, {@code database.synchronous-standbys},
 * {@code workload.read-from}): PostgreSQL hot standbys fed by physical streaming replication. The primary is node
 * {@code n1}, the standbys {@code n2}, {@code n3}, ...
 *
 * @param count       how many standbys (0: a single server)
 * @param synchronous how many standbys must confirm a commit before the primary acknowledges it, as a quorum
 *                    ({@code synchronous_standby_names = 'ANY k (n2, n3, ...)'}); 0: asynchronous replication
 * @param readFrom    where read-only transactions run
 */
public record Replicas(int count, int synchronous, ReadFrom readFrom) {
    /** No standby: everything runs on the one server. */
    public static final Replicas NONE = new Replicas(0, 0, ReadFrom.PRIMARY);

    public Replicas {
        if (count < 0 || synchronous < 0 || synchronous > count) {
            throw new IllegalArgumentException("replicas " + count + ", synchronous " + synchronous);
        }
    }

    /**
     * The standby names as the primary's {@code synchronous_standby_names} wants them, or "" when replication is
     * asynchronous. {@code ANY} (a quorum), not {@code FIRST} (a priority list), because that is what Amazon RDS
     * Multi-AZ DB clusters do: "acknowledgment from at least one reader DB instance is required for a change to be
     * committed" (RDS User Guide, Multi-AZ DB cluster deployments), whichever reader answers first.
     */
    public String synchronousStandbyNames() {
        if (synchronous == 0) return "";
        StringBuilder names = new StringBuilder("ANY " + synchronous + " (");
        for (int i = 0; i < count; i++) names.append(i == 0 ? "" : ", ").append(nodeName(i + 1));
        return names.append(')').toString();
    }

    /** {@code n1} for the primary (index 0), {@code n2}, ... for the standbys. */
    public static String nodeName(int index) {
        return "n" + (index + 1);
    }

    /** Where read-only transactions run ({@code workload.read-from}); writes always run on the primary. */
    public enum ReadFrom {
        /** Every transaction on the primary. */
        PRIMARY,
        /** Read-only transactions on the standbys, sessions spread round-robin over them. */
        REPLICAS,
        /** Read-only transactions on every node, sessions spread round-robin over the primary and the standbys. */
        ANY;

        public String yamlName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static List<String> yamlNames() {
            return List.of("primary", "replicas", "any");
        }

        /**
         * The node (0: the primary, i: standby i) where {@code session}'s read-only transactions run, with
         * {@code replicas} standbys.
         */
        public int readNode(int session, int replicas) {
            if (replicas == 0) return 0;
            switch (this) {
                case REPLICAS: return 1 + session % replicas;
                case ANY: return session % (replicas + 1);
                default: return 0;
            }
        }
    }
}
