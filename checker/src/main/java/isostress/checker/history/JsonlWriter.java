package isostress.checker.history;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Writes the JSON lines schema that {@link JsonlReader} reads, in index order, one event per line. An invocation
 * carries the transaction's ops with read values null, as Jepsen records them.
 *
 * <p>Every token goes through Jackson's streaming {@link JsonGenerator}, as the harness's {@code HistoryRecorder}
 * writes a run's history (one writer, escaping right by construction): node and isolation names,
 * side-event types and string keys are escaped by Jackson, never by hand.
 */
final class JsonlWriter implements HistoryWriter {
    private static final JsonFactory JSON = JsonFactory.builder().build();
    /** A JSON number as the grammar spells it (RFC 8259 §6), so a key or process spelled so stays a number. */
    private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]*)");

    @Override
    public void write(History h, OutputStream out) throws IOException {
        // Closing the generator flushes it but not the caller's stream; no separator between root values: each line
        // ends with the '\n' written after it.
        try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)
                .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET).setRootValueSeparator(null)) {
            if (!h.initial().isAbsent() || !h.realTime()) header(g, h);
            for (int code : EventOrder.of(h)) {
                if (code < 0) sideEvent(g, h.sideEvents().get(-code - 1));
                else txnEvent(g, h, code >> 1, (code & 1) == 1);
                g.writeRaw('\n');
            }
        }
    }

    private static void header(JsonGenerator g, History h) throws IOException {
        g.writeStartObject();
        g.writeStringField("type", "header");
        g.writeBooleanField("real-time", h.realTime());
        if (h.initial().defaultValue() != null) g.writeNumberField("initial-default", h.initial().defaultValue());
        if (!h.initial().values().isEmpty()) {
            g.writeArrayFieldStart("initial");
            for (Map.Entry<Long, Long> e : h.initial().values().entrySet()) {
                g.writeStartArray();
                g.writeString("w");
                g.writeNumber(e.getKey());
                g.writeNumber(e.getValue());
                g.writeEndArray();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
        g.writeRaw('\n');
    }

    private static void sideEvent(JsonGenerator g, SideEvent e) throws IOException {
        g.writeStartObject();
        g.writeNumberField("index", e.index());
        g.writeStringField("type", e.type());
        g.writeFieldName("process");
        if (INTEGER.matcher(e.process()).matches()) g.writeNumber(e.process()); else g.writeString(e.process());
        if (e.time() >= 0) g.writeNumberField("time", e.time());
        if (e.f() != null) g.writeStringField("f", e.f());
        if (e.valueJson() != null) {
            // Already JSON: the reader kept the value's own text, re-encoded by Jackson when it was read.
            g.writeFieldName("value");
            g.writeRawValue(e.valueJson());
        }
        g.writeEndObject();
    }

    private static void txnEvent(JsonGenerator g, History h, int t, boolean completion) throws IOException {
        g.writeStartObject();
        g.writeNumberField("index", completion ? h.completeIndex(t) : h.invokeIndex(t));
        g.writeStringField("type", completion ? h.outcome(t).jepsenName() : "invoke");
        g.writeNumberField("process", h.process(t));
        long time = completion ? h.completeTime(t) : h.invokeTime(t);
        if (time >= 0) g.writeNumberField("time", time);
        if (h.registerOps()) {
            registerOp(g, h, t, completion);
        } else {
            g.writeStringField("f", "txn");
            g.writeArrayFieldStart("value");
            for (int o = h.firstOp(t); o < h.endOp(t); o++) op(g, h, o, completion);
            g.writeEndArray();
        }
        if (completion && h.node(t) != null) g.writeStringField("node", h.node(t));
        if (completion && h.isolation(t) != null) g.writeStringField("isolation", h.isolation(t));
        g.writeEndObject();
    }

    /** {@code ["r",k,v]}, {@code ["w",k,v]}, {@code ["append",k,v]}, {@code ["r",k,[..]]}, {@code ["cas",k,[e,n]]}. */
    private static void op(JsonGenerator g, History h, int o, boolean completion) throws IOException {
        g.writeStartArray();
        switch (h.opKind(o)) {
            case History.READ -> {
                fn(g, "r", h, o);
                readValue(g, h, o, completion);
            }
            case History.LIST_READ -> {
                fn(g, "r", h, o);
                long[] vs = completion ? h.listValues(o) : null;
                if (vs == null) {
                    g.writeNull();
                } else {
                    g.writeArray(vs, 0, vs.length);
                }
            }
            case History.WRITE -> {
                fn(g, "w", h, o);
                g.writeNumber(h.opValue(o));
            }
            case History.APPEND -> {
                fn(g, "append", h, o);
                g.writeNumber(h.opValue(o));
            }
            case History.CAS -> {
                fn(g, "cas", h, o);
                cas(g, h, o);
            }
            default -> throw new IllegalStateException("op kind " + h.opKind(o));
        }
        g.writeEndArray();
    }

    /**
     * {@code "f":"read","value":3} for a {@link History#registerOps()} history's transaction: Knossos's form, or
     * jepsen.independent's {@code [key v]} tuple. Reads carry no value in an invocation.
     */
    private static void registerOp(JsonGenerator g, History h, int t, boolean completion) throws IOException {
        int o = h.firstOp(t);
        int kind = h.opKind(o);
        g.writeStringField("f", kind == History.READ ? "read" : kind == History.WRITE ? "write" : "cas");
        g.writeFieldName("value");
        if (h.independentRegisters()) {
            g.writeStartArray();
            key(g, h.keyName(h.opKey(o)));
        }
        if (kind == History.READ) readValue(g, h, o, completion);
        else if (kind == History.WRITE) g.writeNumber(h.opValue(o));
        else cas(g, h, o);
        if (h.independentRegisters()) g.writeEndArray();
    }

    private static void fn(JsonGenerator g, String name, History h, int o) throws IOException {
        g.writeString(name);
        key(g, h.keyName(h.opKey(o)));
    }

    private static void readValue(JsonGenerator g, History h, int o, boolean completion) throws IOException {
        if (!completion || h.opValueNull(o)) g.writeNull(); else g.writeNumber(h.opValue(o));
    }

    /** {@code [expected, new]}. */
    private static void cas(JsonGenerator g, History h, int o) throws IOException {
        g.writeStartArray();
        if (h.opValueNull(o)) g.writeNull(); else g.writeNumber(h.opValue(o));
        g.writeNumber(h.casNew(o));
        g.writeEndArray();
    }

    /**
     * A key as the input spelled it ({@link History#keyName}: EDN's spelling for non-integer keys): numbers and
     * booleans as themselves, a string as that string, and whatever JSON has no token for (an EDN keyword
     * {@code :x}, a character {@code \c}, a symbol) as the string of its spelling, so {@code :x} reads back as one
     * consistent key.
     */
    static void key(JsonGenerator g, String spelling) throws IOException {
        int n = spelling.length();
        if (NUMBER.matcher(spelling).matches()) g.writeNumber(spelling);
        else if (spelling.equals("true") || spelling.equals("false")) g.writeBoolean(spelling.equals("true"));
        else if (n >= 2 && spelling.charAt(0) == '"' && spelling.charAt(n - 1) == '"') {
            g.writeString(spelling.substring(1, n - 1));
        } else {
            g.writeString(spelling);
        }
    }
}
