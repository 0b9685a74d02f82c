package isostress.checker.history;

import java.util.ArrayDeque;

/**
 * Pairs invocation and completion events into transactions, as Jepsen does: a process has at most one operation in
 * flight, and the next completion of that process completes it. Shared by the JSONL and EDN readers.
 *
 * <p>An invocation that never completes (the run crashed or stopped) becomes an {@code info} transaction with a
 * {@link History#PENDING} completion: its outcome is unknown, never assumed failed. Events without a process are
 * each their own process (Elle's paper example has none), paired first-in first-out.
 */
final class EventAssembler {
    private final String source;
    private final History.Builder builder = History.builder();
    /**
     * Invocations in flight, in slots: per slot the transaction (-1: none), its line and a copy of its ops. A
     * process keeps its slot (processes are few: found through {@code slotOfProcess}, reused by each of its
     * invocations, so pairing costs no object per event); an anonymous invocation takes a free slot and frees it.
     */
    private final LongPairIntMap slotOfProcess = new LongPairIntMap(64);
    private int slots;
    private int[] slotTxn = new int[16], slotLine = new int[16];
    private OpBuffer[] slotOps = new OpBuffer[16];
    private final IntStack freeSlots = new IntStack();
    /** Slots of anonymous invocations, oldest first. */
    private final ArrayDeque<Integer> pendingAnonymous = new ArrayDeque<>();
    private long nextAnonymousProcess = -1;
    private long eventOrdinal;
    private int sideEvents;
    private long lastIndex = Long.MIN_VALUE;
    private boolean initialSeen;
    private int firstTxnLine;

    /** A growable stack of ints. */
    private static final class IntStack {
        private int[] a = new int[8];
        private int n;

        void push(int v) {
            if (n == a.length) a = java.util.Arrays.copyOf(a, n * 2);
            a[n++] = v;
        }

        int pop() {
            return n == 0 ? -1 : a[--n];
        }
    }

    EventAssembler(String source) {
        this.source = source;
        this.keys = new KeyDictionary(source);
        builder.source(source);
    }

    /** Ids of the history's keys, shared by the reader's micro-op parsing. */
    final KeyDictionary keys;

    /** What the history's client ops are: transactions, or register ops of one {@link RegisterOp.Form}. */
    private Object shape;
    private int shapeLine;

    /**
     * Records the shape of the op at {@code line}: {@code "txn"} or a {@link RegisterOp.Form}. One history holds one
     * shape: a transaction among register ops (or a plain register op among independent ones) has no meaning for
     * either checker, so it is refused rather than checked by half.
     */
    void shape(Object s, int line) {
        if (shape == null) {
            shape = s;
            shapeLine = line;
        } else if (!shape.equals(s)) {
            throw new InputException(source, line, "this op is " + shapeName(s) + " but the op at line " + shapeLine
                    + " is " + shapeName(shape) + "; a history holds one kind");
        }
    }

    private static String shapeName(Object s) {
        if (s == RegisterOp.Form.PLAIN) return "a single-register op (:f :read, :write or :cas)";
        if (s == RegisterOp.Form.INDEPENDENT) return "an independent register op ([key value] tuple)";
        return "a transaction (:f :txn)";
    }

    /** The global index of the next event: the given one, or the event's ordinal when the history has none. */
    long index(Long given, int line) {
        return index(given != null, given != null ? given : 0, line);
    }

    /** {@link #index(Long, int)} without a boxed index: {@code given} counts only when {@code has}. */
    long index(boolean has, long given, int line) {
        long idx = has ? given : eventOrdinal;
        eventOrdinal++;
        if (has) {
            if (idx <= lastIndex) {
                throw new InputException(source, line, "index " + idx + " is not greater than the previous event's "
                        + lastIndex + " (events must be in index order)");
            }
            lastIndex = idx;
        }
        return idx;
    }

    void header(InitialState initial, boolean realTime, int line) {
        if (initialSeen) throw new InputException(source, line, "a second header line");
        if (builder.size() > 0) {
            throw new InputException(source, line, "the header must come before the first transaction (line "
                    + firstTxnLine + ")");
        }
        initialSeen = true;
        builder.initial(initial).realTime(realTime);
    }

    void invoke(Long process, long index, long time, int line, OpBuffer ops) {
        if (process != null) {
            invoke(process.longValue(), index, time, line, ops);
            return;
        }
        if (builder.size() == 0) firstTxnLine = line;
        int s = freeSlots.pop();
        if (s < 0) s = newSlot();
        open(s, builder.reserve(nextAnonymousProcess--, Outcome.INFO, index, History.PENDING, time, -1, line), line,
                ops);
        pendingAnonymous.addLast(s);
    }

    /** An invocation of client {@code process}. */
    void invoke(long process, long index, long time, int line, OpBuffer ops) {
        if (builder.size() == 0) firstTxnLine = line;
        int s = slotOfProcess.get(process, 0);
        if (s == LongPairIntMap.MISSING) {
            s = newSlot();
            slotOfProcess.put(process, 0, s);
        } else if (slotTxn[s] >= 0) {
            throw new InputException(source, line, "process " + process + " invokes a transaction while its "
                    + "invocation at line " + slotLine[s] + " has not completed");
        }
        open(s, builder.reserve(process, Outcome.INFO, index, History.PENDING, time, -1, line), line, ops);
    }

    private void open(int s, int t, int line, OpBuffer ops) {
        slotTxn[s] = t;
        slotLine[s] = line;
        slotOps[s].copyFrom(ops);
    }

    private int newSlot() {
        if (slots == slotTxn.length) {
            slotTxn = java.util.Arrays.copyOf(slotTxn, slots * 2);
            slotLine = java.util.Arrays.copyOf(slotLine, slots * 2);
            slotOps = java.util.Arrays.copyOf(slotOps, slots * 2);
        }
        slotTxn[slots] = -1;
        slotOps[slots] = new OpBuffer();
        return slots++;
    }

    void complete(Outcome outcome, Long process, long index, long time, int line, OpBuffer ops,
                  String node, String isolation) {
        if (process != null) {
            complete(outcome, process.longValue(), index, time, line, ops, node, isolation);
            return;
        }
        Integer s = pendingAnonymous.pollFirst();
        if (s == null) {
            throw new InputException(source, line, "a completion (" + outcome.jepsenName()
                    + ") without a process and no invocation waiting for it");
        }
        close(s, outcome, index, time, line, ops, node, isolation);
        freeSlots.push(s);
    }

    /** A completion of client {@code process}. */
    void complete(Outcome outcome, long process, long index, long time, int line, OpBuffer ops,
                  String node, String isolation) {
        int s = slotOfProcess.get(process, 0);
        if (s == LongPairIntMap.MISSING || slotTxn[s] < 0) {
            throw new InputException(source, line, "a completion (" + outcome.jepsenName() + ") of process "
                    + process + " which has no invocation in flight");
        }
        close(s, outcome, index, time, line, ops, node, isolation);
    }

    /** Completes slot {@code s}'s transaction and frees the slot of it. */
    private void close(int s, Outcome outcome, long index, long time, int line, OpBuffer ops, String node,
                       String isolation) {
        int t = slotTxn[s];
        slotTxn[s] = -1;
        builder.complete(t, outcome, index, time, line);
        builder.opsFor(t);
        // A failed or unknown completion may carry only the invocation's value (Jepsen copies it); keep whichever
        // has ops.
        (ops.size == 0 && outcome != Outcome.OK ? slotOps[s] : ops).flushTo(builder);
        builder.endTxn();
        builder.node(t, node);
        builder.isolation(t, isolation);
    }

    void side(SideEvent e) {
        builder.sideEvent(e);
        sideEvents++;
    }

    /**
     * The history, once every event is in.
     *
     * @param lastLine the input's last line, named when there is no transaction at all
     * @throws InputException when the input holds no transaction: nothing was checked, so no verdict may be given
     */
    History finish(int lastLine) {
        if (builder.size() == 0) throw noTransactions(source, lastLine, sideEvents);
        // Invocations that never completed: outcome unknown.
        java.util.List<Integer> open = new java.util.ArrayList<>();
        for (int s = 0; s < slots; s++) if (slotTxn[s] >= 0) open.add(s);
        open.sort((a, b) -> Integer.compare(slotTxn[a], slotTxn[b]));
        for (int s : open) {
            builder.opsFor(slotTxn[s]);
            slotOps[s].flushTo(builder);
            builder.endTxn();
            slotTxn[s] = -1;
        }
        if (shape == RegisterOp.Form.PLAIN) keys.namePlainRegister();
        builder.keyNames(keys.names()).registerOps(shape instanceof RegisterOp.Form)
                .independentRegisters(shape == RegisterOp.Form.INDEPENDENT);
        return builder.build();
    }

    /** The error for an input without transactions: an empty history has no verdict, it is not a valid one. */
    static InputException noTransactions(String source, int lastLine, int skipped) {
        return new InputException(source, Math.max(1, lastLine), "no transactions"
                + (skipped > 0 ? " (only " + skipped + " nemesis events, which are not checked)" : "")
                + ": there is nothing to check, and an empty history is not a valid one");
    }
}
