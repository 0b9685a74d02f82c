package isostress.checker;

import isostress.checker.durability.LostWrites;

import isostress.checker.model.CheckOptions;
import isostress.checker.history.History;
import isostress.checker.history.InputException;
import isostress.checker.general.GeneralChecker;
import isostress.checker.general.PrefixSearch;
import isostress.checker.index.AnomalyLog;
import isostress.checker.index.RegisterIndex;
import isostress.checker.lin.LinearizabilityChecker;
import isostress.checker.mini.MiniChecker;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.model.VersionOrder;
import isostress.checker.sql.SqlLevelChecks;

import java.util.Collection;
import java.util.List;

/**
 * The checker's front door: picks the algorithm for the history's shape and checks the levels asked.
 *
 * <p>Mini-transaction histories (every write preceded by a read of its key in the same transaction, unique values)
 * go to the MTC-based checkers ({@link MiniChecker}), which are linear; register histories with blind writes (or
 * info transactions whose writes cannot be placed from their reads) and list-append histories go to the general
 * checker ({@link GeneralChecker}). Histories of single-register operations (Knossos's read/write/cas) go to
 * {@link LinearizabilityChecker}. The result's {@code shape} says which was used. {@code isostress-sql} histories
 * go to the SQL checker ({@link SqlLevelChecks}). Every history kind enters through
 * {@link #check(CheckInput, List, CheckOptions)} and answers one {@link Result}.
 */
public final class Checker {
    private Checker() {
    }

    /**
     * The one entry for every history kind: checks {@code input} at each of {@code levels} (empty: the kind's
     * default — see {@link #defaultLevels(CheckInput)}).
     *
     * <p>Every option applies to every checker, or the checker rejects it: the SQL checker uses
     * {@code anomaliesPerType}, {@code searchBudget} (its prefix-search states per check) and
     * {@code solverTimeoutMillis} (its wall clock per check), and rejects a {@code maxOpenPairs},
     * {@code reachabilityBudget} or {@code cycleSearchBudget} other than the default and polygraph pruning off, which
     * belong to the key-value checkers' algorithms. {@code weakerLevels} asks for more levels than requested; the SQL
     * checker answers the requested checks only, which that option allows.
     *
     * @throws IllegalArgumentException when the checker rejects an option or a level (the message is one sentence)
     * @throws InputException           as {@link #check(History, Collection, CheckOptions)}
     */
    public static Result check(CheckInput input, List<IsolationLevel> levels, CheckOptions options) {
        if (input instanceof CheckInput.KeyValue kv) {
            History h = kv.history();
            List<IsolationLevel> ls = levels.isEmpty() ? defaultLevels(h) : levels;
            Result r = kv.versionOrder() == null ? check(h, ls, options) : check(h, ls, options, kv.versionOrder());
            // The final reads' lost writes, beside the levels: no level allows one.
            if (LostWrites.applies(h)) r = r.withLostWrites(LostWrites.find(h, options.anomaliesPerType()));
            return r;
        }
        CheckInput.Sql sql = (CheckInput.Sql) input;
        rejectForSql(options);
        return SqlLevelChecks.check(sql.history(), sql.ownLevels() || levels.isEmpty(), levels, options);
    }

    /** The options that belong to the key-value checkers' algorithms, set to other than their defaults. */
    private static void rejectForSql(CheckOptions o) {
        CheckOptions d = CheckOptions.DEFAULTS;
        String why = null;
        if (o.maxOpenPairs() != d.maxOpenPairs()) why = "--max-open-pairs applies to the polygraph solver of "
                + "rw-register/list-append histories";
        else if (o.reachabilityBudget() != d.reachabilityBudget()) why = "the reachability budget applies to the "
                + "causal checks of key-value histories";
        else if (o.cycleSearchBudget() != d.cycleSearchBudget()) why = "the cycle-search budget applies to the "
                + "cycle search of key-value histories";
        else if (!o.polygraphPruning()) why = "polygraph pruning applies to the polygraph solver of "
                + "rw-register/list-append histories";
        if (why != null) throw new IllegalArgumentException(why + "; this is an isostress-sql history");
    }

    /** The levels checked when none are asked: for SQL histories, none beyond each transaction's own level. */
    public static List<IsolationLevel> defaultLevels(CheckInput input) {
        return input instanceof CheckInput.KeyValue ? defaultLevels(((CheckInput.KeyValue) input).history())
                : List.of();
    }

    /**
     * Checks {@code history} at each of {@code levels}.
     *
     * @throws InputException for histories no checker accepts (the message names the offending transaction) and for
     *                        levels that need real time the history lacks
     */
    public static Result check(History history, Collection<IsolationLevel> levels, CheckOptions options) {
        if (levels.isEmpty()) throw new IllegalArgumentException("no level to check");
        long t0 = System.nanoTime();
        if (history.registerOps()) return LinearizabilityChecker.check(history, levels, options);
        AnomalyLog anomalies = new AnomalyLog(history, options.anomaliesPerType());
        if (GeneralChecker.isListHistory(history)) return general(history, anomalies, null, levels, options, t0);
        RegisterIndex m = RegisterIndex.of(history, anomalies);
        if (m.blindWrites == 0 && m.undeterminedWrites == 0) {
            return withIndexTime(MiniChecker.check(history, anomalies, m, levels, options), t0);
        }
        return general(history, anomalies, m, levels, options, t0);
    }

    /**
     * Checks {@code history} at each of {@code levels} with each key's version order taken from the database's commit
     * log where {@code order} gives it completely (docs/witness.md): the general checker then has every ww and rw
     * edge of those keys, and each level is an acyclicity test. A mini-transaction history whose reads order every
     * key as the log does goes to the mini-transaction checkers as without a log (they infer that same order from
     * the reads, in linear time); one the log orders otherwise goes to the general checker with the log's order.
     * Single-register histories are checked as without an order.
     *
     * @throws InputException as {@link #check(History, Collection, CheckOptions)}
     */
    public static Result check(History history, Collection<IsolationLevel> levels, CheckOptions options,
                               VersionOrder order) {
        if (levels.isEmpty()) throw new IllegalArgumentException("no level to check");
        if (history.registerOps()) return check(history, levels, options);
        long t0 = System.nanoTime();
        AnomalyLog anomalies = new AnomalyLog(history, options.anomaliesPerType());
        RegisterIndex m = GeneralChecker.isListHistory(history) ? null : RegisterIndex.of(history, anomalies);
        if (m != null && m.blindWrites == 0 && m.undeterminedWrites == 0) {
            java.util.Map<String, Object> logStats = new java.util.LinkedHashMap<>();
            if (GeneralChecker.logOrderSameAsReads(m, order, logStats)) {
                Result r = withIndexTime(MiniChecker.check(history, anomalies, m, levels, options), t0);
                r.stats().putAll(logStats);
                return r;
            }
        }
        return withIndexTime(GeneralChecker.check(history, anomalies, m, levels, options,
                m == null ? LIST_APPEND : RW_REGISTER, order), t0);
    }

    /**
     * Checks a register or list-append history with the general checker even when it is a mini-transaction history
     * (for comparing the two, and for users who want the general algorithms' counterexamples).
     */
    public static Result checkGeneral(History history, Collection<IsolationLevel> levels, CheckOptions options) {
        if (levels.isEmpty()) throw new IllegalArgumentException("no level to check");
        long t0 = System.nanoTime();
        AnomalyLog anomalies = new AnomalyLog(history, options.anomaliesPerType());
        RegisterIndex m = GeneralChecker.isListHistory(history) ? null : RegisterIndex.of(history, anomalies);
        return general(history, anomalies, m, levels, options, t0);
    }

    /** The general checker on a register history compiled as {@code m}, or on a list history ({@code m} null). */
    private static Result general(History history, AnomalyLog anomalies, RegisterIndex m,
                                  Collection<IsolationLevel> levels, CheckOptions options, long t0) {
        return withIndexTime(GeneralChecker.check(history, anomalies, m, levels, options,
                m == null ? LIST_APPEND : RW_REGISTER), t0);
    }

    /**
     * What the exact search answered: {@link Verdict#UNKNOWN} when it ran out of budget.
     *
     * @param states prefixes visited
     */
    public record Exact(Verdict verdict, long states) {
    }

    /**
     * Decides {@code level} (prefix, snapshot-isolation or serializable) on a register or list-append history by
     * Biswas &amp; Enea's exact search over prefixes (OOPSLA 2019, §4.1-4.3), visiting at most {@code budget} states:
     * slower than {@link #checkGeneral}, and sharing nothing with it but the compiled observations, so benchmarks
     * and differential tests compare the two verdicts.
     *
     * @throws IllegalArgumentException for another level
     */
    public static Exact checkExact(History history, IsolationLevel level, long budget) {
        PrefixSearch.Outcome o = GeneralChecker.exact(history, level, budget);
        Verdict v = switch (o.answer()) {
            case VALID -> Verdict.VALID;
            case INVALID -> Verdict.INVALID;
            case UNKNOWN -> Verdict.UNKNOWN;
        };
        return new Exact(v, o.states());
    }

    /** The shape names a result reports, saying which algorithm family decided it. */
    public static final String RW_REGISTER = "rw-register (general transactions: polygraph + SAT, saturation)";
    public static final String LIST_APPEND = "list-append (Elle's inference: polygraph + SAT, saturation)";

    private static Result withIndexTime(Result r, long t0) {
        java.util.Map<String, Object> stats = new java.util.LinkedHashMap<>(r.stats());
        stats.putIfAbsent("check_ms", (System.nanoTime() - t0) / 1_000_000);
        return new Result(r.shape(), r.levels(), r.requested(), r.anomalies(), r.anomaliesOmitted(),
                r.anomalyCounts(), stats);
    }

    /** Checks at the default levels with default limits. */
    public static Result check(History history) {
        return check(history, defaultLevels(history), CheckOptions.DEFAULTS);
    }

    /**
     * Linearizability for single-register op histories; else strict serializability when the history has real-time
     * order, serializability otherwise.
     */
    public static List<IsolationLevel> defaultLevels(History history) {
        if (history.registerOps()) return List.of(IsolationLevel.LINEARIZABLE);
        return List.of(history.realTime() ? IsolationLevel.STRICT_SERIALIZABLE : IsolationLevel.SERIALIZABLE);
    }
}
