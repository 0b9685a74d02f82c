package isostress.checker.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Writes Jepsen EDN, one op map per line, readable by Elle and elle-cli:
 * {@code {:index 0, :type :invoke, :process 3, :time 1200345, :f :txn, :value [[:r 17 nil] [:w 17 42]]}}.
 */
final class EdnWriter implements HistoryWriter {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Override
    public void write(History h, OutputStream out) throws IOException {
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        StringBuilder sb = new StringBuilder(256);
        if (!h.initial().isAbsent() || !h.realTime()) {
            sb.append("{:type :header, :real-time ").append(h.realTime());
            if (h.initial().defaultValue() != null) sb.append(", :initial-default ").append(h.initial().defaultValue());
            if (!h.initial().values().isEmpty()) {
                sb.append(", :initial [");
                boolean first = true;
                for (Map.Entry<Long, Long> e : h.initial().values().entrySet()) {
                    if (!first) sb.append(' ');
                    first = false;
                    sb.append("[:w ").append(e.getKey()).append(' ').append(e.getValue()).append(']');
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
                sb.append("{:index ").append(e.index()).append(", :type :").append(e.type())
                  .append(", :process ").append(e.process().matches("-?\\d+") ? e.process() : ":" + e.process());
                if (e.time() >= 0) sb.append(", :time ").append(e.time());
                if (e.f() != null) sb.append(", :f :").append(e.f());
                if (e.valueJson() != null) {
                    sb.append(", :value ");
                    jsonToEdn(MAPPER.readTree(e.valueJson()), sb);
                }
                sb.append("}\n");
                w.append(sb);
                continue;
            }
            int t = code >> 1;
            boolean completion = (code & 1) == 1;
            sb.append("{:index ").append(completion ? h.completeIndex(t) : h.invokeIndex(t))
              .append(", :type :").append(completion ? h.outcome(t).jepsenName() : "invoke")
              .append(", :process ").append(h.process(t));
            long time = completion ? h.completeTime(t) : h.invokeTime(t);
            if (time >= 0) sb.append(", :time ").append(time);
            if (h.registerOps()) {
                EdnOps.appendRegisterOp(sb, h, t, completion);
            } else {
                sb.append(", :f :txn, :value ");
                EdnOps.appendOps(sb, h, t, completion);
            }
            if (completion && h.node(t) != null) sb.append(", :node ").append(ednString(h.node(t)));
            if (completion && h.isolation(t) != null) sb.append(", :isolation ").append(ednString(h.isolation(t)));
            sb.append("}\n");
            w.append(sb);
        }
        w.flush();
    }

    private static String ednString(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    private static void jsonToEdn(JsonNode n, StringBuilder sb) {
        if (n.isArray()) {
            sb.append('[');
            for (int i = 0; i < n.size(); i++) {
                if (i > 0) sb.append(' ');
                jsonToEdn(n.get(i), sb);
            }
            sb.append(']');
        } else if (n.isObject()) {
            sb.append('{');
            Iterator<Map.Entry<String, JsonNode>> it = n.fields();
            boolean first = true;
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!first) sb.append(", ");
                first = false;
                sb.append(':').append(e.getKey()).append(' ');
                jsonToEdn(e.getValue(), sb);
            }
            sb.append('}');
        } else if (n.isNull()) {
            sb.append("nil");
        } else if (n.isTextual()) {
            sb.append(ednString(n.asText()));
        } else {
            sb.append(n.toString());
        }
    }

    /** An EDN value (as read by {@link EdnParser}) as compact JSON text: keywords become strings. */
    static String toJson(Object edn) {
        try {
            return MAPPER.writeValueAsString(plain(edn));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Object plain(Object o) {
        if (o instanceof EdnParser.Keyword) return ((EdnParser.Keyword) o).name();
        if (o instanceof EdnParser.Symbol) return ((EdnParser.Symbol) o).name();
        if (o instanceof List) return ((List<?>) o).stream().map(EdnWriter::plain).toList();
        if (o instanceof Map) {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            ((Map<?, ?>) o).forEach((k, v) -> m.put(String.valueOf(plain(k)), plain(v)));
            return m;
        }
        if (o instanceof java.util.Set) return ((java.util.Set<?>) o).stream().map(EdnWriter::plain).toList();
        return o;
    }
}
