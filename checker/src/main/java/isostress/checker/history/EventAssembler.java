package isostress.checker.history;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

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
    private final LongPairIntMap pendingByProcess = new LongPairIntMap(64);
    private final Map<Integer, Pending> pending = new HashMap<>();
    private final ArrayDeque<Integer> pendingAnonymous = new ArrayDeque<>();
    private long nextAnonymousProcess = -1;
    private long eventOrdinal;
    private int sideEvents;
    private long lastIndex = Long.MIN_VALUE;
    private boolean initialSeen;
    private int firstTxnLine;

    /** What an invocation left behind until its completion arrives. */
    private record Pending(int txn, int line, OpBuffer ops, long process) {
    }

    /** Spare buffers, so an invocation's ops are copied into a recycled buffer, not a new one. */
    private final ArrayDeque<OpBuffer> spare = new ArrayDeque<>();

    private OpBuffer keep(OpBuffer ops) {
        OpBuffer b = spare.isEmpty() ? new OpBuffer() : spare.pop();
        b.copyFrom(ops);
        return b;
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
        long idx = given != null ? given : eventOrdinal;
        eventOrdinal++;
        if (given != null) {
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
        if (builder.size() == 0) firstTxnLine = line;
        int t;
        if (process == null) {
            long p = nextAnonymousProcess--;
            t = builder.reserve(p, Outcome.INFO, index, History.PENDING, time, -1, line);
            pending.put(t, new Pending(t, line, keep(ops), p));
            pendingAnonymous.addLast(t);
            return;
        }
        int open = pendingByProcess.get(process, 0);
        if (open != LongPairIntMap.MISSING && open != Integer.MAX_VALUE) {
            throw new InputException(source, line, "process " + process + " invokes a transaction while its "
                    + "invocation at line " + pending.get(open).line + " has not completed");
        }
        t = builder.reserve(process, Outcome.INFO, index, History.PENDING, time, -1, line);
        pendingByProcess.put(process, 0, t);
        pending.put(t, new Pending(t, line, keep(ops), process));
    }

    void complete(Outcome outcome, Long process, long index, long time, int line, OpBuffer ops,
                  String node, String isolation) {
        Integer t;
        if (process == null) {
            t = pendingAnonymous.pollFirst();
            if (t == null) {
                throw new InputException(source, line, "a completion (" + outcome.jepsenName()
                        + ") without a process and no invocation waiting for it");
            }
        } else {
            int open = pendingByProcess.get(process, 0);
            if (open == LongPairIntMap.MISSING || open == Integer.MAX_VALUE) {
                throw new InputException(source, line, "a completion (" + outcome.jepsenName() + ") of process "
                        + process + " which has no invocation in flight");
            }
            t = open;
            pendingByProcess.put(process, 0, Integer.MAX_VALUE);
        }
        Pending p = pending.remove(t);
        builder.complete(t, outcome, index, time, line);
        builder.opsFor(t);
        // A failed or unknown completion may carry only the invocation's value (Jepsen copies it); keep whichever
        // has ops.
        (ops.size == 0 && outcome != Outcome.OK ? p.ops : ops).flushTo(builder);
        builder.endTxn();
        spare.push(p.ops);
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
        pending.values().stream().sorted((a, b) -> Integer.compare(a.txn, b.txn)).forEach(p -> {
            builder.opsFor(p.txn);
            p.ops.flushTo(builder);
            builder.endTxn();
        });
        pending.clear();
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
