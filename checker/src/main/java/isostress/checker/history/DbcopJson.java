package isostress.checker.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.InputStream;

/**
 * The JSON encodings of dbcop histories (see {@link DbcopReader}): a streaming parse with Jackson's token parser, so
 * that an error names the line of the offending token and a large history costs no tree.
 */
final class DbcopJson {
    private static final JsonFactory FACTORY = JsonlReader.FACTORY;
    private static final String SHAPE = "a dbcop history is {\"data\":[session,...]} or [session,...], a session "
            + "a list of {\"events\":[...],\"success\"|\"committed\":bool}";

    private final JsonParser p;
    private final String source;
    private final DbcopReader.Parsed out;

    /** Parses a dbcop JSON history from {@code in} into {@code out}. */
    static void read(InputStream in, String source, DbcopReader.Parsed out) throws IOException {
        try (JsonParser p = FACTORY.createParser(new StrictUtf8Stream(in, source))) {
            try {
                new DbcopJson(p, source, out).history();
            } catch (JsonProcessingException e) {
                // From skipChildren, which reads tokens itself: syntax or a StreamReadConstraints limit.
                throw JsonlReader.malformed(e, p, source);
            }
        }
    }

    /** The whole history: {"data":[session,...], ...} or [session,...], then nothing. */
    private void history() throws IOException {
        JsonToken t = next();
        if (t == null) throw error("empty input: " + SHAPE);
        if (t == JsonToken.START_OBJECT) {
            boolean data = false;
            while ((t = next()) != JsonToken.END_OBJECT) {
                fieldOrEnd(t);
                String f = p.currentName();
                JsonToken v = next();
                if ("data".equals(f)) {
                    sessions(v);
                    data = true;
                } else {
                    p.skipChildren(); // params, info, start, end: descriptive only
                }
            }
            if (!data) throw error("no \"data\" field: " + SHAPE);
        } else if (t == JsonToken.START_ARRAY) {
            sessions(t);
        } else {
            throw error("expected a JSON object or list, got " + describe() + ": " + SHAPE);
        }
        if (next() != null) throw error("unexpected " + describe() + " after the history");
        if (out.txns == 0) throw EventAssembler.noTransactions(source, line(), 0);
    }

    private DbcopJson(JsonParser p, String source, DbcopReader.Parsed out) {
        this.p = p;
        this.source = source;
        this.out = out;
    }

    JsonToken next() throws IOException {
        try {
            return p.nextToken();
        } catch (JsonProcessingException e) {
            String m = String.valueOf(e.getOriginalMessage());
            if (e instanceof JsonParseException && m.contains("end-of-input")) {
                throw new InputException(source, p.currentLocation().getLineNr(),
                        "truncated JSON: the input ends inside the history", e);
            }
            throw JsonlReader.malformed(e, p, source);
        }
    }

    /** The next token, which must exist (input ending inside a list or object is truncated). */
    JsonToken need() throws IOException {
        JsonToken t = next();
        if (t == null) throw error("truncated JSON: the input ends inside the history");
        return t;
    }

    void fieldOrEnd(JsonToken t) {
        if (t == null) throw error("truncated JSON: the input ends inside an object");
        if (t != JsonToken.FIELD_NAME) throw error("expected a field name, got " + describe());
    }

    int line() {
        return p.currentTokenLocation().getLineNr();
    }

    InputException error(String what) {
        return new InputException(source, line(), what);
    }

    void sessions(JsonToken t) throws IOException {
        if (t != JsonToken.START_ARRAY) throw error("\"data\" must be a list of sessions, got " + describe());
        long session = 0;
        while ((t = need()) != JsonToken.END_ARRAY) {
            if (t != JsonToken.START_ARRAY) {
                throw error("session " + session + ": expected a list of transactions, got " + describe());
            }
            int index = 0;
            while ((t = need()) != JsonToken.END_ARRAY) {
                transaction(t, session, index++);
            }
            session++;
        }
    }

    void transaction(JsonToken t, long session, int index) throws IOException {
        String where = "session " + session + ", transaction " + index;
        if (t != JsonToken.START_OBJECT) {
            throw error(where + ": expected {\"events\":[...],\"success\":bool}, got " + describe());
        }
        int line = line();
        int first = out.ops;
        boolean events = false;
        Boolean committed = null;
        while ((t = need()) != JsonToken.END_OBJECT) {
            fieldOrEnd(t);
            String f = p.currentName();
            JsonToken v = need();
            switch (f) {
                case "events":
                    if (events) throw error(where + ": \"events\" given twice");
                    if (v != JsonToken.START_ARRAY) {
                        throw error(where + ": \"events\" must be a list, got " + describe());
                    }
                    events = true;
                    int e = 0;
                    while ((v = need()) != JsonToken.END_ARRAY) event(v, where + ", event " + e++);
                    break;
                case "success":
                case "committed":
                    if (v != JsonToken.VALUE_TRUE && v != JsonToken.VALUE_FALSE) {
                        throw error(where + ": \"" + f + "\" must be true or false, got " + describe());
                    }
                    committed = v == JsonToken.VALUE_TRUE;
                    break;
                default:
                    p.skipChildren();
            }
        }
        if (!events) throw error(where + ": missing \"events\"");
        if (committed == null) throw error(where + ": missing \"success\" (or \"committed\")");
        out.txn(session, committed ? Outcome.OK : Outcome.FAIL, line, first);
    }

    void event(JsonToken t, String where) throws IOException {
        if (t == JsonToken.START_ARRAY) {
            compactEvent(where);
            return;
        }
        if (t != JsonToken.START_OBJECT) {
            throw error(where + ": expected an event object or [\"r\"|\"w\", variable, version], got "
                    + describe());
        }
        t = need();
        if (t == JsonToken.END_OBJECT) throw error(where + ": empty event object");
        fieldOrEnd(t);
        String f = p.currentName();
        if (f.equals("Read") || f.equals("Write")) {
            taggedEvent(f.equals("Write"), where);
            if (need() != JsonToken.END_OBJECT) {
                throw error(where + ": a tagged event has one field, Read or Write");
            }
            return;
        }
        Boolean write = null, success = null;
        Long variable = null, value = null;
        while (true) {
            JsonToken v = need();
            switch (f) {
                case "write": write = bool(v, where, f); break;
                case "success": success = bool(v, where, f); break;
                case "variable": variable = integer(v, where, f); break;
                case "value": value = integer(v, where, f); break;
                default: p.skipChildren();
            }
            t = need();
            if (t == JsonToken.END_OBJECT) break;
            fieldOrEnd(t);
            f = p.currentName();
        }
        if (write == null || variable == null || value == null) {
            throw error(where + ": an event needs \"write\", \"variable\" and \"value\" (legacy dbcop) or is "
                    + "{\"Read\"|\"Write\":{\"variable\":n,\"version\":n}}");
        }
        if (Boolean.FALSE.equals(success)) return; // never executed: dbcop ignores it
        out.op(write, variable, value, false);
    }

    void taggedEvent(boolean write, String where) throws IOException {
        String tag = write ? "Write" : "Read";
        if (need() != JsonToken.START_OBJECT) {
            throw error(where + ": \"" + tag + "\" must be an object, got " + describe());
        }
        Long variable = null, version = null;
        boolean hasVersion = false;
        JsonToken t;
        while ((t = need()) != JsonToken.END_OBJECT) {
            fieldOrEnd(t);
            String f = p.currentName();
            JsonToken v = need();
            if (f.equals("variable")) {
                variable = integer(v, where, f);
            } else if (f.equals("version")) {
                hasVersion = true;
                version = v == JsonToken.VALUE_NULL && !write ? null : integer(v, where, f);
            } else {
                p.skipChildren();
            }
        }
        if (variable == null || !hasVersion) {
            throw error(where + ": \"" + tag + "\" needs \"variable\" and \"version\"");
        }
        add(write, variable, version);
    }

    void compactEvent(String where) throws IOException {
        if (need() != JsonToken.VALUE_STRING || !(p.getText().equals("r") || p.getText().equals("w"))) {
            throw error(where + ": a compact event is [\"r\"|\"w\", variable, version], got " + describe());
        }
        boolean write = p.getText().equals("w");
        long variable = integer(need(), where, "variable");
        JsonToken v = need();
        Long version = v == JsonToken.VALUE_NULL && !write ? null : integer(v, where, "version");
        if (need() != JsonToken.END_ARRAY) throw error(where + ": a compact event has three elements");
        add(write, variable, version);
    }

    private void add(boolean write, long variable, Long version) {
        if (version == null) out.op(false, variable, 0, true); else out.op(write, variable, version, false);
    }

    boolean bool(JsonToken v, String where, String field) throws IOException {
        if (v != JsonToken.VALUE_TRUE && v != JsonToken.VALUE_FALSE) {
            throw error(where + ": \"" + field + "\" must be true or false, got " + describe());
        }
        return v == JsonToken.VALUE_TRUE;
    }

    long integer(JsonToken v, String where, String field) throws IOException {
        if (v != JsonToken.VALUE_NUMBER_INT) {
            throw error(where + ": \"" + field + "\" must be an integer, got " + describe());
        }
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw error(where + ": \"" + field + "\" " + EdnParser.abbreviate(p.getText())
                    + " does not fit a signed 64-bit integer");
        }
        return p.getLongValue();
    }

    String describe() {
        JsonToken t = p.currentToken();
        if (t == null) return "end of input";
        switch (t) {
            case START_ARRAY: return "a list";
            case START_OBJECT: return "an object";
            case END_ARRAY: return "the end of a list";
            case END_OBJECT: return "the end of an object";
            case VALUE_NULL: return "null";
            default:
                try {
                    String text = EdnParser.abbreviate(p.getText());
                    return t == JsonToken.VALUE_STRING ? "\"" + text + "\"" : text;
                } catch (IOException e) {
                    return t.toString();
                }
        }
    }
}
