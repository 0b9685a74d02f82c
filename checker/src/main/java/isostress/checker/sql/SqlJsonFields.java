package isostress.checker.sql;

import com.fasterxml.jackson.databind.JsonNode;
import isostress.checker.history.InputException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The typed fields of one {@code isostress-sql} line for {@link SqlHistoryReader}: strings, integers, row values and
 * predicates (docs/sql-history.md). A missing field, a value of the wrong JSON type, an integer beyond 64 bits and a
 * field the format does not have are each an {@link InputException} naming file:line, never skipped or coerced.
 */
final class SqlJsonFields {
    private final String source;

    SqlJsonFields(String source) {
        this.source = source;
    }

    InputException fail(int line, String message) {
        return new InputException(source, line, message);
    }

    /** Rejects fields this format does not have: a misspelt or foreign field is not silently dropped. */
    void known(JsonNode n, Set<String> fields, int line, String what) {
        Iterator<String> it = n.fieldNames();
        while (it.hasNext()) {
            String f = it.next();
            if (!fields.contains(f)) {
                throw fail(line, what + ": unknown field \"" + f + "\" (the fields are " + new TreeSet<>(fields) + ")");
            }
        }
    }

    String text(JsonNode n, String field, int line, String what) {
        JsonNode v = n.get(field);
        if (v == null || !(v.isTextual() || v.isIntegralNumber())) {
            throw fail(line, what + ": expected \"" + field + "\" (a string)");
        }
        return v.asText();
    }

    long integer(JsonNode n, String field, int line) {
        JsonNode v = n.get(field);
        if (v == null || !v.isIntegralNumber()) throw fail(line, "txn: expected \"" + field + "\" (an integer), got " + v);
        if (!v.canConvertToLong()) throw fail(line, "txn: \"" + field + "\" " + v + " does not fit in 64 bits");
        return v.longValue();
    }

    Long optionalInteger(JsonNode n, String field, int line) {
        return n.hasNonNull(field) ? integer(n, field, line) : null;
    }

    /** A row's {@code value}: {column: scalar, ...}, in the order written. */
    Map<String, Object> value(JsonNode v, int line, String key) {
        if (v == null || !v.isObject()) throw fail(line, "row " + key + ": expected \"value\": {column: value, ...}");
        Map<String, Object> out = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = v.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), scalar(e.getValue(), line));
        }
        return Collections.unmodifiableMap(out);
    }

    /** A statement's {@code where}: true or {op: args}, nested through and, or and not. */
    Predicate where(JsonNode o, int line, String what) {
        JsonNode w = o.get("where");
        if (w == null) throw fail(line, what + ": expected \"where\"");
        return predicate(w, line);
    }

    private Predicate predicate(JsonNode p, int line) {
        if (p.isBoolean() && p.booleanValue()) return new Predicate.True();
        if (!p.isObject() || p.size() != 1) throw fail(line, "bad predicate " + p + ": expected true or {op: args}");
        Map.Entry<String, JsonNode> e = p.fields().next();
        String op = e.getKey();
        JsonNode a = e.getValue();
        switch (op) {
            case "and":
            case "or": {
                if (!a.isArray()) throw fail(line, "bad predicate " + p + ": " + op + " takes a list");
                List<Predicate> parts = new ArrayList<>();
                for (JsonNode x : a) parts.add(predicate(x, line));
                return op.equals("and") ? new Predicate.And(List.copyOf(parts)) : new Predicate.Or(List.copyOf(parts));
            }
            case "not":
                return new Predicate.Not(predicate(a, line));
            case "in": {
                if (!a.isArray() || a.size() != 2 || !a.get(0).isTextual() || !a.get(1).isArray()) {
                    throw fail(line, "bad predicate " + p + ": expected {\"in\":[col, [v, ...]]}");
                }
                List<Object> vs = new ArrayList<>();
                for (JsonNode v : a.get(1)) vs.add(scalar(v, line));
                return new Predicate.In(a.get(0).asText(), vs);
            }
            default: {
                Predicate.Op cmp = Predicate.Op.byJson(op);
                if (cmp == null) throw fail(line, "bad predicate " + p + ": unknown operator \"" + op + "\"");
                if (!a.isArray() || a.size() != 2 || !a.get(0).isTextual()) {
                    throw fail(line, "bad predicate " + p + ": expected {\"" + op + "\":[col, value]}");
                }
                return new Predicate.Cmp(cmp, a.get(0).asText(), scalar(a.get(1), line));
            }
        }
    }

    private Object scalar(JsonNode v, int line) {
        if (v.isIntegralNumber() && !v.canConvertToLong()) throw fail(line, "integer " + v + " does not fit in 64 bits");
        if (v.isIntegralNumber()) return v.longValue();
        if (v.isNumber()) return v.doubleValue();
        if (v.isTextual()) return v.textValue();
        if (v.isBoolean()) return v.booleanValue();
        if (v.isNull()) return null;
        throw fail(line, "expected a number, string or boolean, got " + v);
    }
}
