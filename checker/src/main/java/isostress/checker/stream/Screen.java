package isostress.checker.stream;

import isostress.checker.history.KeyValueNumbers;
import isostress.checker.history.Txn;
import isostress.checker.model.IsolationLevel;

import java.util.Collection;

/**
 * The incremental part of the streaming check: a serialization graph of the prefix grown edge by edge as transactions
 * come into it, for the histories whose version order the reads reveal as they arrive (list-append: the longest read
 * of each key; mini-transactions: the chain of read-modify-writes). A screen says when the whole check of the prefix
 * is worth running (a cycle, or an anomaly it recognises) and never decides a verdict itself: the caller confirms
 * with the ordinary checker, which names the anomaly. Histories with blind writes have no such order (it is searched
 * for), so they get no screen.
 */
public sealed interface Screen permits ListScreen, MiniScreen {
    /**
     * Takes a transaction that came into the prefix, writers before their readers, numbering its writes itself (a
     * screen made without a prefix's numbers).
     */
    void add(Txn t);

    /**
     * Takes a transaction that came into a prefix whose {@link KeyValueNumbers} the screen was made with
     * ({@link #forFirst}), with the number of the (key, value) each of its operations wrote or read
     * ({@link isostress.checker.CompletedPrefix.Admission}), so the screen finds its state by number rather than
     * hashing the pairs again.
     */
    void add(Txn t, int[] versions);

    /** True when this screen can read {@code t}; once one is refused the caller drops the screen. */
    boolean accepts(Txn t);

    /** Why the prefix deserves a whole check now, or null. Cleared by {@link #reset}. */
    String flag();

    /** Clears the flag; a cycle found stays found. */
    void reset();

    /** True once the graph had a cycle. */
    boolean cycle();

    /**
     * The screen for a history whose first transaction into the prefix is {@code first}, at the levels asked, or
     * null when it is of no workload a screen reads; it shares {@code prefixNumbers}, the prefix's numbering of keys and
     * written values, and takes transactions with {@link #add(Txn, int[])}.
     */
    static Screen forFirst(Txn first, Collection<IsolationLevel> levels, KeyValueNumbers prefixNumbers) {
        boolean ser = serializabilityAsked(levels);
        if (ListScreen.lists(first)) return new ListScreen(ser, prefixNumbers);
        if (MiniScreen.minis(first)) {
            boolean conflicts = levels.stream().anyMatch(l -> l.implies(IsolationLevel.PARALLEL_SNAPSHOT_ISOLATION));
            return new MiniScreen(ser, conflicts, prefixNumbers);
        }
        return null;
    }

    /**
     * True when a level asked for implies serializability (serializable, strict serializable): then a cycle of the
     * screen's graph is a violation, and a whole check that finds none means the screen missed.
     */
    static boolean serializabilityAsked(Collection<IsolationLevel> levels) {
        return levels.stream().anyMatch(l -> l.implies(IsolationLevel.SERIALIZABLE));
    }
}
