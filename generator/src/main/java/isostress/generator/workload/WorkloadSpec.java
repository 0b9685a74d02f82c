package isostress.generator.workload;

import isostress.generator.KeyDistribution;
import isostress.generator.MtShape;

import java.util.Map;

/**
 * Everything that determines a workload; the same spec always generates the same workload.
 *
 * @param type         what kind of transactions
 * @param sessions     concurrent sessions (transaction i goes to session i mod sessions)
 * @param transactions transactions attempted across all sessions
 * @param keys         distinct logical keys
 * @param distribution how keys are drawn
 * @param seed         random seed
 * @param shapes       mini: relative weight of each shape (absent shapes: weight 0); empty means all equal
 * @param minOps       rw-register / list-append: fewest operations per transaction
 * @param maxOps       rw-register / list-append: most operations per transaction
 * @param readRatio    fraction of operations that are reads (cas: fraction of transactions that are reads)
 * @param rmwRatio     rw-register: fraction of writes preceded by a read of the same key
 * @param rotateAfter  after this many planned writes a key is retired for a fresh one (0: never)
 * @param groups       sql: values of the immutable {@code grp} column predicates select on (row id mod groups)
 * @param isolationMix sql: relative weight of each transaction isolation level, by its campaign name
 *                     ({@code read-committed}, ...); empty means every transaction runs at the campaign's level
 */
public record WorkloadSpec(WorkloadType type, int sessions, int transactions, int keys, KeyDistribution distribution,
                           long seed, Map<MtShape, Double> shapes, int minOps, int maxOps, double readRatio,
                           double rmwRatio, int rotateAfter, int groups, Map<String, Double> isolationMix) {

    public WorkloadSpec {
        shapes = Map.copyOf(shapes);
        isolationMix = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(isolationMix));
        if (groups < 1) throw new IllegalArgumentException("groups must be >= 1");
        if (sessions < 1) throw new IllegalArgumentException("sessions must be >= 1");
        if (transactions < 0) throw new IllegalArgumentException("transactions must be >= 0");
        if (keys < 1) throw new IllegalArgumentException("keys must be >= 1");
        if (minOps < 1 || maxOps < minOps) throw new IllegalArgumentException("need 1 <= min-ops <= max-ops");
    }

    /** A mini-transaction workload with all 14 shapes equally likely. */
    public static WorkloadSpec mini(int sessions, int transactions, int keys, KeyDistribution d, long seed) {
        return new WorkloadSpec(WorkloadType.MINI, sessions, transactions, keys, d, seed, Map.of(), 1, 4, 0.5, 1.0, 0, 3,
                Map.of());
    }

    public WorkloadSpec withType(WorkloadType t) {
        return new WorkloadSpec(t, sessions, transactions, keys, distribution, seed, shapes, minOps, maxOps, readRatio,
                rmwRatio, rotateAfter, groups, isolationMix);
    }

    public WorkloadSpec withSeed(long s) {
        return new WorkloadSpec(type, sessions, transactions, keys, distribution, s, shapes, minOps, maxOps, readRatio,
                rmwRatio, rotateAfter, groups, isolationMix);
    }

    public WorkloadSpec withShapes(Map<MtShape, Double> s) {
        return new WorkloadSpec(type, sessions, transactions, keys, distribution, seed, s, minOps, maxOps, readRatio,
                rmwRatio, rotateAfter, groups, isolationMix);
    }

    public WorkloadSpec withOps(int min, int max, double reads, double rmw) {
        return new WorkloadSpec(type, sessions, transactions, keys, distribution, seed, shapes, min, max, reads, rmw,
                rotateAfter, groups, isolationMix);
    }

    public WorkloadSpec withRotateAfter(int n) {
        return new WorkloadSpec(type, sessions, transactions, keys, distribution, seed, shapes, minOps, maxOps,
                readRatio, rmwRatio, n, groups, isolationMix);
    }
}
