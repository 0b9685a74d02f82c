package isostress.checker;

import isostress.checker.history.InitialState;
import isostress.checker.history.Txn;
import isostress.checker.model.CheckOptions;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import isostress.checker.stream.ListScreen;
import isostress.checker.stream.MiniScreen;
import isostress.checker.stream.Screen;

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
 * waiters it releases, and nothing taken in is looked at again. The check of the prefix depends on the workload.
 * <ul>
 *   <li>list-append and mini-transactions: incremental. Their version orders are revealed by the reads as they
 *       come (list-append: each key's longest read, Elle, VLDB 2020, §4; mini-transactions: the chain of
 *       read-modify-writes, MTC §IV-A), so the serialization graph of the prefix only gains edges as transactions
 *       come in, and a dynamic topological order finds the first cycle when its last edge arrives
 *       ({@link ListScreen}, {@link MiniScreen}). It screens: a cycle (when serializability is asked for) or an
 *       anomaly it recognises has the prefix checked as a whole at once, which confirms and names it; otherwise the
 *       whole prefix is checked each time it has doubled, for what the screen does not see (real time, weaker
 *       levels' cycles, internal reads), so whole checks cost about twice one check of the last prefix over the
 *       whole run. A cycle the whole check does not confirm at serializability would be a fault of the screen: it
 *       is then switched off, and every check is whole. A caller that must not fall behind has the whole checks
 *       run on a thread of their own ({@link #wholeChecksInBackground}), so the screen goes on examining every
 *       completion meanwhile.</li>
 *   <li>rw-register with blind writes: whole checks every time. PC, SI and SER need a version order found by search,
 *       NP-complete in general (Biswas &amp; Enea §3); the polygraph solver (PolySI, PVLDB 2023, §4) first tries the
 *       order of completion, which proves a valid history in linear time, and only prunes and runs SAT when that
 *       order has a cycle. A new transaction changes what was decided for old ones (a blind write between two old
 *       writes of a key re-opens their order; an rw edge lands on an old reader), and the pruning (§4.3) is derived
 *       from reachability over the whole graph, so re-searching only the keys a new transaction touched would miss
 *       cycles through other keys, and the solver's state (learned cycles, pruned pairs) is not kept valid by a
 *       grown graph.</li>
 * </ul>
 * The caller decides how often to check (the harness: at most every 200 ms, idle at least as long as the check took;
 * {@code bench streaming}: back to back).
 */
public final class StreamingChecker {
    private final List<IsolationLevel> levels;
    private final CheckOptions options;
    private final CompletedPrefix prefix;
    /** The incremental screen of list-append and mini-transaction prefixes; null for others, or once it missed. */
    private Screen screen;
    private boolean screenDecided;
    private final boolean serAsked;
    private int checkedAdded = -1, lastWhole;
    private long screened, wholeChecks;
    private Step violation;
    /** Whole checks of screened prefixes run on their own thread ({@link #wholeChecksInBackground}). */
    private boolean background;
    private java.util.concurrent.CompletableFuture<Step> pending;
    private boolean pendingCycle;

    /**
     * What one check found.
     *
     * @param txns   transactions in the prefix
     * @param prefix the prefix checked as a whole (numbers of the whole history in
     *               {@link CompletedPrefix.Prefix#ids()}), or null when only the incremental screen looked at it
     * @param result its check at the levels asked, or null with {@code prefix}
     */
    public record Step(int txns, CompletedPrefix.Prefix prefix, Result result) {
        /** True when a level asked for is violated. */
        public boolean violation() {
            return result != null && result.verdict() == Verdict.INVALID;
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
        this.serAsked = Screen.serializabilityAsked(levels);
        prefix.onAdmit(this::screen);
    }

    /**
     * Has the whole checks of a screened prefix run on a thread of their own, on a copy of the prefix, while
     * {@link #check()} goes on screening every completion: one whole check takes as long as checking the prefix,
     * and on the calling thread it would hold up the screen that long. At most one runs at a time; its verdict is
     * taken by a later {@link #check()} (or {@link #finish()}). Other histories are checked on the calling thread.
     */
    public StreamingChecker wholeChecksInBackground() {
        this.background = true;
        return this;
    }

    /** True while a whole check runs in the background: {@link #check()} has its verdict to take. */
    public boolean waiting() {
        return pending != null;
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
     *
     * <p>A list-append or mini-transaction prefix is checked as a whole when the screen flags it (a cycle, when
     * serializability is asked for, or an anomaly it recognises), and otherwise each time it has doubled since the
     * last whole check, so whole checks cost at most about twice one check of the final prefix, and what the screen
     * cannot see (real time, weaker levels' cycles, internal reads) is found within a doubling. Other histories are
     * checked as a whole every time.
     */
    public Step check() {
        if (violation != null) return null;
        Step done = collect(screen == null);
        if (violation != null) return done;
        if (prefix.added() == checkedAdded) {
            // A whole check the screen asked for while another ran starts once that one is done, completions or not:
            // at the end of a run none may follow, and the violation would wait for the end-of-run check.
            if (background && screen != null && pending == null && screen.flag() != null) start(prefix.size());
            return done;
        }
        checkedAdded = prefix.added();
        int size = prefix.size();
        if (size == 0) return null;
        boolean due = screen == null || screen.flag() != null || size >= 2L * lastWhole;
        if (screen != null && (!due || background)) {
            if (due && pending == null) start(size);
            screened++;
            return new Step(size, null, null);
        }
        boolean flagged = screen != null && screen.flag() != null;
        boolean cycle = flagged && screen.cycle();
        CompletedPrefix.Prefix p = prefix.history();
        Step s = new Step(size, p, Checker.check(p.history(), levels, options));
        wholeChecks++;
        lastWhole = size;
        if (screen != null) screen.reset();
        if (s.violation()) violation = s;
        else if (cycle && serAsked && s.result().verdict() == Verdict.VALID) screen = null; // a screen that misses
        return s;
    }

    /**
     * Starts a whole check of the prefix (of {@code size} transactions) in the background, which also builds the
     * prefix's history (this thread only copies which transactions are in).
     */
    private void start(int size) {
        java.util.function.Supplier<CompletedPrefix.Prefix> later = prefix.historyLater();
        pendingCycle = screen.flag() != null && screen.cycle();
        screen.reset();
        lastWhole = size;
        wholeChecks++;
        pending = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            CompletedPrefix.Prefix p = later.get();
            return new Step(size, p, Checker.check(p.history(), levels, options));
        }, r -> {
            Thread t = new Thread(r, "streaming-whole-check");
            t.setDaemon(true);
            t.start();
        });
    }

    /** The background whole check's step once it is done (waiting for it when {@code wait}), else null. */
    private Step collect(boolean wait) {
        if (pending == null || !wait && !pending.isDone()) return null;
        Step s;
        try {
            s = pending.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        } finally {
            pending = null;
        }
        if (s.violation()) violation = s;
        else if (pendingCycle && serAsked && s.result().verdict() == Verdict.VALID) screen = null; // it missed
        return s;
    }

    /** The first prefix found violating a level asked for, or null. */
    public Step violation() {
        return violation;
    }

    /** Whether the incremental screen is on (a list-append or mini-transaction history, and it has not been wrong). */
    public boolean screening() {
        return screen != null;
    }

    /** Checks answered by the screen alone, and whole checks. */
    public long screened() {
        return screened;
    }

    public long wholeChecks() {
        return wholeChecks;
    }

    /**
     * The check of every completed transaction, {@code info} ones included, as if the run had ended now: with
     * nothing in flight, the end-of-run check of the whole history.
     */
    public Result finish() {
        if (violation == null) collect(true);
        CompletedPrefix.Prefix all = prefix.everything();
        return Checker.check(all.history(), levels, options);
    }

    /** Hands a transaction that came into the prefix to the screen, chosen by the first one. */
    private void screen(Txn t, int[] versions) {
        if (!screenDecided) {
            screenDecided = true;
            screen = Screen.forFirst(t, levels, prefix.numbers());
        }
        if (screen == null) return;
        if (!screen.accepts(t)) {
            screen = null; // not of the screen's workload after all (a blind write): whole checks only
            return;
        }
        screen.add(t, versions);
    }
}
