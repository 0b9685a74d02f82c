package isostress.checker.model;

import isostress.checker.history.MicroOp;
import isostress.checker.history.Txn;

import java.util.List;
import java.util.Map;

/**
 * One anomaly found in a history, as data (rendered by the explain package).
 *
 * @param type    Elle's kind
 * @param variant -process / -realtime for cycles
 * @param alias   the MTC name when the instance matches one, else null
 * @param level   the weakest level this instance proves violated
 * @param txns    the transactions involved, in cycle order for cycles
 * @param steps   the cycle's edges (empty for non-cycle anomalies)
 * @param op      the offending micro-op of non-cycle anomalies (the read), else null
 * @param key      the key involved in non-cycle anomalies and lost updates, else null
 * @param premises  the derived orders the cycle uses, each with its justification, or the cases of a case split
 *                  (general histories, where the version order is inferred); empty otherwise
 * @param argument  SQL histories: the counterexample, its rows, predicates and commit-order edges (txns and steps
 *                  are then empty); else null
 * @param keyNames  how the history spells its non-integer keys ({@code :x}, {@code "x"}) by id, so renderers show
 *                  the input's key and not its id; empty when every key is an integer
 * @param commitLog when the history was checked with the database's commit log: for each transaction of
 *                  {@code txns} with writes in the log, the log transactions holding them (one per node), so that a
 *                  reader sees the counterexample's commits in the database's own order; empty otherwise
 *
 * <p>{@code level} is null for an SQL history checked at its transactions' own levels: no single level is violated,
 * the mix is.
 */
public record Anomaly(AnomalyType type, CycleVariant variant, MtcAnomaly alias, IsolationLevel level,
                      List<Txn> txns, List<Step> steps, MicroOp op, Long key, List<Premise> premises,
                      Argument argument, Map<Long, String> keyNames, Map<Integer, List<WitnessTxn>> commitLog) {

    public Anomaly {
        commitLog = commitLog == null ? Map.of() : Map.copyOf(commitLog);
        txns = List.copyOf(txns);
        steps = List.copyOf(steps);
        premises = premises == null ? List.of() : List.copyOf(premises);
        keyNames = keyNames == null ? Map.of() : Map.copyOf(keyNames);
        if (variant == null) variant = CycleVariant.NONE;
    }

    /** An anomaly without commit-log positions. */
    public Anomaly(AnomalyType type, CycleVariant variant, MtcAnomaly alias, IsolationLevel level, List<Txn> txns,
                   List<Step> steps, MicroOp op, Long key, List<Premise> premises, Argument argument,
                   Map<Long, String> keyNames) {
        this(type, variant, alias, level, txns, steps, op, key, premises, argument, keyNames, Map.of());
    }

    /** This anomaly with the commit log's transactions of its own ({@link #commitLog()}). */
    public Anomaly withCommitLog(Map<Integer, List<WitnessTxn>> log) {
        return new Anomaly(type, variant, alias, level, txns, steps, op, key, premises, argument, keyNames, log);
    }

    /** A key-value anomaly (no argument in sentences). */
    public Anomaly(AnomalyType type, CycleVariant variant, MtcAnomaly alias, IsolationLevel level, List<Txn> txns,
                   List<Step> steps, MicroOp op, Long key, List<Premise> premises) {
        this(type, variant, alias, level, txns, steps, op, key, premises, null, Map.of());
    }

    /** An SQL history's counterexample: its argument, at {@code level} (null: the transactions' own levels). */
    public static Anomaly of(AnomalyType type, IsolationLevel level, Argument argument) {
        return new Anomaly(type, CycleVariant.NONE, null, level, List.of(), List.of(), null, null, List.of(), argument,
                Map.of());
    }

    /** "snapshot-isolation", or "the transactions' own levels" for an SQL history's mixed-level check. */
    public String violates() {
        return level == null ? "the transactions' own levels" : level.cliName();
    }

    /** True when a graph can be drawn: a cycle's steps, or an SQL commit-order cycle. */
    public boolean hasGraph() {
        return !steps.isEmpty() || argument != null && !argument.cycle().isEmpty();
    }

    /** This anomaly with the history's key spellings attached (a no-op for integer keys). */
    public Anomaly withKeyNames(Map<Long, String> names) {
        if (names.isEmpty()) return this;
        return new Anomaly(type, variant, alias, level, txns, steps, op, key, premises, argument, names, commitLog);
    }

    /** How key {@code id} is spelled in the input ({@code :x}), or its decimal id for integer keys. */
    public String keyName(Long id) {
        if (id == null) return "?";
        String n = keyNames.get(id);
        return n != null ? n : id.toString();
    }

    /** An anomaly that rests on the history's data alone (no premises). */
    public Anomaly(AnomalyType type, CycleVariant variant, MtcAnomaly alias, IsolationLevel level, List<Txn> txns,
                   List<Step> steps, MicroOp op, Long key) {
        this(type, variant, alias, level, txns, steps, op, key, List.of());
    }

    /** Elle's name with its suffix, e.g. {@code G-single-realtime}. */
    public String name() {
        return type.elleName() + variant.suffix();
    }

    /** The name with the MTC alias, e.g. {@code G2-item (WriteSkew)}. */
    public String displayName() {
        return alias == null ? name() : name() + " (" + alias.mtcName() + ")";
    }
}
