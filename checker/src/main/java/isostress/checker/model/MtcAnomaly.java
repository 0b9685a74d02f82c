package isostress.checker.model;

import static isostress.checker.model.IsolationLevel.CAUSAL;
import static isostress.checker.model.IsolationLevel.PARALLEL_SNAPSHOT_ISOLATION;
import static isostress.checker.model.IsolationLevel.PREFIX;
import static isostress.checker.model.IsolationLevel.READ_ATOMIC;
import static isostress.checker.model.IsolationLevel.READ_COMMITTED;
import static isostress.checker.model.IsolationLevel.SERIALIZABLE;

/**
 * The 14 anomalies of MTC (Wei et al., Fig. 5 and Table I), used as aliases of Elle's names, each with the weakest
 * level it violates under the axioms of Biswas &amp; Enea (§2.2, Fig. 3 and 7).
 */
public enum MtcAnomaly {
    THIN_AIR_READ("ThinAirRead", READ_COMMITTED, AnomalyType.THIN_AIR_READ),
    ABORTED_READ("AbortedRead", READ_COMMITTED, AnomalyType.G1A),
    FUTURE_READ("FutureRead", READ_COMMITTED, AnomalyType.FUTURE_READ),
    NOT_MY_LAST_WRITE("NotMyLastWrite", READ_COMMITTED, AnomalyType.INTERNAL),
    NOT_MY_OWN_WRITE("NotMyOwnWrite", READ_COMMITTED, AnomalyType.INTERNAL),
    INTERMEDIATE_READ("IntermediateRead", READ_COMMITTED, AnomalyType.G1B),
    /** B&amp;E Fig. 3b: RC holds, RA fails. */
    NON_REPEATABLE_READS("NonRepeatableReads", READ_ATOMIC, AnomalyType.INTERNAL),
    /** Read-my-writes across a session: B&amp;E Fig. 3c, RA. */
    SESSION_GUARANTEE_VIOLATION("SessionGuaranteeViolation", READ_ATOMIC, AnomalyType.G_SINGLE),
    /** A later read in the same transaction sees an older version: B&amp;E's Read Committed axiom. */
    NON_MONOTONIC_READ("NonMonotonicRead", READ_COMMITTED, AnomalyType.G_SINGLE),
    /** B&amp;E Fig. 3d: RA. */
    FRACTURED_READ("FracturedRead", READ_ATOMIC, AnomalyType.G_SINGLE),
    /** B&amp;E Fig. 3e: causal. */
    CAUSALITY_VIOLATION("CausalityViolation", CAUSAL, AnomalyType.G_SINGLE),
    /** B&amp;E Fig. 3f / 7a: prefix. */
    LONG_FORK("LongFork", PREFIX, AnomalyType.G_NONADJACENT),
    /** B&amp;E Fig. 7c: PC holds, SI fails; already PSI fails (NOCONFLICT, Cerone et al. 2015). */
    LOST_UPDATE("LostUpdate", PARALLEL_SNAPSHOT_ISOLATION, AnomalyType.LOST_UPDATE),
    /** B&amp;E Fig. 11c: SI holds, SER fails. */
    WRITE_SKEW("WriteSkew", SERIALIZABLE, AnomalyType.G2_ITEM);

    private final String mtcName;
    private final IsolationLevel level;
    private final AnomalyType elleType;

    MtcAnomaly(String mtcName, IsolationLevel level, AnomalyType elleType) {
        this.mtcName = mtcName;
        this.level = level;
        this.elleType = elleType;
    }

    public String mtcName() {
        return mtcName;
    }

    /** The weakest level this anomaly violates. */
    public IsolationLevel level() {
        return level;
    }

    /** The Elle kind it is an instance of. */
    public AnomalyType elleType() {
        return elleType;
    }
}
