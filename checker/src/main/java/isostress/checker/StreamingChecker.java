package isostress.checker;

import isostress.checker.history.InitialState;
import isostress.checker.history.Txn;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;

import java.util.List;

/**
 * The check of a history while it is being recorded, for every key-value workload (mini-transactions, rw-register,
 * list-append): completed transactions go in as they complete, in any order; {@link #check()} checks what is sound
 * to check so far ({@link CompletedPrefix}) at the levels asked; the first prefix that violates one of them is kept
 * and checking stops there; {@link #finish()} checks every completed transaction once nothing is in flight, which is
 * the end-of-run check of the whole history.
 *
 * <p>Why the verdict is the end-of-run check's: a violation found in a prefix closed under reads-from is a violation
 * of every history that extends it ({@link CompletedPrefix}, after Biswas &amp; Enea, OOPSLA 2019, §2.2, and MTC
 * §II-D: the levels' axioms only speak of a transaction, the writers it read from and what is ordered before it), so
 * an early stop is never a false alarm; and when no prefix is found violating, {@link #finish()} checks the whole
 * history, {@code info} transactions and their readers included.
 *
 * <p>What is incremental and what is not. The prefix is: each completion costs its own reads and writes plus the
 * waiters it releases, and nothing taken in is looked at again. The check of the prefix is not: it is the ordinary
 * checker on the whole prefix, for these reasons.
 * <ul>
 *   <li>Mini-transactions: MTC's checks are linear (MTC §IV-D), so a re-check costs what reading it again costs.</li>
 *   <li>list-append: the version order of each key is known from its longest read (Elle, VLDB 2020, §4), so every
 *       level is an acyclicity or saturation test, close to linear; but one new read can order appends that older
 *       transactions made (a longer list), adding ww and rw edges between transactions checked long ago, and an
 *       incompatible read or an aborted element decides every level at once: the affected part is not "the new
 *       transactions' keys".</li>
 *   <li>rw-register with blind writes: PC, SI and SER need a version order found by search, NP-complete in general
 *       (Biswas &amp; Enea §3); the polygraph solver (PolySI, PVLDB 2023, §4) first tries the order of completion,
 *       which proves a valid history in linear time, and only prunes and runs SAT when that order has a cycle. Its
 *       pruning (§4.3) is derived from reachability over the whole graph, which a new transaction changes for old
 *       ones (an rw edge into an old reader, a ww pair between old writers it reads between), so re-searching only
 *       the keys a new transaction touched would miss cycles through other keys; keeping the solver's state between
 *       checks (its learned cycles, its pruned pairs) would need it to undo nothing, which a grown reachability
 *       relation does not promise.</li>
 * </ul>
 * So every check costs about one check of the prefix (a millisecond or so per thousand valid transactions); the
 * caller decides how often to pay it (the harness: at most every 200 ms, idle at least as long as the check took;
 * {@code bench streaming}: back to back).
 */
public final class StreamingChecker {
    private final List<IsolationLevel> levels;
    private final CheckOptions options;
    private final CompletedPrefix prefix;
    private int checkedAdded = -1;
    private Step violation;

    /**
     * What one check found.
     *
     * @param prefix the prefix checked (numbers of the whole history in {@link CompletedPrefix.Prefix#ids()})
     * @param result its check at the levels asked
     */
    public record Step(CompletedPrefix.Prefix prefix, Result result) {
        /** True when a level asked for is violated. */
        public boolean violation() {
            return result.verdict() == Verdict.INVALID;
        }
    }

    /**
     * @param levels   the levels to check each prefix at
     * @param options  the check's options (a caller in a hurry lowers the budgets and turns weaker levels off)
     * @param initial  the value every key starts at
     * @param realTime whether the history's real-time order counts (a recorded run: yes)
     */
    public StreamingChecker(List<IsolationLevel> levels, CheckOptions options, InitialState initial,
                            boolean realTime) {
        if (levels.isEmpty()) throw new IllegalArgumentException("no level to check");
        this.levels = List.copyOf(levels);
        this.options = options;
        this.prefix = new CompletedPrefix(initial, realTime);
    }

    /** Takes a completed transaction, numbered by its invocation in the whole history; ignored after a violation. */
    public void add(Txn t) {
        if (violation == null) prefix.add(t);
    }

    /** Transactions taken so far. */
    public int added() {
        return prefix.added();
    }

    /**
     * Checks the prefix as it stands; null when there is nothing new to check (no completion since the last check,
     * an empty prefix, or a violation found already).
     */
    public Step check() {
        if (violation != null || prefix.added() == checkedAdded) return null;
        checkedAdded = prefix.added();
        if (prefix.size() == 0) return null;
        CompletedPrefix.Prefix p = prefix.history();
        Step s = new Step(p, Checker.check(p.history(), levels, options));
        if (s.violation()) violation = s;
        return s;
    }

    /** The first prefix found violating a level asked for, or null. */
    public Step violation() {
        return violation;
    }

    /**
     * The check of every completed transaction, {@code info} ones included, as if the run had ended now: with
     * nothing in flight, the end-of-run check of the whole history.
     */
    public Result finish() {
        CompletedPrefix.Prefix all = prefix.everything();
        return Checker.check(all.history(), levels, options);
    }
}
