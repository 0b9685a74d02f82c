package isostress.checker;

import isostress.checker.history.History;
import isostress.checker.history.InitialState;
import isostress.checker.history.KeyValueNumbers;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The part of a history still being recorded that can be checked now without false alarms: the completed
 * transactions, minus every one that read (directly or through other readers) from a transaction not completed yet.
 *
 * <p>Why a violation found here is a violation of the whole history [1, 2]: a history is valid at RC, RA, CC, PC,
 * SI, SER or SSER when some commit order of its committed transactions satisfies the level's axioms, all of which
 * talk about a transaction, the writer it read from, and transactions ordered before it. Take such an order for the
 * whole history and restrict it to a subset S that contains the writer of every read in S ("closed under
 * reads-from"): each read in S still reads from the same writer, every transaction between that writer and the
 * reader in the restricted order was between them before, and session, real-time and causal orders restricted to S
 * are contained in the old ones; so the restricted order satisfies the same axioms, and S is valid too. Contrapositive:
 * a violation in S is a violation of every history that extends S, whatever the transactions still in flight do.
 * Reads-from is exact here because every workload checked this way writes unique values: mini-transactions and
 * rw-register write each value once per key (MTC §II, §IV-A), and list-append appends each element once, so a list
 * read names the appender of every element in it (Elle, Kingsbury &amp; Alvaro, VLDB 2020, §3-4: "recoverability").
 * A list read reads from all of them: the list semantics says the read shows every append ordered before it, so
 * the set S must hold each element's appender, not only the last one's, for its reads to keep their values.
 *
 * <p>So the prefix takes a completed transaction in only once the writer of each value it read is in:
 * <ol>
 *   <li>in-flight transactions are out: their outcome and reads are unknown;</li>
 *   <li>{@code info} transactions are out: whether they committed is decided by who read them, which later
 *       transactions may change. Leaving one out is sound since its readers stay out as well (3);</li>
 *   <li>a transaction that read a value whose writer is not in waits until it is, transitively. Reads of the
 *       initial value and of null read from no one. {@code fail} transactions are taken in: reading their writes
 *       is an aborted read (G1a) now and forever.</li>
 * </ol>
 * Completed transactions never leave, so a transaction in stays in, and the prefix is kept incrementally: each
 * completion costs its own reads and writes plus the waiters it releases. Only {@link #history()} is O(n), since
 * histories number transactions by invocation and a late completion lands in the middle. The end-of-run check of
 * the whole history stays authoritative; this only finds violations sooner.
 *
 * <p>Part of the checker's API (the streaming check of a run, {@code harness/run/StreamingCheck}, feeds it and
 * checks each prefix with {@link Checker}), so the harness needs none of the checker's indexes.
 *
 * <p>[1] MTC: Jiang et al., "Verifying Transactional Consistency of MongoDB", §II-D (axioms), §IV (checks);
 * [2] Biswas &amp; Enea, "On the Complexity of Checking Transactional Consistency", OOPSLA 2019, §2.2 (axioms).
 */
public final class CompletedPrefix {
    /**
     * @param history the prefix, its transactions numbered from 0 in invocation order
     * @param ids     per transaction of {@code history}, its number in the whole history (what the file will say)
     * @param left    completed transactions not in (rules 2 and 3)
     */
    public record Prefix(History history, int[] ids, int left) {
        /** The whole history's label of prefix transaction {@code t}, e.g. {@code T8812}. */
        public String label(int t) {
            return "T" + ids[t];
        }
    }

    private final InitialState initial;
    private final boolean realTime;
    /** Every completed transaction, at its invocation number (what {@link #everything()} returns). */
    private Txn[] all = new Txn[1024];
    /** The transactions in, at their invocation number (null: in flight or not in). */
    private Txn[] in = new Txn[1024];
    /** Per invocation number, how many of the transaction's reads still wait for their writer. */
    private int[] missing = new int[1024];
    private int inCount, added;
    private long inOps;
    /**
     * The keys, and the (key, value) pairs written by transactions that are in (a pair is in it once its writer is),
     * numbered; shared with the screen that {@link #onAdmit} feeds, which indexes its own arrays by these numbers.
     */
    private final KeyValueNumbers numbers = new KeyValueNumbers();
    /** (key, value) to a slot of {@link #waiters}: the transactions waiting for that value's writer. */
    private final LongPairIntMap waitSlot = new LongPairIntMap(64);
    private final List<List<Txn>> waiters = new ArrayList<>();
    /**
     * Per key number, how many of {@link #waiters}' slots for a value of that key are not released yet: a write of
     * a key nobody waits on skips the look-up in {@link #waitSlot} (a cache miss once that map is large).
     */
    private int[] waitingOn = new int[1024];
    /**
     * Scratch of {@link #add} and {@link #admit}: per operation of the transaction coming in, the version it wrote
     * or read, or -1 (see {@link Admission}).
     */
    private int[] opVersions = new int[16];
    /**
     * Per key (numbered by {@link #numbers}), the longest list read of a transaction in: the appender of each of its
     * elements is in (the reader was taken in only once they were, or appended it itself), so a later read that has
     * the same element at the same position need not look its appender up. Why: a list read names every element
     * appended before it, and looking each one's writer up in {@link #numbers} (a cache miss each, the list growing
     * with the run) was the prefix's main cost in a JFR profile of a million-transaction list-append replay (12.6% of
     * the checking thread's samples); a read mostly repeats the last one's list and adds an element or two.
     */
    private long[][] knownLists = new long[1024][];
    private static final long[] NONE_KNOWN = {};
    /** Told of each transaction as it comes in, writers before their readers (null: nobody). */
    private Admission onAdmit;

    /** What {@link #onAdmit} is told of each transaction coming into the prefix. */
    @FunctionalInterface
    public interface Admission {
        /**
         * @param t        the transaction, whose writers of what it read are in already
         * @param versions per operation of {@code t}, the number ({@link #numbers()}) of the (key, value) it wrote, or
         *                 for a register read the one it read; -1 when it wrote nothing and read no written value (a
         *                 list read, a read of the initial value or null); valid during the call only
         */
        void admitted(Txn t, int[] versions);
    }

    /** A prefix of a history with real-time order (a recorded run: the events' order is real). */
    public CompletedPrefix(InitialState initial) {
        this(initial, true);
    }

    /** A prefix of a history whose real-time order counts ({@code realTime}) or not, as the whole history's does. */
    public CompletedPrefix(InitialState initial, boolean realTime) {
        this.initial = initial;
        this.realTime = realTime;
    }

    /**
     * Tells {@code listener} of each transaction as it comes into the prefix, the writers of what it read before it
     * (for an incremental check of the prefix).
     */
    public void onAdmit(Admission listener) {
        this.onAdmit = listener;
    }

    /**
     * The numbering of keys and written (key, value) pairs this prefix keeps, for a listener ({@link #onAdmit}) that
     * indexes its own state by it rather than hashing the same pairs again.
     */
    public KeyValueNumbers numbers() {
        return numbers;
    }

    /** The checkable prefix of {@code completed} (in any order; ids are numbers in the whole history). */
    public static Prefix of(List<Txn> completed, InitialState initial) {
        CompletedPrefix p = new CompletedPrefix(initial);
        for (Txn t : completed) p.add(t);
        return p.history();
    }

    /** Takes a completed transaction, numbered by its invocation in the whole history. */
    public void add(Txn t) {
        added++;
        grow(t.id());
        all[t.id()] = t;
        if (t.outcome() == Outcome.INFO) return; // rule 2: never in, nor any reader of its writes
        int wait = 0;
        List<MicroOp> ops = t.ops();
        int n = ops.size();
        if (opVersions.length < n) opVersions = new int[n * 2];
        for (int j = 0; j < n; j++) {
            MicroOp m = ops.get(j);
            opVersions[j] = -1; // the versions read, for admit to hand over if t comes in now
            if (m instanceof MicroOp.ListRead lr) {
                List<Long> values = lr.values();
                if (values == null) continue;
                long[] known = knownList(m.key());
                for (int i = 0, len = values.size(); i < len; i++) {
                    long e = values.get(i); // appended elements: none is initial
                    if (i < known.length && known[i] == e) continue; // its appender is in (see knownLists)
                    if (numbers.version(m.key(), e) == KeyValueNumbers.MISSING) wait += waitFor(t, m.key(), e);
                }
                continue;
            }
            Long v = readValue(m);
            if (v == null || initial.isInitial(m.key(), v)) continue;
            int version = numbers.version(m.key(), v);
            opVersions[j] = version;
            if (version == KeyValueNumbers.MISSING) wait += waitFor(t, m.key(), v);
        }
        missing[t.id()] = wait;
        if (wait == 0) admit(t);
    }

    /**
     * 1 when {@code t} must wait for the writer of {@code (key, v)}, which is not in (rule 3: in flight, out, or never
     * was), else 0.
     */
    private int waitFor(Txn t, long key, long v) {
        if (writes(t, key, v)) return 0;
        int slot = waitSlot.get(key, v);
        if (slot == LongPairIntMap.MISSING) {
            slot = waiters.size();
            waitSlot.put(key, v, slot);
            waiters.add(new ArrayList<>(2));
            int k = numbers.key(key);
            if (k >= waitingOn.length) waitingOn = Arrays.copyOf(waitingOn, Math.max(k + 1, waitingOn.length * 2));
            waitingOn[k]++;
        }
        List<Txn> w = waiters.get(slot);
        if (w == null) return 0; // released already (a writer of a duplicate value came in)
        w.add(t);
        return 1;
    }

    /**
     * Takes {@code t} in, and every waiter that was waiting only for it, transitively. {@link #opVersions} holds the
     * versions {@code first}'s reads read ({@link #add} looked them up); a waiter's are looked up again.
     */
    private void admit(Txn first) {
        List<Txn> stack = new ArrayList<>();
        stack.add(first);
        while (!stack.isEmpty()) {
            Txn t = stack.remove(stack.size() - 1);
            in[t.id()] = t;
            inCount++;
            List<MicroOp> ops = t.ops();
            int n = ops.size();
            inOps += n;
            if (t != first) readVersions(t);
            for (int i = 0; i < n; i++) {
                MicroOp m = ops.get(i);
                if (m instanceof MicroOp.ListRead lr) {
                    know(lr);
                    continue;
                }
                Long v = writtenValue(m);
                if (v == null) continue;
                opVersions[i] = numbers.write(m.key(), v);
                if (waitSlot.size() == 0) continue; // nobody ever waited
                int k = numbers.key(m.key());
                if (k >= waitingOn.length || waitingOn[k] == 0) continue;
                int slot = waitSlot.get(m.key(), v);
                if (slot == LongPairIntMap.MISSING || waiters.get(slot) == null) continue;
                for (Txn r : waiters.get(slot)) if (--missing[r.id()] == 0) stack.add(r);
                waiters.set(slot, null); // released: nobody waits for this value again
                waitingOn[k]--;
            }
            // Its writes are numbered first, so the listener finds them, its own included.
            if (onAdmit != null) onAdmit.admitted(t, opVersions);
        }
    }

    /** Fills {@link #opVersions} with the version each operation of {@code t} read (-1: none, initial or null). */
    private void readVersions(Txn t) {
        List<MicroOp> ops = t.ops();
        if (opVersions.length < ops.size()) opVersions = new int[ops.size() * 2];
        for (int i = 0; i < ops.size(); i++) {
            MicroOp m = ops.get(i);
            Long v = readValue(m);
            boolean none = v == null || initial.isInitial(m.key(), v);
            opVersions[i] = none ? -1 : numbers.version(m.key(), v);
        }
    }

    /** The longest list read of {@code key} by a transaction in (empty: none). */
    private long[] knownList(long key) {
        int k = numbers.key(key);
        return k >= knownLists.length || knownLists[k] == null ? NONE_KNOWN : knownLists[k];
    }

    /** Keeps {@code r}, of a transaction taken in, when it is the longest read of its key so far. */
    private void know(MicroOp.ListRead r) {
        List<Long> values = r.values();
        if (values == null) return;
        int k = numbers.key(r.key());
        if (k >= knownLists.length) knownLists = Arrays.copyOf(knownLists, Math.max(k + 1, knownLists.length * 2));
        long[] known = knownLists[k];
        if (known != null && known.length >= values.size()) return;
        known = new long[values.size()];
        for (int i = 0; i < known.length; i++) known[i] = values.get(i);
        knownLists[k] = known;
    }

    /** The prefix as it stands: a new history of the transactions in. O(n). */
    public Prefix history() {
        return build(in, inCount, inOps, added - inCount);
    }

    /**
     * The prefix as it stands, to be built later, on another thread if need be: a copy of which transactions are in
     * (O(n), a copy of references), which goes on describing this moment while more come in. Why: building the
     * history copies every operation, and on the thread that takes completions in it cost 12% of that thread's samples
     * in a JFR profile of a million-transaction list-append replay (once the list screen was made fast); the thread
     * that checks the prefix can build it instead.
     */
    public java.util.function.Supplier<Prefix> historyLater() {
        int top = 0;
        for (int id = in.length - 1; id >= 0; id--) {
            if (in[id] != null) {
                top = id + 1;
                break;
            }
        }
        Txn[] from = Arrays.copyOf(in, top);
        int count = inCount, left = added - inCount;
        long ops = inOps;
        return () -> build(from, count, ops, left);
    }

    /**
     * Every completed transaction, {@code info} ones and those still waiting included: once nothing is in flight any
     * more (the run ended), this is the whole history, and checking it is the end-of-run check. O(n).
     */
    public Prefix everything() {
        long ops = 0;
        int count = 0;
        for (Txn t : all) {
            if (t == null) continue;
            count++;
            ops += t.ops().size();
        }
        return build(all, count, ops, 0);
    }

    /** Transactions taken so far, in the prefix or not. */
    public int added() {
        return added;
    }

    /** Transactions in the prefix so far. */
    public int size() {
        return inCount;
    }

    private Prefix build(Txn[] from, int count, long ops, int left) {
        History.Builder b = History.builder().initial(initial).realTime(realTime).source("history being recorded")
                .ensureCapacity(count, (int) ops);
        int[] ids = new int[count];
        int k = 0;
        for (int id = 0; id < from.length && k < count; id++) {
            if (from[id] == null) continue;
            b.add(from[id]);
            ids[k++] = id;
        }
        return new Prefix(b.build(), ids, left);
    }

    private void grow(int id) {
        if (id < in.length) return;
        int n = Math.max(in.length * 2, id + 1);
        in = Arrays.copyOf(in, n);
        all = Arrays.copyOf(all, n);
        missing = Arrays.copyOf(missing, n);
    }

    private static boolean writes(Txn t, long key, long value) {
        for (MicroOp m : t.ops()) {
            Long v = writtenValue(m);
            if (v != null && m.key() == key && v == value) return true;
        }
        return false;
    }

    /** The value {@code m} read (a CAS reads its expected value), or null when it read nothing or null. */
    private static Long readValue(MicroOp m) {
        if (m instanceof MicroOp.Read) return ((MicroOp.Read) m).value();
        if (m instanceof MicroOp.Cas) return ((MicroOp.Cas) m).expected();
        return null;
    }

    /** The value {@code m} wrote (the element it appended), or null. */
    private static Long writtenValue(MicroOp m) {
        if (m instanceof MicroOp.Write) return ((MicroOp.Write) m).value();
        if (m instanceof MicroOp.Append) return ((MicroOp.Append) m).value();
        if (m instanceof MicroOp.Cas) return ((MicroOp.Cas) m).newValue();
        return null;
    }
}
