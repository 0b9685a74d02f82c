package isostress.checker.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
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
 * Events of the {@code "nemesis"} process (faults) are kept as {@link SideEvent}s and not checked. Any other event
 * must be a client transaction ({@code "f":"txn"} or no {@code f}, an integer or no {@code process}) or, in a
 * history of them only, a single-register op ({@code "f":"read"}, {@code "write"}, {@code "cas"}: {@link RegisterOp});
 * any other {@code f} is refused with a sentence, never skipped, since skipping it would check an empty or partial
 * history and call it valid. Keys may be integers, strings, booleans or floats ({@link KeyDictionary}). Every field
 * is type-checked; unknown fields (Jepsen adds {@code error} and others) are skipped.
 */
public final class JsonlReader implements HistoryReader {
    /** Jackson's byte parser; a repeated field is an error, not a silent overwrite. */
    static final JsonFactory FACTORY = JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    private static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);

    /**
     * Reads blocks of lines parsed on a second thread ({@link JsonlChunks}); a line that parser does not accept goes
     * through Jackson here, in order, and an object that spans lines makes Jackson read the rest of the input.
     */
    @Override
    public History read(InputStream in, String source) throws IOException {
        EventAssembler asm = new EventAssembler(source);
        OpBuffer ops = new OpBuffer();
        try (JsonlChunks chunks = new JsonlChunks(in, source)) {
            while (true) {
                JsonlChunk c = chunks.next();
                if (c.error != null) throw JsonlChunks.rethrow(c.error);
                for (int e = 0; e < c.events; e++) {
                    int done;
                    if (c.type[e] != JsonlChunk.JACKSON) {
                        replay(c, e, asm, ops);
                    } else if ((done = jacksonLine(c, e, asm, ops, source)) >= 0) {
                        int from = c.from[e] + done;
                        InputStream rest = new StrictUtf8Stream(chunks.rest(c, from), source, c.line[e],
                                c.firstOffset + from);
                        try (JsonParser p = FACTORY.createParser(rest)) {
                            return asm.finish(objects(p, asm, ops, source, c.line[e], false));
                        }
                    }
                }
                if (c.last) {
                    int lines = c.firstLine;
                    for (int i = 0; i < c.len; i++) if (c.buf[i] == '\n') lines++;
                    return asm.finish(lines);
                }
            }
        }
    }

    /** Reads with Jackson alone, as before {@link JsonlChunk}: the reference its tests compare with. */
    static History readWithJackson(InputStream in, String source) throws IOException {
        EventAssembler asm = new EventAssembler(source);
        try (JsonParser p = FACTORY.createParser(new StrictUtf8Stream(in, source))) {
            return asm.finish(objects(p, asm, new OpBuffer(), source, 1, new long[1]));
        }
    }

    /** Adds the event parsed by {@link JsonlChunk}: the same calls {@link #readEvent} makes for its line. */
    private static void replay(JsonlChunk c, int e, EventAssembler asm, OpBuffer ops) {
        int line = c.line[e];
        ops.clear();
        int o = e == 0 ? 0 : c.opEnd[e - 1];
        for (; o < c.opEnd[e]; o++) {
            long key = asm.keys.id(c.opKey[o], line);
            switch (c.opKind[o]) {
                case History.READ: ops.read(key, c.opValue[o], c.opNull[o]); break;
                case History.WRITE: ops.write(key, c.opValue[o]); break;
                case History.APPEND: ops.append(key, c.opValue[o]); break;
                case History.CAS: ops.cas(key, c.opValue[o], c.opNull[o], c.opValue2[o]); break;
                default:
                    ops.listRead(key, false);
                    for (int i = o == 0 ? 0 : c.elemEnd[o - 1]; i < c.elemEnd[o]; i++) ops.listElement(c.elem[i]);
            }
        }
        long idx = asm.index(c.hasIndex[e] ? c.index[e] : null, line);
        asm.shape("txn", line);
        if (c.type[e] == JsonlChunk.INVOKE) {
            asm.invoke(c.process[e], idx, c.time[e], line, ops);
        } else {
            asm.complete(JsonlChunk.outcome(c.type[e]), c.process[e], idx, c.time[e], line, ops, c.node[e],
                    c.isolation[e]);
        }
    }

    /**
     * Reads event {@code e}'s line with Jackson; returns -1. When the line is not whole JSON on its own (an object
     * that continues on the next line, or a carriage return Jackson counts as a line break), returns how many of its
     * bytes were read: the caller then gives Jackson the rest of the input from there.
     */
    private static int jacksonLine(JsonlChunk c, int e, EventAssembler asm, OpBuffer ops, String source)
            throws IOException {
        int a = c.from[e], b = c.to[e];
        for (int i = a; i < b - 1; i++) if (c.buf[i] == '\r') return 0;
        InputStream line = new StrictUtf8Stream(new java.io.ByteArrayInputStream(c.buf, a, b - a), source,
                c.line[e], c.firstOffset + a);
        try (JsonParser p = FACTORY.createParser(line)) {
            objects(p, asm, ops, source, c.line[e], !c.last || b < c.len);
            return -1;
        } catch (LineContinues x) {
            return x.done;
        }
    }

    /** Jackson reached the end of a line inside an object, and more lines follow. */
    private static final class LineContinues extends IOException {
        /** Bytes of the line already read as whole objects: Jackson goes on after them. */
        final int done;

        LineContinues(long done) {
            super(null, null);
            this.done = (int) done;
        }
    }

    /**
     * Reads every object of {@code p}, whose first line is the input's line {@code base}; returns the last line.
     *
     * @param moreFollows when true, an object the input ends inside raises {@link LineContinues}
     */
    private static int objects(JsonParser p, EventAssembler asm, OpBuffer ops, String source, int base,
                               boolean moreFollows) throws IOException {
        long[] done = {0};
        try {
            return objects(p, asm, ops, source, base, done);
        } catch (InputException e) {
            // Where the line ends inside an object or a token, what Jackson says depends on the lines after it.
            if (moreFollows && (endOfInput(e.getCause()) || e.getCause() == null
                    && (e.getMessage().contains("truncated") || e.getMessage().contains("end of input")))) {
                throw new LineContinues(done[0]);
            }
            throw e;
        }
    }

    private static boolean endOfInput(Throwable t) {
        return t instanceof JsonProcessingException
                && String.valueOf(((JsonProcessingException) t).getOriginalMessage()).contains("end-of-input");
    }

    private static int objects(JsonParser p, EventAssembler asm, OpBuffer ops, String source, int base, long[] done)
            throws IOException {
        int shift = base - 1;
        try {
            JsonToken tok;
            int line = base;
            while ((tok = nextToken(p, source, shift)) != null) {
                line = p.currentTokenLocation().getLineNr() + shift;
                if (tok != JsonToken.START_OBJECT) {
                    throw new InputException(source, line, "expected a JSON object per line, got " + describe(p));
                }
                try {
                    readEvent(p, line, shift, asm, ops, source);
                    done[0] = p.currentLocation().getByteOffset();
                } catch (InputException e) {
                    // Input that ends inside an object is reported at the line where the object starts.
                    if (e.getCause() instanceof JsonParseException && endOfInput(e.getCause())) {
                        throw new InputException(source, line, "truncated line: the JSON object that starts here "
                                + "does not end", e.getCause());
                    }
                    throw e;
                } catch (JsonProcessingException e) {
                    throw malformed(e, p, source, shift);
                }
            }
            return Math.max(line, p.currentLocation().getLineNr() + shift);
        } catch (JsonProcessingException e) {
            // Jackson parses a string's text lazily, so describing a bad token can fail too.
            throw malformed(e, p, source, shift);
        }
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

    /**
     * A Jackson error (syntax, or a limit of its {@code StreamReadConstraints} such as nesting depth) as one sentence
     * naming the line.
     */
    static InputException malformed(JsonProcessingException e, JsonParser p, String source) {
        return malformed(e, p, source, 0);
    }

    private static InputException malformed(JsonProcessingException e, JsonParser p, String source, int shift) {
        int line = shift + (e.getLocation() != null ? e.getLocation().getLineNr() : p.currentLocation().getLineNr());
        String message = String.valueOf(e.getOriginalMessage());
        if (shift != 0) { // Jackson names the lines of the part it was given
            message = java.util.regex.Pattern.compile("line: (\\d+)").matcher(message)
                    .replaceAll(m -> "line: " + (Long.parseLong(m.group(1)) + shift));
        }
        return new InputException(source, line, "malformed JSON: " + message, e);
    }

    private static void readEvent(JsonParser p, int line, int shift, EventAssembler asm, OpBuffer ops, String source)
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

    private static String describe(JsonParser p) throws IOException {
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
