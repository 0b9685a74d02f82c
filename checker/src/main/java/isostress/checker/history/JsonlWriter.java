package isostress.checker.history;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes the JSON lines schema that {@link JsonlReader} reads, in index order, one event per line. An invocation
 * carries the transaction's ops with read values null, as Jepsen records them.
 */
public final class JsonlWriter implements HistoryWriter {

    @Override
    public void write(History h, OutputStream out) throws IOException {
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        StringBuilder sb = new StringBuilder(256);
        if (!h.initial().isAbsent() || !h.realTime()) {
            sb.append("{\"type\":\"header\",\"real-time\":").append(h.realTime());
            if (h.initial().defaultValue() != null) {
                sb.append(",\"initial-default\":").append(h.initial().defaultValue());
            }
            if (!h.initial().values().isEmpty()) {
                sb.append(",\"initial\":[");
                boolean first = true;
                for (Map.Entry<Long, Long> e : h.initial().values().entrySet()) {
                    if (!first) sb.append(',');
                    first = false;
                    sb.append("[\"w\",").append(e.getKey()).append(',').append(e.getValue()).append(']');
                }
                sb.append(']');
            }
            sb.append("}\n");
            w.append(sb);
        }
        for (int code : EventOrder.of(h)) {
            sb.setLength(0);
            if (code < 0) {
                SideEvent e = h.sideEvents().get(-code - 1);
                sb.append("{\"index\":").append(e.index()).append(",\"type\":");
                quote(sb, e.type());
                sb.append(",\"process\":");
                if (e.process().matches("-?\\d+")) sb.append(e.process()); else quote(sb, e.process());
                if (e.time() >= 0) sb.append(",\"time\":").append(e.time());
                if (e.f() != null) {
                    sb.append(",\"f\":");
                    quote(sb, e.f());
                }
                if (e.valueJson() != null) sb.append(",\"value\":").append(e.valueJson());
                sb.append("}\n");
                w.append(sb);
                continue;
            }
            int t = code >> 1;
            boolean completion = (code & 1) == 1;
            long index = completion ? h.completeIndex(t) : h.invokeIndex(t);
            long time = completion ? h.completeTime(t) : h.invokeTime(t);
            String type = completion ? h.outcome(t).jepsenName() : "invoke";
            sb.append("{\"index\":").append(index).append(",\"type\":\"").append(type)
              .append("\",\"process\":").append(h.process(t));
            if (time >= 0) sb.append(",\"time\":").append(time);
            if (h.registerOps()) {
                OpSyntax.JSON.appendRegisterOp(sb, h, t, completion);
            } else {
                sb.append(",\"f\":\"txn\",\"value\":");
                OpSyntax.JSON.appendOps(sb, h, t, completion);
            }
            if (completion && h.node(t) != null) {
                sb.append(",\"node\":");
                quote(sb, h.node(t));
            }
            if (completion && h.isolation(t) != null) {
                sb.append(",\"isolation\":");
                quote(sb, h.isolation(t));
            }
            sb.append("}\n");
            w.append(sb);
        }
        w.flush();
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        JsonStringEncoder.getInstance().quoteAsString(s, sb);
        sb.append('"');
    }
}
