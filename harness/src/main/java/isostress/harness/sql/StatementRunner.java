package isostress.harness.sql;

import isostress.generator.sql.SqlStatement;
import isostress.generator.sql.SqlWorkload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Runs one statement in the connection's open transaction and returns it as a history operation (JSON text, see
 * {@code docs/sql-history.md}): the rows it returned, each with its key, the version it read (writer) and, for
 * reads and writes, the column values.
 */
final class StatementRunner {
    private final AcctDialect dialect;

    StatementRunner(AcctDialect dialect) {
        this.dialect = dialect;
    }

    /** A harness bug, not the database's doing (a write returned a row without its write id): stops the run. */
    static final class RecordingError extends RuntimeException {
        RecordingError(String message) {
            super(message);
        }
    }

    String run(Connection c, SqlStatement s, String w) throws SQLException {
        List<AcctRow> rows = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement(dialect.sql(s))) {
            int i = 1;
            switch (s.kind()) {
                case UPDATE:
                    p.setInt(i++, s.amount());
                    p.setString(i++, w);
                    break;
                case SOFT_DELETE:
                    p.setString(i++, w);
                    break;
                case INSERT:
                    p.setLong(i++, s.id());
                    p.setInt(i++, s.grp());
                    p.setInt(i++, s.amount());
                    p.setString(i++, w);
                    break;
                default:
                    break;
            }
            if (s.where() != null) for (Object v : s.where().params()) p.setObject(i++, v);
            boolean returns = s.kind() == SqlStatement.Kind.SELECT || s.kind() == SqlStatement.Kind.DELETE
                    || dialect.updateReturning();
            if (returns) {
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) rows.add(AcctRow.of(rs));
                }
            } else {
                p.executeUpdate();
                try (PreparedStatement back = c.prepareStatement(dialect.readBackSql())) {
                    back.setString(1, w);
                    try (ResultSet rs = back.executeQuery()) {
                        while (rs.next()) rows.add(AcctRow.of(rs));
                    }
                }
            }
        }
        rows.sort(Comparator.comparingLong(AcctRow::id));
        return json(s, w, rows);
    }

    private static String json(SqlStatement s, String w, List<AcctRow> rows) {
        StringBuilder b = new StringBuilder(128);
        String f = s.kind() == SqlStatement.Kind.SELECT ? "select" : s.kind() == SqlStatement.Kind.INSERT ? "insert"
                : s.kind() == SqlStatement.Kind.DELETE ? "delete" : "update";
        b.append("{\"f\":\"").append(f).append("\",\"table\":\"").append(SqlWorkload.TABLE).append('"');
        if (s.where() != null) b.append(",\"where\":").append(s.where().json());
        if (s.kind().writes()) b.append(",\"w\":\"").append(w).append('"');
        b.append(",\"rows\":[");
        for (int i = 0; i < rows.size(); i++) {
            AcctRow r = rows.get(i);
            b.append(i == 0 ? "" : ",").append("{\"key\":\"").append(r.key()).append('"');
            switch (s.kind()) {
                case SELECT:
                case DELETE:
                    // The row as read: its wid is the version's writer.
                    b.append(",\"writer\":\"").append(r.wid()).append('"');
                    break;
                case UPDATE:
                case SOFT_DELETE:
                    if (!w.equals(r.wid())) throw new RecordingError("update " + w + " returned row " + r.key()
                            + " with write id " + r.wid());
                    b.append(",\"writer\":\"").append(r.prevWid()).append('"');
                    break;
                default:
                    if (!w.equals(r.wid())) throw new RecordingError("insert " + w + " returned row " + r.key()
                            + " with write id " + r.wid());
            }
            if (s.kind() != SqlStatement.Kind.DELETE) b.append(",\"value\":").append(r.valueJson());
            b.append('}');
        }
        return b.append("]}").toString();
    }
}
