package isostress.checker.sql;

import java.util.List;
import java.util.Map;

/**
 * One SQL statement of a transaction (docs/sql-history.md, "Operations"). SELECT, UPDATE and DELETE are read events
 * over every key of their table; INSERT, UPDATE and DELETE are write events (Bouajjani et al., CAV 2025, §2).
 */
public sealed interface SqlOp permits SqlOp.Select, SqlOp.Insert, SqlOp.Update, SqlOp.Delete {

    String table();

    /** The statement's WHERE clause, or null for INSERT (which reads nothing). */
    Predicate where();

    /** The write id of a write statement, or null for SELECT. */
    String writeId();

    /**
     * A returned or matched row: the version (key, writer) it read, and for SELECT and UPDATE a value: for SELECT the
     * columns it returned, for UPDATE the new value it wrote; null for DELETE.
     */
    record ReadRow(String key, String writer, Map<String, Object> value) {}

    /** A row an INSERT (upsert) wrote. */
    record WriteRow(String key, Map<String, Object> value) {}

    record Select(String table, Predicate where, List<ReadRow> rows) implements SqlOp {
        public String writeId() { return null; }
    }

    record Insert(String table, String writeId, List<WriteRow> rows) implements SqlOp {
        public Predicate where() { return null; }
    }

    record Update(String table, Predicate where, String writeId, List<ReadRow> rows) implements SqlOp {}

    record Delete(String table, Predicate where, String writeId, List<ReadRow> rows) implements SqlOp {}

    /** The JSON {@code f} name. */
    default String f() {
        if (this instanceof Select) return "select";
        if (this instanceof Insert) return "insert";
        if (this instanceof Update) return "update";
        return "delete";
    }

    /** SQL-like text for counterexamples, with what the statement returned or wrote. */
    default String render() {
        StringBuilder sb = new StringBuilder();
        if (this instanceof Insert ins) {
            sb.append("INSERT INTO ").append(table()).append(" (").append(writeId()).append(")");
            for (WriteRow r : ins.rows()) sb.append(' ').append(r.key()).append(":=").append(Predicate.row(r.value()));
            return sb.toString();
        }
        List<ReadRow> rows;
        if (this instanceof Select s) {
            sb.append("SELECT * FROM ").append(table());
            rows = s.rows();
        } else if (this instanceof Update u) {
            sb.append("UPDATE ").append(table()).append(" (").append(writeId()).append(")");
            rows = u.rows();
        } else {
            sb.append("DELETE FROM ").append(table()).append(" (").append(writeId()).append(")");
            rows = ((Delete) this).rows();
        }
        sb.append(" WHERE ").append(where().sql()).append(" -> [");
        for (int i = 0; i < rows.size(); i++) {
            ReadRow r = rows.get(i);
            sb.append(i > 0 ? ", " : "").append(r.key()).append(" from ").append(r.writer());
            if (this instanceof Update) sb.append(" := ").append(Predicate.row(r.value()));
        }
        return sb.append(']').toString();
    }
}
