package isostress.checker.history;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One JSONL event read with Jackson's token parser (the schema is described at {@link JsonlReader}): every field
 * type-checked, each error one sentence naming the line. {@link JsonlReader} sends here the lines its own parser
 * ({@link JsonlChunk}) does not take.
 */
final class JsonlEvents {
    private static final ObjectMapper MAPPER = new ObjectMapper(JsonlReader.FACTORY);

    private JsonlEvents() {
    }

    static JsonToken nextToken(JsonParser p, String source) throws IOException {
        return nextToken(p, source, 0);
    }

    /** The next token; {@code shift} is added to Jackson's line numbers (a parser started inside the input). */
    static JsonToken nextToken(JsonParser p, String source, int shift) throws IOException {
        try {
            return p.nextToken();
        } catch (JsonProcessingException e) {
            throw malformed(e, p, source, shift);
        }
    }

    /** A Jackson error as one sentence naming the line; {@code shift} is added to Jackson's line numbers. */
    static InputException malformed(JsonProcessingException e, JsonParser p, String source, int shift) {
        int line = shift + (e.getLocation() != null ? e.getLocation().getLineNr() : p.currentLocation().getLineNr());
        String message = String.valueOf(e.getOriginalMessage());
        if (shift != 0) { // Jackson names the lines of the part it was given
            message = java.util.regex.Pattern.compile("line: (\\d+)").matcher(message)
                    .replaceAll(m -> "line: " + (Long.parseLong(m.group(1)) + shift));
        }
        return new InputException(source, line, "malformed JSON: " + message, e);
    }

    static void readEvent(JsonParser p, int line, int shift, EventAssembler asm, OpBuffer ops, String source)
            throws IOException {
        Long index = null;
        String type = null;
        Long process = null;
        boolean nemesis = false, processSeen = false;
        long time = -1;
        String f = null;
        boolean hasValue = false;
        JsonNode deferredValue = null; // a value seen before "f" and "process" said what it is
        String node = null, isolation = null;
        Long initialDefault = null;
        boolean realTime = true;
        Map<Long, Long> initialValues = null;
        ops.clear();
        JsonToken tok;
        while ((tok = nextToken(p, source, shift)) != JsonToken.END_OBJECT) {
            if (tok == null) throw new InputException(source, line, "truncated JSON object");
            String field = p.currentName();
            JsonToken v = nextToken(p, source, shift);
            if (v == null) throw new InputException(source, line, "truncated JSON object");
            switch (field) {
                case "index": index = longField(p, v, "index", line, source); break;
                case "type": type = textField(p, v, "type", line, source); break;
                case "process":
                    processSeen = true;
                    if (v == JsonToken.VALUE_NUMBER_INT) {
                        process = int64(p, "process", line, source);
                    } else if (v == JsonToken.VALUE_STRING && p.getText().equals("nemesis")) {
                        nemesis = true;
                    } else if (v != JsonToken.VALUE_NULL) {
                        throw new InputException(source, line, "\"process\" must be an integer (a client) or "
                                + "\"nemesis\", got " + describe(p));
                    }
                    break;
                case "time": time = longField(p, v, "time", line, source); break;
                case "f": f = textField(p, v, "f", line, source); break;
                case "node": node = optionalText(p, v, "node", line, source); break;
                case "isolation": isolation = optionalText(p, v, "isolation", line, source); break;
                case "real-time":
                    if (v != JsonToken.VALUE_TRUE && v != JsonToken.VALUE_FALSE) {
                        throw new InputException(source, line, "\"real-time\" must be true or false, got "
                                + describe(p));
                    }
                    realTime = v == JsonToken.VALUE_TRUE;
                    break;
                case "initial-default":
                    initialDefault = v == JsonToken.VALUE_NULL ? null : longField(p, v, "initial-default", line, source);
                    break;
                case "initial": {
                    OpBuffer init = new OpBuffer();
                    readOps(p, v, init, asm.keys, line, shift, source);
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
                    if (processSeen && !nemesis && (f == null || "txn".equals(f))) {
                        readOps(p, v, ops, asm.keys, line, shift, source); // a client transaction's: streamed (the writer's order)
                    } else {
                        deferredValue = MAPPER.readTree(p); // not yet known to be a transaction's
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
        if (nemesis) {
            // Faults and other nemesis events are not client transactions: kept for writing back, not checked.
            asm.side(new SideEvent(idx, time, "nemesis", type, f,
                    deferredValue == null || deferredValue.isNull() ? null : deferredValue.toString()));
            return;
        }
        if (RegisterOp.isRegisterFunction(f)) {
            if (hasValue && deferredValue == null) {
                throw new InputException(source, line, "\"f\":\"" + f + "\" must come before \"value\" "
                        + "(the value was read as a transaction's micro-ops)");
            }
            asm.shape(RegisterOp.read(f, plain(deferredValue, line, source), asm.keys, ops, line, source), line);
        } else if (f != null && !"txn".equals(f)) {
            throw new InputException(source, line, "operation \"f\":\"" + EdnParser.abbreviate(f) + "\" is neither a "
                    + "transaction (\"f\":\"txn\") nor a register op (\"read\", \"write\" or \"cas\")");
        } else {
            if (!hasValue) throw new InputException(source, line, "missing \"value\" (the transaction's micro-ops)");
            asm.shape("txn", line);
            if (deferredValue != null) {
                try (JsonParser tree = deferredValue.traverse()) {
                    readOps(tree, tree.nextToken(), ops, asm.keys, line, 0, source);
                }
            }
        }
        if ("invoke".equals(type)) {
            asm.invoke(process, idx, time, line, ops);
        } else {
            Outcome outcome = Outcome.fromJepsen(type);
            if (outcome == null) {
                throw new InputException(source, line, "unknown \"type\" \"" + EdnParser.abbreviate(type)
                        + "\": expected invoke, ok, fail or info");
            }
            asm.complete(outcome, process, idx, time, line, ops, node, isolation);
        }
    }

    /** Reads {@code [["r",k,v], ["w",k,v], ["append",k,v], ["r",k,[..]], ["cas",k,[e,n]], ...]}. */
    static void readOps(JsonParser p, JsonToken start, OpBuffer ops, KeyDictionary keys, int line, int shift,
                        String source)
            throws IOException {
        if (start != JsonToken.START_ARRAY) {
            throw new InputException(source, line, "\"value\" must be a list of micro-ops, got " + describe(p));
        }
        JsonToken tok;
        while ((tok = nextToken(p, source, shift)) != JsonToken.END_ARRAY) {
            if (tok != JsonToken.START_ARRAY) {
                throw new InputException(source, line, "expected a micro-op like [\"r\", key, value], got "
                        + describe(p));
            }
            if (nextToken(p, source, shift) != JsonToken.VALUE_STRING) {
                throw new InputException(source, line, "a micro-op starts with its function (\"r\", \"w\", "
                        + "\"append\" or \"cas\"), got " + describe(p));
            }
            String fn = p.getText();
            JsonToken k = nextToken(p, source, shift);
            long key;
            if (k == JsonToken.VALUE_NUMBER_INT) key = keys.id(int64(p, "key", line, source), line);
            else if (k == JsonToken.VALUE_STRING) key = keys.id(p.getText(), line);
            else if (k == JsonToken.VALUE_TRUE || k == JsonToken.VALUE_FALSE) key = keys.id(k == JsonToken.VALUE_TRUE, line);
            else if (k == JsonToken.VALUE_NUMBER_FLOAT) key = keys.id(p.getDoubleValue(), line);
            else {
                throw new InputException(source, line, "micro-op \"" + fn + "\": the key must be a scalar (integer, "
                        + "string, boolean or float), got " + describe(p));
            }
            JsonToken v = nextToken(p, source, shift);
            switch (fn) {
                case "r":
                    if (v == JsonToken.VALUE_NULL) ops.read(key, 0, true);
                    else if (v == JsonToken.VALUE_NUMBER_INT) ops.read(key, int64(p, "value", line, source), false);
                    else if (v == JsonToken.START_ARRAY) {
                        ops.listRead(key, false);
                        JsonToken e;
                        while ((e = nextToken(p, source, shift)) != JsonToken.END_ARRAY) {
                            if (e != JsonToken.VALUE_NUMBER_INT) {
                                throw new InputException(source, line, "list read of key " + keys.name(key)
                                        + ": elements must be integers, got " + describe(p));
                            }
                            ops.listElement(int64(p, "element", line, source));
                        }
                    } else {
                        throw new InputException(source, line, "read of key " + keys.name(key)
                                + ": value must be an integer, a list or null, got " + describe(p));
                    }
                    break;
                case "w":
                case "append":
                    if (v != JsonToken.VALUE_NUMBER_INT) {
                        throw new InputException(source, line, "\"" + fn + "\" of key " + keys.name(key)
                                + ": value must be an integer, got " + describe(p));
                    }
                    long value = int64(p, "value", line, source);
                    if (fn.equals("w")) ops.write(key, value); else ops.append(key, value);
                    break;
                case "cas": {
                    if (v != JsonToken.START_ARRAY) {
                        throw new InputException(source, line, "cas of key " + keys.name(key)
                                + ": value must be [expected, new], got " + describe(p));
                    }
                    JsonToken e = nextToken(p, source, shift);
                    boolean expNull = e == JsonToken.VALUE_NULL;
                    if (!expNull && e != JsonToken.VALUE_NUMBER_INT) {
                        throw new InputException(source, line, "cas of key " + keys.name(key)
                                + ": expected value must be an integer or null, got " + describe(p));
                    }
                    long exp = expNull ? 0 : int64(p, "expected value", line, source);
                    if (nextToken(p, source, shift) != JsonToken.VALUE_NUMBER_INT) {
                        throw new InputException(source, line, "cas of key " + keys.name(key)
                                + ": new value must be an integer, got " + describe(p));
                    }
                    long nv = int64(p, "new value", line, source);
                    if (nextToken(p, source, shift) != JsonToken.END_ARRAY) {
                        throw new InputException(source, line, "cas of key " + keys.name(key) + ": value must be [expected, new]");
                    }
                    ops.cas(key, exp, expNull, nv);
                    break;
                }
                default:
                    throw new InputException(source, line, "unknown micro-op \"" + EdnParser.abbreviate(fn)
                            + "\": expected \"r\", \"w\", \"append\" or \"cas\"");
            }
            if (nextToken(p, source, shift) != JsonToken.END_ARRAY) {
                throw new InputException(source, line, "micro-op \"" + fn + "\" has more than [f, key, value]");
            }
        }
    }

    /** A register op's JSON value as the plain objects {@link RegisterOp} reads (Long, Double, String, List...). */
    private static Object plain(JsonNode n, int line, String source) {
        if (n == null || n.isNull()) return null;
        if (n.isIntegralNumber()) {
            if (!n.canConvertToLong()) {
                throw new InputException(source, line, "\"value\" " + EdnParser.abbreviate(n.asText())
                        + " does not fit in 64 bits");
            }
            return n.longValue();
        }
        if (n.isNumber()) return n.doubleValue();
        if (n.isTextual()) return n.textValue();
        if (n.isBoolean()) return n.booleanValue();
        if (n.isArray()) {
            java.util.List<Object> l = new java.util.ArrayList<>();
            for (JsonNode e : n) l.add(plain(e, line, source));
            return l;
        }
        throw new InputException(source, line, "a register op's \"value\" must be a value, [old, new] or "
                + "[key, value], got an object");
    }

    private static long longField(JsonParser p, JsonToken v, String name, int line, String source) throws IOException {
        if (v != JsonToken.VALUE_NUMBER_INT) {
            throw new InputException(source, line, "\"" + name + "\" must be an integer, got " + describe(p));
        }
        return int64(p, name, line, source);
    }

    /** The current integer token as a long; one beyond 64 bits is an error, not a Jackson exception. */
    static long int64(JsonParser p, String name, int line, String source) throws IOException {
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw new InputException(source, line, "\"" + name + "\" " + EdnParser.abbreviate(p.getText())
                    + " does not fit in 64 bits");
        }
        return p.getLongValue();
    }

    private static String optionalText(JsonParser p, JsonToken v, String name, int line, String source)
            throws IOException {
        return v == JsonToken.VALUE_NULL ? null : textField(p, v, name, line, source);
    }

    private static String textField(JsonParser p, JsonToken v, String name, int line, String source)
            throws IOException {
        if (v != JsonToken.VALUE_STRING) {
            throw new InputException(source, line, "\"" + name + "\" must be a string, got " + describe(p));
        }
        return p.getText();
    }

    static String describe(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == null) return "end of input";
        switch (t) {
            case START_ARRAY: return "a list";
            case START_OBJECT: return "an object";
            case VALUE_STRING: return "\"" + EdnParser.abbreviate(p.getText()) + "\"";
            case VALUE_NULL: return "null";
            default: return EdnParser.abbreviate(p.getText());
        }
    }
}
