package isostress.generator.sim;

import isostress.checker.history.History;
import isostress.checker.history.InitialState;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.Outcome;

/** Collects a simulated run into an in-memory {@link History}. */
public final class HistorySink implements TxnSink {
    private final History.Builder b = History.builder().source("simulation");
    private final LongPairIntMap open = new LongPairIntMap(64);

    @Override
    public void header(InitialState initial) {
        b.initial(initial);
    }

    @Override
    public void invoke(long index, long process, TxnOps ops) {
        open.put(process, 0, b.reserve(process, Outcome.INFO, index, History.PENDING, -1, -1, 0));
    }

    @Override
    public void complete(long index, long process, Outcome outcome, TxnOps ops) {
        int t = open.get(process, 0);
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
