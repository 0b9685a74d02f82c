package isostress.generator.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The WHERE clause of a statement, as one spec that renders both the SQL text (with {@code ?} parameters) and the
 * history's {@code where} JSON ({@code docs/sql-history.md}), so the two can never disagree (the paper's artifact
 * kept a hand-written lambda beside each SQL string, and one of them swapped columns: notes-003 §6.5).
 *
 * <p>Only equality on non-null columns and conjunction: the recorder keeps predicates on the immutable columns
 * ({@code id}, {@code grp}) and the {@code deleted} flag, which keeps the checker's conflicts few.
 */
public sealed interface SqlPredicate permits SqlPredicate.Eq, SqlPredicate.And {

    /** SQL text with {@code ?} placeholders, e.g. {@code (grp = ? AND deleted = ?)}. */
    String sql();

    /** The parameters of {@link #sql()}, in order (Long, Integer or Boolean). */
    List<Object> params();

    /** The predicate as the history format's JSON, e.g. {@code {"and":[{"eq":["grp",1]},{"eq":["deleted",false]}]}}. */
    String json();

    /** True when {@code row} (column name to value; null for an absent row) satisfies the predicate. */
    boolean test(Map<String, Object> row);

    /** {@code column = value}. */
    record Eq(String column, Object value) implements SqlPredicate {
        public Eq {
            if (!(value instanceof Long || value instanceof Integer || value instanceof Boolean)) {
                throw new IllegalArgumentException("values are integers or booleans, was " + value);
            }
        }

        public String sql() {
            return column + " = ?";
        }

        public List<Object> params() {
            return List.of(value);
        }

        public String json() {
            return "{\"eq\":[\"" + column + "\"," + value + "]}";
        }

        public boolean test(Map<String, Object> row) {
            if (row == null) return false;
            Object v = row.get(column);
            if (v == null) return false;
            if (v instanceof Boolean || value instanceof Boolean) return v.equals(value);
            return v instanceof Number && ((Number) v).longValue() == ((Number) value).longValue();
        }
    }

    /** Every one of {@code parts}. */
    record And(List<SqlPredicate> parts) implements SqlPredicate {
        public And {
            parts = List.copyOf(parts);
            if (parts.isEmpty()) throw new IllegalArgumentException("an empty conjunction");
        }

        public String sql() {
            StringBuilder b = new StringBuilder("(");
            for (int i = 0; i < parts.size(); i++) b.append(i == 0 ? "" : " AND ").append(parts.get(i).sql());
            return b.append(')').toString();
        }

        public List<Object> params() {
            List<Object> out = new ArrayList<>();
            for (SqlPredicate p : parts) out.addAll(p.params());
            return out;
        }

        public String json() {
            StringBuilder b = new StringBuilder("{\"and\":[");
            for (int i = 0; i < parts.size(); i++) b.append(i == 0 ? "" : ",").append(parts.get(i).json());
            return b.append("]}").toString();
        }

        public boolean test(Map<String, Object> row) {
            if (row == null) return false;
            for (SqlPredicate p : parts) if (!p.test(row)) return false;
            return true;
        }
    }

    static SqlPredicate eq(String column, Object value) {
        return new Eq(column, value);
    }

    static SqlPredicate and(SqlPredicate... parts) {
        return new And(List.of(parts));
    }
}
