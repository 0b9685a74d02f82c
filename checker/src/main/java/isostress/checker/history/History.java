package isostress.checker.history;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * An immutable history: transactions with their micro-ops, outcome, process, invocation and completion.
 *
 * <p>Layout: columns of primitive arrays, one entry per transaction and one per micro-op, so that a history of ten
 * million mini-transactions fits in a few hundred megabytes and checkers read it without allocating. {@link #txn(int)}
 * builds a {@link Txn} record on demand for counterexamples and writers; checkers use the column accessors
 * ({@link #firstOp}, {@link #opKind}, ...), which are O(1) and allocation-free.
 *
 * <p>Transactions are numbered from 0 in invocation order. Real-time order: T1 precedes T2 iff T1's completion
 * index is smaller than T2's invocation index ({@link #realTime()} says whether indices carry that meaning; the
 * text format has none).
 *
 * <p>Numeric columns are {@link LongColumn}s: an int an entry while the values fit (keys, values, processes and
 * indices almost always do), none while a column holds only its default (absent times, CAS new values), so a
 * mini-transaction takes about 65 bytes instead of 180 (100M of them fit in a 20 GB heap). Node and isolation
 * columns exist only once some transaction has one.
 *
 * <p>Over 400 lines on purpose: the class is its columns, one one-line accessor each, and its {@link Builder}, which
 * hands the same arrays to the private constructor without a copy (a copy would double the peak memory of a ten
 * million transaction history). Moving the builder out would make the columns package-visible and mutable.
 */
public final class History implements Iterable<Txn> {

    /** {@link #completeIndex} of a transaction that never completed. */
    public static final long PENDING = -1;

    /** Micro-op kinds, as stored in {@link #opKind}. */
    public static final byte READ = 0, WRITE = 1, APPEND = 2, LIST_READ = 3, CAS = 4;

    private static final byte NULL_VALUE = 1;

    private final String source;
    private final InitialState initial;
    private final boolean realTime;
    private final int size, ops;
    private final LongColumn process;
    private final byte[] outcome;
    /** The outcomes as the clients recorded them: {@link #outcome} unless a witness join resolved some. */
    private final byte[] recorded;
    private final LongColumn invokeIndex, completeIndex, invokeTime, completeTime;
    private final int[] line;
    private final int[] opStart, opEnd;
    private final String[] node, isolation;
    private final byte[] opKind, opFlags;
    private final LongColumn opKey, opValue, opValue2;
    private final ListValues lists;
    private final List<SideEvent> sideEvents;
    private final java.util.Map<Long, String> keyNames;
    private final boolean registerOps, independentRegisters;

    private History(Builder b) {
        source = b.source;
        initial = b.initial;
        realTime = b.realTime;
        // The builder's columns are taken, not copied (a copy would double the peak memory of a large history);
        // the builder is spent afterwards, and trimmed its columns to their size first.
        size = b.size;
        ops = b.ops;
        process = b.process;
        outcome = b.outcome;
        recorded = outcome;
        invokeIndex = b.invokeIndex;
        completeIndex = b.completeIndex;
        invokeTime = b.invokeTime;
        completeTime = b.completeTime;
        line = b.line;
        opStart = b.opStart;
        opEnd = b.opEnd;
        node = b.node;
        isolation = b.isolation;
        opKind = b.opKind;
        opFlags = b.opFlags;
        opKey = b.opKey;
        opValue = b.opValue;
        opValue2 = b.opValue2;
        lists = b.lists;
        sideEvents = List.copyOf(b.sideEvents);
        keyNames = java.util.Map.copyOf(b.keyNames);
        registerOps = b.registerOps;
        independentRegisters = b.independentRegisters;
    }

    /** A copy of {@code o} with other outcomes; every other column is shared (they are never written). */
    private History(History o, byte[] outcome) {
        source = o.source;
        initial = o.initial;
        realTime = o.realTime;
        size = o.size;
        ops = o.ops;
        process = o.process;
        this.outcome = outcome;
        recorded = o.recorded;
        invokeIndex = o.invokeIndex;
        completeIndex = o.completeIndex;
        invokeTime = o.invokeTime;
        completeTime = o.completeTime;
        line = o.line;
        opStart = o.opStart;
        opEnd = o.opEnd;
        node = o.node;
        isolation = o.isolation;
        opKind = o.opKind;
        opFlags = o.opFlags;
        opKey = o.opKey;
        opValue = o.opValue;
        opValue2 = o.opValue2;
        lists = o.lists;
        sideEvents = o.sideEvents;
        keyNames = o.keyNames;
        registerOps = o.registerOps;
        independentRegisters = o.independentRegisters;
    }

    /**
     * This history with the outcomes of some transactions changed (the witness join resolves {@code info}
     * transactions by the database's commit log): O(size), one byte a transaction; the other columns are shared.
     */
    public History withOutcomes(java.util.Map<Integer, Outcome> changed) {
        byte[] o = outcome.clone();
        for (java.util.Map.Entry<Integer, Outcome> e : changed.entrySet()) o[e.getKey()] = (byte) e.getValue().ordinal();
        return new History(this, o);
    }

    /**
     * How key {@code id} is spelled in the input: {@code :x}, {@code "x"}, ... for non-integer keys (see
     * {@code KeyDictionary}), the decimal id for integer keys.
     */
    public String keyName(long id) {
        String n = keyNames.get(id);
        return n != null ? n : Long.toString(id);
    }

    /** Spellings of the non-integer keys by id; empty when every key is an integer. */
    public java.util.Map<Long, String> keyNames() { return keyNames; }

    /**
     * True for a history of single-object operations (Jepsen/Knossos {@code :f :read / :write / :cas} on a register,
     * or on many registers with jepsen.independent's {@code [key value]} tuples): each transaction holds exactly one
     * micro-op, values need not be unique, and linearizability is what is checked.
     */
    public boolean registerOps() { return registerOps; }

    /** True for register ops in jepsen.independent's form ({@code :value [key v]}); false for one plain register. */
    public boolean independentRegisters() { return independentRegisters; }

    /** Where the history came from (a file name), or null. */
    public String source() { return source; }

    /** The state before the first transaction. */
    public InitialState initial() { return initial; }

    /** True when invocation and completion indices give a real-time order (not so for the text format). */
    public boolean realTime() { return realTime; }

    /** Number of transactions. */
    public int size() { return size; }

    /** Non-transaction events (faults, ...), in index order. */
    public List<SideEvent> sideEvents() { return sideEvents; }

    public long process(int t) { return process.get(t); }

    public Outcome outcome(int t) { return Outcomes.VALUES[outcome[t]]; }

    /**
     * Transaction {@code t}'s outcome as its client recorded it, before a witness join resolved {@code info}
     * transactions ({@link #withOutcomes}): {@code ok} means the client was told it committed. The commit log may
     * show that an {@code info} transaction committed, on a member whose timeline later did not survive; it was
     * never promised to the client, so it can be a dependency but never a lost acknowledged write.
     */
    public Outcome recordedOutcome(int t) { return Outcomes.VALUES[recorded[t]]; }

    public long invokeIndex(int t) { return invokeIndex.get(t); }

    /** The completion index, or {@link #PENDING}. */
    public long completeIndex(int t) { return completeIndex.get(t); }

    public long invokeTime(int t) { return invokeTime.get(t); }

    public long completeTime(int t) { return completeTime.get(t); }

    /** 1-based source line of the transaction's completion (its invocation when pending), 0 when unknown. */
    public int line(int t) { return line[t]; }

    public String node(int t) { return node == null ? null : node[t]; }

    public String isolation(int t) { return isolation == null ? null : isolation[t]; }

    /** Index of the transaction's first micro-op in the op columns. */
    public int firstOp(int t) { return opStart[t]; }

    /** One past the index of the transaction's last micro-op. */
    public int endOp(int t) { return opEnd[t]; }

    /** Total number of micro-ops. */
    public int opCount() { return ops; }

    /** {@link #READ}, {@link #WRITE}, {@link #APPEND}, {@link #LIST_READ} or {@link #CAS}. */
    public byte opKind(int op) { return opKind[op]; }

    public long opKey(int op) { return opKey.get(op); }

    /** The read value, written value, appended element or CAS expected value; see {@link #opValueNull}. */
    public long opValue(int op) { return opValue.get(op); }

    /** True when the read value (or CAS expected value, or list) is null. */
    public boolean opValueNull(int op) { return (opFlags[op] & NULL_VALUE) != 0; }

    /** The new value of a CAS. */
    public long casNew(int op) { return opValue2.get(op); }

    /** The elements returned by a list read, or null. */
    public long[] listValues(int op) {
        return opValueNull(op) ? null : lists.copy((int) opValue.get(op));
    }

    /** The number of elements a list read returned (without copying them), or -1 when not known. */
    public int listLength(int op) {
        return opValueNull(op) ? -1 : lists.length((int) opValue.get(op));
    }

    /** Element {@code i} of what list read {@code op} returned (without copying). */
    public long listValue(int op, int i) {
        return lists.element((int) opValue.get(op), i);
    }

    /** The micro-op at {@code op} as a record. */
    public MicroOp op(int op) {
        return Records.op(this, op);
    }

    /** Transaction {@code t} as a record (allocates; for reports and writers). */
    public Txn txn(int t) {
        return Records.txn(this, t);
    }

    /** All transactions as records (a view; each access allocates). */
    public List<Txn> txns() {
        return new AbstractList<>() {
            public Txn get(int i) { return txn(i); }
            public int size() { return size; }
        };
    }

    @Override
    public Iterator<Txn> iterator() {
        return txns().iterator();
    }

    /** A builder for histories; readers use its allocation-free methods. */
    public static Builder builder() {
        return new Builder();
    }

    /** The outcome values, indexed by ordinal without allocating. */
    private static final class Outcomes {
        static final Outcome[] VALUES = Outcome.values();
    }

    /**
     * Builds a {@link History}. Call {@link #beginTxn}, then the op methods, then {@link #endTxn}; or
     * {@link #add(Txn)}. Transactions get ids in the order they are begun.
     */
    public static final class Builder {
        private String source;
        private InitialState initial = InitialState.ABSENT;
        private boolean realTime = true;
        private int size;
        private final LongColumn process = new LongColumn(0, 16);
        private byte[] outcome = new byte[16];
        private final LongColumn invokeIndex = new LongColumn(0, 16), completeIndex = new LongColumn(PENDING, 16);
        private final LongColumn invokeTime = new LongColumn(-1, 16), completeTime = new LongColumn(-1, 16);
        private int[] line = new int[16];
        private int[] opStart = new int[16], opEnd = new int[16];
        private String[] node, isolation; // null until some transaction has one
        private int ops;
        private byte[] opKind = new byte[64], opFlags = new byte[64];
        private final LongColumn opKey = new LongColumn(0, 64), opValue = new LongColumn(0, 64),
                opValue2 = new LongColumn(0, 64);
        private ListValues lists = new ListValues();
        private final List<SideEvent> sideEvents = new ArrayList<>();
        private int open = -1;

        public Builder source(String source) { this.source = source; return this; }

        public Builder initial(InitialState initial) { this.initial = initial; return this; }

        public Builder realTime(boolean realTime) { this.realTime = realTime; return this; }

        public Builder sideEvent(SideEvent e) { sideEvents.add(e); return this; }

        private java.util.Map<Long, String> keyNames = java.util.Map.of();
        private boolean registerOps, independentRegisters;

        /** Spellings of non-integer keys by id (see {@link History#keyName}). */
        public Builder keyNames(java.util.Map<Long, String> names) { this.keyNames = names; return this; }

        /** Marks a history of single-object register operations (see {@link History#registerOps}). */
        public Builder registerOps(boolean on) { this.registerOps = on; return this; }

        /** Register ops written as jepsen.independent tuples (see {@link History#independentRegisters}). */
        public Builder independentRegisters(boolean on) { this.independentRegisters = on; return this; }

        /** Number of transactions begun so far. */
        public int size() { return size; }

        /** Makes room for {@code txns} more transactions and {@code ops} more ops, to avoid regrowing. */
        public Builder ensureCapacity(int txns, int ops) {
            if (size + txns > outcome.length) resizeTxns(size + txns);
            int need = this.ops + ops;
            if (need > opKind.length) resizeOps(need);
            return this;
        }

        /**
         * Reserves the next transaction id with its header. Its ops may be added now or later with
         * {@link #opsFor}; either way they must be added in one go.
         */
        public int reserve(long proc, Outcome out, long invIdx, long compIdx, long invTime, long compTime, int srcLine) {
            if (size == outcome.length) resizeTxns(Math.max(16, size + (size >> 1)));
            int t = size++;
            process.set(t, proc);
            outcome[t] = (byte) out.ordinal();
            invokeIndex.set(t, invIdx);
            completeIndex.set(t, compIdx);
            invokeTime.set(t, invTime);
            completeTime.set(t, compTime);
            line[t] = srcLine;
            opStart[t] = opEnd[t] = -1;
            return t;
        }

        /** Sets the header fields of an already reserved transaction (its completion arrived). */
        public void complete(int t, Outcome out, long compIdx, long compTime, int srcLine) {
            outcome[t] = (byte) out.ordinal();
            completeIndex.set(t, compIdx);
            completeTime.set(t, compTime);
            line[t] = srcLine;
        }

        public void node(int t, String n) {
            if (n == null) return;
            if (node == null) node = new String[outcome.length];
            node[t] = n;
        }

        public void isolation(int t, String i) {
            if (i == null) return;
            if (isolation == null) isolation = new String[outcome.length];
            isolation[t] = i;
        }

        /** Starts adding the ops of reserved transaction {@code t}; finish with {@link #endTxn()}. */
        public void opsFor(int t) {
            if (open >= 0) throw new IllegalStateException("transaction " + open + " still open");
            open = t;
            opStart[t] = ops;
        }

        /** Reserves a transaction and opens it for ops. */
        public int beginTxn(long proc, Outcome out, long invIdx, long compIdx, long invTime, long compTime, int srcLine) {
            int t = reserve(proc, out, invIdx, compIdx, invTime, compTime, srcLine);
            opsFor(t);
            return t;
        }

        public void endTxn() {
            if (open < 0) throw new IllegalStateException("no open transaction");
            opEnd[open] = ops;
            open = -1;
        }

        public void read(long key, long value) { op(READ, key, value, 0, (byte) 0); }

        public void readNull(long key) { op(READ, key, 0, 0, NULL_VALUE); }

        public void read(long key, Long value) {
            if (value == null) readNull(key); else read(key, value.longValue());
        }

        public void write(long key, long value) { op(WRITE, key, value, 0, (byte) 0); }

        public void append(long key, long value) { op(APPEND, key, value, 0, (byte) 0); }

        public void cas(long key, Long expected, long newValue) {
            op(CAS, key, expected == null ? 0 : expected, newValue, expected == null ? NULL_VALUE : 0);
        }

        /** A list read; {@code values} null when unknown. Copies {@code values[0..n)}. */
        public void listRead(long key, long[] values, int n) {
            listRead(key, values, 0, n);
        }

        /** A list read of {@code values[from..from+n)} (the reader passes its parsed block, not a copy). */
        public void listRead(long key, long[] values, int from, int n) {
            if (values == null) {
                op(LIST_READ, key, 0, 0, NULL_VALUE);
                return;
            }
            op(LIST_READ, key, lists.add(key, values, from, n), 0, (byte) 0);
        }

        /** Adds a micro-op record to the open transaction. */
        public void op(MicroOp m) {
            Records.add(this, m);
        }

        /** Adds a whole transaction (its id is ignored: the next id is used). Returns the new id. */
        public int add(Txn txn) {
            int t = beginTxn(txn.process(), txn.outcome(), txn.invokeIndex(), txn.completeIndex(),
                    txn.invokeTime(), txn.completeTime(), txn.line());
            for (MicroOp m : txn.ops()) op(m);
            endTxn();
            node(t, txn.node());
            isolation(t, txn.isolation());
            return t;
        }

        private void op(byte kind, long key, long value, long value2, byte flags) {
            if (open < 0) throw new IllegalStateException("no open transaction");
            if (ops == opKind.length) resizeOps(Math.max(64, ops + (ops >> 1)));
            opKind[ops] = kind;
            opFlags[ops] = flags;
            opKey.set(ops, key);
            opValue.set(ops, value);
            opValue2.set(ops, value2);
            ops++;
        }

        /** Resizes the transaction columns to {@code n} entries (growing, or trimming to the size at the end). */
        private void resizeTxns(int n) {
            for (LongColumn c : new LongColumn[] {process, invokeIndex, completeIndex, invokeTime, completeTime}) {
                c.resize(n);
            }
            outcome = Arrays.copyOf(outcome, n);
            line = Arrays.copyOf(line, n);
            opStart = Arrays.copyOf(opStart, n);
            opEnd = Arrays.copyOf(opEnd, n);
            if (node != null) node = Arrays.copyOf(node, n);
            if (isolation != null) isolation = Arrays.copyOf(isolation, n);
        }

        /** Resizes the op columns to {@code n} entries. */
        private void resizeOps(int n) {
            opKind = Arrays.copyOf(opKind, n);
            opFlags = Arrays.copyOf(opFlags, n);
            for (LongColumn c : new LongColumn[] {opKey, opValue, opValue2}) c.resize(n);
        }

        /** The history; the builder is spent (its columns now belong to the history). */
        public History build() {
            if (open >= 0) throw new IllegalStateException("transaction " + open + " still open");
            if (lists == null) throw new IllegalStateException("build() was called already");
            for (int t = 0; t < size; t++) {
                if (opStart[t] < 0) opStart[t] = opEnd[t] = ops; // reserved but given no ops: empty
            }
            // Drops the spare capacity growth left (up to a third of each column), one column at a time.
            if (outcome.length > size) resizeTxns(size);
            if (opKind.length > ops) resizeOps(ops);
            History h = new History(this);
            lists = null;
            opKind = null;
            outcome = null;
            return h;
        }
    }
}
