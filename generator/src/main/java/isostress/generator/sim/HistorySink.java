package isostress.generator.sim;

import isostress.checker.history.History;
import isostress.checker.history.InitialState;
import isostress.checker.history.Outcome;

import java.util.HashMap;
import java.util.Map;

/** Collects a simulated run into an in-memory {@link History}. */
public final class HistorySink implements TxnSink {
    private final History.Builder b = History.builder().source("simulation");
    /** Per process, its transaction in flight: one lookup per transaction (not per op), so a plain map does. */
    private final Map<Long, Integer> open = new HashMap<>();

    @Override
    public void header(InitialState initial) {
        b.initial(initial);
    }

    @Override
    public void invoke(long index, long process, TxnOps ops) {
        open.put(process, b.reserve(process, Outcome.INFO, index, History.PENDING, -1, -1, 0));
    }

    @Override
    public void complete(long index, long process, Outcome outcome, TxnOps ops) {
        int t = open.get(process);
        b.complete(t, outcome, index, -1, 0);
        b.opsFor(t);
        for (int i = 0; i < ops.size; i++) {
            if (ops.isRead(i)) {
                if (ops.unknown[i]) b.readNull(ops.key[i]); else b.read(ops.key[i], ops.value[i]);
            } else {
                b.write(ops.key[i], ops.value[i]);
            }
        }
        b.endTxn();
    }

    public History history() {
        return b.build();
    }
}
