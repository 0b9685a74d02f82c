package isostress.generator.sql;

import isostress.checker.sql.Predicate;
import isostress.checker.sql.SqlHistoryWriter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The WHERE clause of a statement, as one spec that renders both the SQL text (with {@code ?} parameters) and the
 * history's {@code where} JSON ({@code docs/sql-history.md}), so the two can never disagree (the paper's artifact
 * kept a hand-written lambda beside each SQL string, and one of them swapped columns).
 *
 * <p>Only equality on non-null columns and conjunction: the recorder keeps predicates on the immutable columns
 * ({@code id}, {@code grp}) and the {@code deleted} flag, which keeps the checker's conflicts few.
 */
public sealed interface SqlPredicate permits SqlPredicate.Eq, SqlPredicate.And {

    /** SQL text with {@code ?} placeholders, e.g. {@code (grp = ? AND deleted = ?)}. */
    String sql();

    /** The parameters of {@link #sql()}, in order (Long, Integer or Boolean). */
    List<Object> params();

    /** The predicate as the checker's model: what the history records and the checker evaluates. */
    Predicate predicate();

    /** The predicate as the history format's JSON, e.g. {@code {"and":[{"eq":["grp",1]},{"eq":["deleted",false]}]}}. */
    default String json() {
        return SqlHistoryWriter.json(predicate());
    }

    /** True when {@code row} (column name to value; null for an absent row) satisfies the predicate. */
    default boolean test(Map<String, Object> row) {
        return row != null && predicate().holds(row);
    }

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

        public Predicate predicate() {
            return new Predicate.Cmp(Predicate.Op.EQ, column, value);
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

        public Predicate predicate() {
            List<Predicate> ps = new ArrayList<>();
            for (SqlPredicate p : parts) ps.add(p.predicate());
            return new Predicate.And(ps);
        }
    }

    static SqlPredicate eq(String column, Object value) {
        return new Eq(column, value);
    }

    static SqlPredicate and(SqlPredicate... parts) {
        return new And(List.of(parts));
    }
}
