package isostress.generator.sim;

import isostress.checker.history.InitialState;
import isostress.checker.history.Outcome;

import java.io.IOException;
import java.io.Writer;

/**
 * Streams a simulated run in the {@code r(key,value,session,txn)} text format of MTC, PolySI and IsoVista:
 * committed transactions only, in completion order (which keeps each session's order), numbered from 1. Every key
 * starts at 0 and no transaction writes 0 (the format's implicit initial state), so the run must start from 0.
 */
public final class TextSink implements TxnSink {
    private final Writer out;
    private final StringBuilder sb = new StringBuilder(64);
    private long txn;

    public TextSink(Writer out) {
        this.out = out;
    }

    @Override
    public void header(InitialState initial) {
        if (initial.defaultValue() == null || initial.defaultValue() != 0 || !initial.values().isEmpty()) {
            throw new IllegalArgumentException("the text format needs every key to start at 0");
        }
    }

    @Override
    public void invoke(long index, long process, TxnOps ops) {
    }

    @Override
    public void complete(long index, long process, Outcome outcome, TxnOps ops) throws IOException {
        if (outcome == Outcome.INFO) {
            throw new IllegalStateException("the text format cannot hold transactions of unknown outcome");
        }
        if (outcome == Outcome.FAIL) return;
        txn++;
        for (int i = 0; i < ops.size; i++) {
            sb.setLength(0);
            sb.append(ops.isRead(i) ? "r(" : "w(").append(ops.key[i]).append(',').append(ops.value[i]).append(',')
              .append(process).append(',').append(txn).append(")\n");
            out.append(sb);
        }
    }

    @Override
    public void finish() throws IOException {
        out.flush();
    }
}
