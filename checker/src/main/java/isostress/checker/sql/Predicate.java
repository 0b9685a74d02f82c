package isostress.checker.sql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A WHERE clause over one row version (docs/sql-history.md, "Predicates"). The paper (Bouajjani, Enea, Román-Calvo,
 * CAV 2025, §2) only needs {@code p : Rows → {0,1}}; this closed set is what the recorder emits, so the checker can
 * re-evaluate it on every candidate version and render it SQL-like in counterexamples.
 *
 * <p>An absent row ({@code null}: the paper's † or ⊥) satisfies no predicate, not even {@code true}: a query never
 * returns a row that does not exist.
 */
public sealed interface Predicate permits Predicate.True, Predicate.Cmp, Predicate.In, Predicate.And, Predicate.Or,
        Predicate.Not {

    /** True when {@code row} (null = absent) satisfies this predicate. */
    default boolean test(Map<String, Object> row) {
        return row != null && holds(row);
    }

    /** Evaluation on an existing row. */
    boolean holds(Map<String, Object> row);

    /** SQL-like text, e.g. {@code grp = 2 AND NOT deleted}. */
    String sql();

    /** The JSON form of docs/sql-history.md, as plain maps and lists for Jackson. */
    Object toJson();

    /** {@code true}: every existing row. */
    record True() implements Predicate {
        public boolean holds(Map<String, Object> row) { return true; }
        public String sql() { return "TRUE"; }
        public Object toJson() { return Boolean.TRUE; }
    }

    /** The comparison operators; strings compare lexicographically, booleans only by EQ/NE. */
    enum Op {
        EQ("eq", "="), NE("ne", "<>"), LT("lt", "<"), LE("le", "<="), GT("gt", ">"), GE("ge", ">=");

        final String json;
        final String sql;

        Op(String json, String sql) {
            this.json = json;
            this.sql = sql;
        }

        static Op byJson(String name) {
            for (Op o : values()) if (o.json.equals(name)) return o;
            return null;
        }
    }

    /** {@code col op value}. A missing column or a comparison across types is false (docs/sql-history.md). */
    record Cmp(Op op, String column, Object value) implements Predicate {
        public boolean holds(Map<String, Object> row) {
            Object v = row.get(column);
            if (v == null || value == null) return false;
            Integer c = compare(v, value);
            if (c == null) return false;
            switch (op) {
                case EQ: return c == 0;
                case NE: return c != 0;
                case LT: return c < 0;
                case LE: return c <= 0;
                case GT: return c > 0;
                default: return c >= 0;
            }
        }

        /** Why not Comparable: numbers of different boxed types must compare numerically, booleans not by order. */
        private Integer compare(Object a, Object b) {
            if (a instanceof Number x && b instanceof Number y) {
                if (isIntegral(x) && isIntegral(y)) return Long.compare(x.longValue(), y.longValue());
                return Double.compare(x.doubleValue(), y.doubleValue());
            }
            if (a instanceof String x && b instanceof String y) return Integer.signum(x.compareTo(y));
            if (a instanceof Boolean x && b instanceof Boolean y) {
                if (op != Op.EQ && op != Op.NE) return null;
                return x.equals(y) ? 0 : 1;
            }
            return null;
        }

        private static boolean isIntegral(Number n) {
            return n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte;
        }

        public String sql() {
            if (value instanceof Boolean b && (op == Op.EQ || op == Op.NE)) {
                return (b == (op == Op.EQ)) ? column : "NOT " + column;
            }
            return column + " " + op.sql + " " + literal(value);
        }

        public Object toJson() {
            return Map.of(op.json, List.of(column, value));
        }
    }

    /** {@code col IN (v, ...)}: true when some value compares equal. */
    record In(String column, List<Object> values) implements Predicate {
        public boolean holds(Map<String, Object> row) {
            for (Object v : values) if (new Cmp(Op.EQ, column, v).holds(row)) return true;
            return false;
        }

        public String sql() {
            StringBuilder sb = new StringBuilder(column).append(" IN (");
            for (int i = 0; i < values.size(); i++) sb.append(i > 0 ? ", " : "").append(literal(values.get(i)));
            return sb.append(')').toString();
        }

        public Object toJson() {
            return Map.of("in", List.of(column, values));
        }
    }

    record And(List<Predicate> parts) implements Predicate {
        public boolean holds(Map<String, Object> row) {
            for (Predicate p : parts) if (!p.holds(row)) return false;
            return true;
        }

        public String sql() { return join(parts, " AND "); }

        public Object toJson() { return Map.of("and", jsonList(parts)); }
    }

    record Or(List<Predicate> parts) implements Predicate {
        public boolean holds(Map<String, Object> row) {
            for (Predicate p : parts) if (p.holds(row)) return true;
            return false;
        }

        public String sql() { return join(parts, " OR "); }

        public Object toJson() { return Map.of("or", jsonList(parts)); }
    }

    record Not(Predicate inner) implements Predicate {
        public boolean holds(Map<String, Object> row) { return !inner.holds(row); }

        public String sql() {
            String s = inner.sql();
            return "NOT " + (inner instanceof Cmp || inner instanceof True ? s : "(" + s + ")");
        }

        public Object toJson() { return Map.of("not", inner.toJson()); }
    }

    private static String join(List<Predicate> parts, String sep) {
        if (parts.isEmpty()) return sep.contains("AND") ? "TRUE" : "FALSE";
        StringBuilder sb = new StringBuilder();
        for (Predicate p : parts) {
            if (sb.length() > 0) sb.append(sep);
            boolean paren = p instanceof And || p instanceof Or;
            sb.append(paren ? "(" : "").append(p.sql()).append(paren ? ")" : "");
        }
        return sb.toString();
    }

    private static List<Object> jsonList(List<Predicate> parts) {
        List<Object> out = new ArrayList<>();
        for (Predicate p : parts) out.add(p.toJson());
        return out;
    }

    /** A value as an SQL literal: strings quoted, numbers and booleans as is. */
    static String literal(Object v) {
        if (v instanceof String s) return "'" + s.replace("'", "''") + "'";
        return String.valueOf(v);
    }

    /** A row version rendered for messages: {@code {grp=1, bal=5}} or {@code (absent)}. */
    static String row(Map<String, Object> value) {
        if (value == null) return "(absent)";
        Map<String, Object> m = new LinkedHashMap<>(value);
        return m.toString();
    }
}
