package isostress.generator.sim;

import isostress.checker.history.InitialState;
import isostress.checker.history.Outcome;

import java.io.IOException;
import java.io.Writer;

/** Streams a simulated run as JSON lines in the Jepsen op schema (isostress's history format), without holding it in memory. */
public final class JsonlSink implements TxnSink {
    private final Writer out;
    private final StringBuilder sb = new StringBuilder(256);

    public JsonlSink(Writer out) {
        this.out = out;
    }

    @Override
    public void header(InitialState initial) throws IOException {
        if (initial.isAbsent()) return;
        sb.setLength(0);
        sb.append("{\"type\":\"header\",\"real-time\":true");
        if (initial.defaultValue() != null) sb.append(",\"initial-default\":").append(initial.defaultValue());
        out.append(sb.append("}\n"));
    }

    @Override
    public void invoke(long index, long process, TxnOps ops) throws IOException {
        line(index, "invoke", process, ops, true);
    }

    @Override
    public void complete(long index, long process, Outcome outcome, TxnOps ops) throws IOException {
        line(index, outcome.jepsenName(), process, ops, false);
    }

    private void line(long index, String type, long process, TxnOps ops, boolean invoke) throws IOException {
        sb.setLength(0);
        sb.append("{\"index\":").append(index).append(",\"type\":\"").append(type).append("\",\"process\":")
          .append(process).append(",\"f\":\"txn\",\"value\":[");
        for (int i = 0; i < ops.size; i++) {
            if (i > 0) sb.append(',');
            if (ops.isRead(i)) {
                sb.append("[\"r\",").append(ops.key[i]).append(',');
                if (invoke || ops.unknown[i]) sb.append("null"); else sb.append(ops.value[i]);
            } else {
                sb.append("[\"w\",").append(ops.key[i]).append(',').append(ops.value[i]);
            }
            sb.append(']');
        }
        out.append(sb.append("]}\n"));
    }

    @Override
    public void finish() throws IOException {
        out.flush();
    }
}
