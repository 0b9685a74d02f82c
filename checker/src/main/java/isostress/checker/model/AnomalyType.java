package isostress.checker.model;

import static isostress.checker.model.IsolationLevel.LINEARIZABLE;
import static isostress.checker.model.IsolationLevel.PARALLEL_SNAPSHOT_ISOLATION;
import static isostress.checker.model.IsolationLevel.READ_COMMITTED;
import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static isostress.checker.model.IsolationLevel.SNAPSHOT_ISOLATION;

/**
 * Anomaly kinds, named as Elle names them (Kingsbury &amp; Alvaro, "Elle", VLDB 2020, after Adya 1999), with the
 * weakest level each proscribes when nothing finer is known about the instance. A found anomaly may name a finer
 * level through its MTC alias ({@link MtcAnomaly}), e.g. a G-single that is a FracturedRead violates read atomic.
 */
public enum AnomalyType {
    /** Write cycle: ww edges only (Adya G0). */
    G0("G0", true, READ_COMMITTED),
    /** Aborted read: a value written by a failed transaction was read (Adya G1a). */
    G1A("G1a", false, READ_COMMITTED),
    /** Intermediate read: a value a transaction later overwrote itself was read by another (Adya G1b). */
    G1B("G1b", false, READ_COMMITTED),
    /** Circular information flow: a cycle of ww and wr edges (Adya G1c). */
    G1C("G1c", true, READ_COMMITTED),
    /** A cycle with exactly one anti-dependency (rw) edge (Adya G-single). */
    G_SINGLE("G-single", true, SNAPSHOT_ISOLATION),
    /** A cycle with several rw edges, no two adjacent (Cerone &amp; Gotsman's SI characterisation; Elle). */
    G_NONADJACENT("G-nonadjacent", true, SNAPSHOT_ISOLATION),
    /**
     * Long fork: a G-nonadjacent cycle W1 -wr(x)-> R1 -rw(y)-> W2 -wr(y)-> R2 -rw(x)-> W1 of four transactions and two
     * keys: R1 saw W1's write of x but not W2's of y, R2 saw W2's but not W1's, so the two readers saw the writes in
     * opposite orders and no single order of commits explains both (Sovran et al., SOSP 2011, §3; Jepsen, "Amazon RDS
     * for PostgreSQL 17.4", 2025). Snapshot isolation and prefix consistency forbid it, parallel snapshot isolation
     * allows it ({@link LongFork}).
     */
    LONG_FORK("long-fork", true, SNAPSHOT_ISOLATION),
    /** A cycle with adjacent rw edges on items (Adya G2-item). */
    G2_ITEM("G2-item", true, SERIALIZABLE),
    /**
     * Two transactions read the same version of a key and both wrote it (MTC's Divergence pattern, Def. 10): neither
     * saw the other, which NOCONFLICT forbids, so it breaks parallel snapshot isolation already.
     */
    LOST_UPDATE("lost-update", false, PARALLEL_SNAPSHOT_ISOLATION),
    /** A transaction's read disagrees with its own earlier reads or writes of the key (Elle's internal). */
    INTERNAL("internal", false, READ_COMMITTED),
    /** A transaction read a value it writes only later. */
    FUTURE_READ("future-read", false, READ_COMMITTED),
    /** A value nobody wrote was read. */
    THIN_AIR_READ("thin-air-read", false, READ_COMMITTED),
    /** Two reads of a list that neither is a prefix of: no single append order explains both (Elle). */
    INCOMPATIBLE_ORDER("incompatible-order", false, READ_COMMITTED),
    /** A list read holding the same element twice, though each element is appended once (Elle). */
    DUPLICATE_ELEMENTS("duplicate-elements", false, READ_COMMITTED),
    /** A committed append ordered after an aborted one: the committed write built on an aborted state (Elle). */
    DIRTY_UPDATE("dirty-update", false, READ_COMMITTED),
    // SQL histories (Bouajjani, Enea, Román-Calvo, CAV 2025): the SQL checker's kinds that have no Elle name.
    /** A query returned a row whose version does not match its WHERE clause. */
    PREDICATE_MISMATCH("predicate-mismatch", false, READ_COMMITTED),
    /** Session order and read-from alone form a cycle (CAV 2025 §4, step 2). */
    SO_WR_CYCLE("so-wr-cycle", false, READ_COMMITTED),
    /** The commit order the readers' axioms force (the saturation fixpoint, CAV 2025 Alg. 3) has a cycle. */
    COMMIT_ORDER_CYCLE("commit-order-cycle", false, READ_COMMITTED),
    /** A predicate read did not return a row that every version it could have seen matches. */
    MISSED_ROW("missed-row", false, READ_COMMITTED),
    /** No choice of versions for the rows predicate reads skipped admits a commit order (CAV 2025 Alg. 3, 4). */
    NO_COMMIT_ORDER("no-commit-order", false, READ_COMMITTED),
    /**
     * A register op that no linearization of the history can place before it returns (Herlihy &amp; Wing 1990;
     * Knossos's {@code :valid? false} with its {@code :op}): single-object histories only.
     */
    NONLINEARIZABLE("nonlinearizable", false, LINEARIZABLE);

    private final String elleName;
    private final boolean cycle;
    private final IsolationLevel level;

    AnomalyType(String elleName, boolean cycle, IsolationLevel level) {
        this.elleName = elleName;
        this.cycle = cycle;
        this.level = level;
    }

    public String elleName() {
        return elleName;
    }

    /** True for dependency-cycle anomalies, which take {@link CycleVariant} suffixes. */
    public boolean cycle() {
        return cycle;
    }

    /** The weakest level that proscribes every instance of this kind. */
    public IsolationLevel level() {
        return level;
    }
}
