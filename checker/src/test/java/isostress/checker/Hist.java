package isostress.checker;

import isostress.checker.history.History;
import isostress.checker.history.InitialState;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A one-line DSL for test histories, after Elle's {@code (op "rx1ax2")}: ops are written
 * {@code "r 1 0, w 1 1, r 2 nil, cas 3 1 2, append 4 5, r 4 [5 6]"} (key then value). Events get increasing
 * indices in call order, so real-time order is the order of the calls.
 */
public final class Hist {
    private final History.Builder b = History.builder().source("test");
    private final Map<Long, Integer> pending = new HashMap<>();
    private final Map<Integer, List<MicroOp>> pendingOps = new HashMap<>();
    private long index;

    public Hist initial(InitialState s) {
        b.initial(s);
        return this;
    }

    public Hist noRealTime() {
        b.realTime(false);
        return this;
    }

    /** Invokes a transaction of process {@code p} with its (completed) ops. */
    public Hist begin(long p, String ops) {
        if (pending.containsKey(p)) throw new IllegalStateException("process " + p + " busy");
        int t = b.reserve(p, Outcome.INFO, index++, History.PENDING, -1, -1, 0);
        pending.put(p, t);
        pendingOps.put(t, parse(ops));
        return this;
    }

    /** Completes process p's transaction. */
    public Hist end(long p, Outcome outcome) {
        int t = pending.remove(p);
        b.complete(t, outcome, index++, -1, 0);
        b.opsFor(t);
        for (MicroOp m : pendingOps.remove(t)) b.op(m);
        b.endTxn();
        return this;
    }

    public Hist end(long p) {
        return end(p, Outcome.OK);
    }

    /** A transaction that runs alone: invoked and completed before the next call. */
    public Hist ok(long p, String ops) {
        return begin(p, ops).end(p, Outcome.OK);
    }

    public Hist fail(long p, String ops) {
        return begin(p, ops).end(p, Outcome.FAIL);
    }

    public Hist info(long p, String ops) {
        return begin(p, ops).end(p, Outcome.INFO);
    }

    /** Transactions of distinct processes that all overlap: every invocation before every completion. */
    public Hist concurrent(long[] procs, String... ops) {
        for (int i = 0; i < procs.length; i++) begin(procs[i], ops[i]);
        for (long p : procs) end(p);
        return this;
    }

    public History build() {
        for (Long p : new ArrayList<>(pending.keySet())) {
            int t = pending.remove(p);
            b.opsFor(t);
            for (MicroOp m : pendingOps.remove(t)) b.op(m);
            b.endTxn();
        }
        return b.build();
    }

    /** Parses {@code "r 1 0, w 1 1"}. */
    public static List<MicroOp> parse(String ops) {
        List<MicroOp> out = new ArrayList<>();
        if (ops.isBlank()) return out;
        for (String part : ops.split(",")) {
            String p = part.trim();
            String[] w = p.replace("[", " [ ").replace("]", " ] ").trim().split("\\s+");
            long key = Long.parseLong(w[1]);
            switch (w[0]) {
                case "r":
                    if (w[2].equals("[")) {
                        List<Long> vs = new ArrayList<>();
                        for (int i = 3; i < w.length && !w[i].equals("]"); i++) vs.add(Long.parseLong(w[i]));
                        out.add(new MicroOp.ListRead(key, vs));
                    } else {
                        out.add(new MicroOp.Read(key, value(w[2])));
                    }
                    break;
                case "w": out.add(new MicroOp.Write(key, Long.parseLong(w[2]))); break;
                case "append": out.add(new MicroOp.Append(key, Long.parseLong(w[2]))); break;
                case "cas": out.add(new MicroOp.Cas(key, value(w[2]), Long.parseLong(w[3]))); break;
                default: throw new IllegalArgumentException(p);
            }
        }
        return out;
    }

    private static Long value(String s) {
        return s.equals("nil") || s.equals("_") ? null : Long.parseLong(s);
    }
}
