package isostress.checker.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads JSON lines in the Jepsen op schema (DESIGN.md): one event per line,
 * {@code {"index":0,"type":"invoke","process":3,"time":1200345,"f":"txn","value":[["r",17,null]]}}.
 *
 * <p>Streams with Jackson's token parser and fills the history's columns directly, so a line costs no objects.
 * An optional first line {@code {"type":"header","real-time":false,"initial-default":0,"initial":[["w",1,5]]}}
 * carries what the Jepsen schema cannot: initial values other than absent, and histories without real-time order.
 * Events whose process is not an integer (the nemesis) or whose {@code f} is not {@code txn} are kept as
 * {@link SideEvent}s.
 */
public final class JsonlReader implements HistoryReader {
    private static final JsonFactory FACTORY = JsonFactory.builder().build();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Override
    public History read(InputStream in, String source) throws IOException {
        EventAssembler asm = new EventAssembler(source);
        OpBuffer ops = new OpBuffer();
        try (JsonParser p = FACTORY.createParser(in)) {
            JsonToken tok;
            while ((tok = nextToken(p, source)) != null) {
                int line = p.currentTokenLocation().getLineNr();
                if (tok != JsonToken.START_OBJECT) {
                    throw new InputException(source, line, "expected a JSON object per line, got " + describe(p));
                }
                try {
                    readEvent(p, line, asm, ops, source);
                } catch (InputException e) {
                    // Input that ends inside an object is reported at the line where the object starts.
                    if (e.getCause() instanceof JsonParseException
                            && String.valueOf(((JsonParseException) e.getCause()).getOriginalMessage())
                                    .contains("end-of-input")) {
                        throw new InputException(source, line, "truncated line: the JSON object that starts here "
                                + "does not end", e.getCause());
                    }
                    throw e;
                }
            }
        }
        return asm.finish();
    }

    private static JsonToken nextToken(JsonParser p, String source) throws IOException {
        try {
            return p.nextToken();
        } catch (JsonParseException e) {
            throw new InputException(source, e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
                    "malformed JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static void readEvent(JsonParser p, int line, EventAssembler asm, OpBuffer ops, String source)
            throws IOException {
        Long index = null;
        String type = null;
        Long process = null;
        String processText = null;
        long time = -1;
        String f = null;
        boolean hasValue = false;
        JsonNode otherValue = null;
        String node = null, isolation = null;
        Long initialDefault = null;
        boolean realTime = true;
        Map<Long, Long> initialValues = null;
        ops.clear();
        JsonToken tok;
        while ((tok = nextToken(p, source)) != JsonToken.END_OBJECT) {
            if (tok == null) throw new InputException(source, line, "truncated JSON object");
            String field = p.currentName();
            JsonToken v = nextToken(p, source);
            if (v == null) throw new InputException(source, line, "truncated JSON object");
            switch (field) {
                case "index": index = longField(p, v, "index", line, source); break;
                case "type": type = textField(p, v, "type", line, source); break;
                case "process":
                    if (v == JsonToken.VALUE_NUMBER_INT) process = p.getLongValue();
                    else if (v == JsonToken.VALUE_STRING) processText = p.getText();
                    else if (v != JsonToken.VALUE_NULL) {
                        throw new InputException(source, line, "\"process\" must be an integer or a string, got "
                                + describe(p));
                    }
                    break;
                case "time": time = longField(p, v, "time", line, source); break;
                case "f": f = textField(p, v, "f", line, source); break;
                case "node": node = v == JsonToken.VALUE_NULL ? null : p.getValueAsString(); break;
                case "isolation": isolation = v == JsonToken.VALUE_NULL ? null : p.getValueAsString(); break;
                case "real-time": realTime = v == JsonToken.VALUE_TRUE; break;
                case "initial-default":
                    initialDefault = v == JsonToken.VALUE_NULL ? null : longField(p, v, "initial-default", line, source);
                    break;
                case "initial": {
                    OpBuffer init = new OpBuffer();
                    readOps(p, v, init, line, source);
                    initialValues = new LinkedHashMap<>();
                    for (int i = 0; i < init.size; i++) {
                        if (init.kind[i] != History.WRITE) {
                            throw new InputException(source, line, "\"initial\" holds writes [\"w\", key, value] only");
                        }
                        initialValues.put(init.key[i], init.value[i]);
                    }
                    break;
                }
                case "value":
                    hasValue = true;
                    if ((f != null && !"txn".equals(f)) || processText != null) {
                        otherValue = MAPPER.readTree(p);
                    } else {
                        readOps(p, v, ops, line, source);
                    }
                    break;
                default:
                    p.skipChildren(); // unknown fields (Jepsen adds :error and others) are kept out of the model
            }
        }
        if (type == null) throw new InputException(source, line, "missing \"type\"");
        if ("header".equals(type)) {
            asm.header(new InitialState(initialDefault, initialValues == null ? Map.of() : initialValues),
                    realTime, line);
            return;
        }
        long idx = asm.index(index, line);
        if (processText != null || (f != null && !"txn".equals(f))) {
            asm.side(new SideEvent(idx, time, processText != null ? processText : String.valueOf(process), type, f,
                    otherValue == null ? null : otherValue.toString()));
            return;
        }
        if (!hasValue) throw new InputException(source, line, "missing \"value\" (the transaction's micro-ops)");
        if ("invoke".equals(type)) {
            asm.invoke(process, idx, time, line, ops);
        } else {
            Outcome outcome = Outcome.fromJepsen(type);
            if (outcome == null) {
                throw new InputException(source, line, "unknown \"type\" \"" + type
                        + "\": expected invoke, ok, fail or info");
            }
            asm.complete(outcome, process, idx, time, line, ops, node, isolation);
        }
    }

    /** Reads {@code [["r",k,v], ["w",k,v], ["append",k,v], ["r",k,[..]], ["cas",k,[e,n]], ...]}. */
    static void readOps(JsonParser p, JsonToken start, OpBuffer ops, int line, String source) throws IOException {
        if (start != JsonToken.START_ARRAY) {
            throw new InputException(source, line, "\"value\" must be a list of micro-ops, got " + describe(p));
        }
        JsonToken tok;
        while ((tok = nextToken(p, source)) != JsonToken.END_ARRAY) {
            if (tok != JsonToken.START_ARRAY) {
                throw new InputException(source, line, "expected a micro-op like [\"r\", key, value], got "
                        + describe(p));
            }
            if (nextToken(p, source) != JsonToken.VALUE_STRING) {
                throw new InputException(source, line, "a micro-op starts with its function (\"r\", \"w\", "
                        + "\"append\" or \"cas\"), got " + describe(p));
            }
            String fn = p.getText();
            if (nextToken(p, source) != JsonToken.VALUE_NUMBER_INT) {
                throw new InputException(source, line, "micro-op \"" + fn + "\": the key must be an integer, got "
                        + describe(p));
            }
            long key = p.getLongValue();
            JsonToken v = nextToken(p, source);
            switch (fn) {
                case "r":
                    if (v == JsonToken.VALUE_NULL) ops.read(key, 0, true);
                    else if (v == JsonToken.VALUE_NUMBER_INT) ops.read(key, p.getLongValue(), false);
                    else if (v == JsonToken.START_ARRAY) {
                        ops.listRead(key, false);
                        JsonToken e;
                        while ((e = nextToken(p, source)) != JsonToken.END_ARRAY) {
                            if (e != JsonToken.VALUE_NUMBER_INT) {
                                throw new InputException(source, line, "list read of key " + key
                                        + ": elements must be integers, got " + describe(p));
                            }
                            ops.listElement(p.getLongValue());
                        }
                    } else {
                        throw new InputException(source, line, "read of key " + key
                                + ": value must be an integer, a list or null, got " + describe(p));
                    }
                    break;
                case "w":
                case "append":
                    if (v != JsonToken.VALUE_NUMBER_INT) {
                        throw new InputException(source, line, "\"" + fn + "\" of key " + key
                                + ": value must be an integer, got " + describe(p));
                    }
                    if (fn.equals("w")) ops.write(key, p.getLongValue()); else ops.append(key, p.getLongValue());
                    break;
                case "cas": {
                    if (v != JsonToken.START_ARRAY) {
                        throw new InputException(source, line, "cas of key " + key
                                + ": value must be [expected, new], got " + describe(p));
                    }
                    JsonToken e = nextToken(p, source);
                    boolean expNull = e == JsonToken.VALUE_NULL;
                    if (!expNull && e != JsonToken.VALUE_NUMBER_INT) {
                        throw new InputException(source, line, "cas of key " + key
                                + ": expected value must be an integer or null, got " + describe(p));
                    }
                    long exp = expNull ? 0 : p.getLongValue();
                    if (nextToken(p, source) != JsonToken.VALUE_NUMBER_INT) {
                        throw new InputException(source, line, "cas of key " + key
                                + ": new value must be an integer, got " + describe(p));
                    }
                    long nv = p.getLongValue();
                    if (nextToken(p, source) != JsonToken.END_ARRAY) {
                        throw new InputException(source, line, "cas of key " + key + ": value must be [expected, new]");
                    }
                    ops.cas(key, exp, expNull, nv);
                    break;
                }
                default:
                    throw new InputException(source, line, "unknown micro-op \"" + fn
                            + "\": expected \"r\", \"w\", \"append\" or \"cas\"");
            }
            if (nextToken(p, source) != JsonToken.END_ARRAY) {
                throw new InputException(source, line, "micro-op \"" + fn + "\" has more than [f, key, value]");
            }
        }
    }

    private static long longField(JsonParser p, JsonToken v, String name, int line, String source) throws IOException {
        if (v != JsonToken.VALUE_NUMBER_INT) {
            throw new InputException(source, line, "\"" + name + "\" must be an integer, got " + describe(p));
        }
        return p.getLongValue();
    }

    private static String textField(JsonParser p, JsonToken v, String name, int line, String source)
            throws IOException {
        if (v != JsonToken.VALUE_STRING) {
            throw new InputException(source, line, "\"" + name + "\" must be a string, got " + describe(p));
        }
        return p.getText();
    }

    private static String describe(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == null) return "end of input";
        switch (t) {
            case START_ARRAY: return "a list";
            case START_OBJECT: return "an object";
            case VALUE_STRING: return "\"" + p.getText() + "\"";
            case VALUE_NULL: return "null";
            default: return p.getText();
        }
    }
}
