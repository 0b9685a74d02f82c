package isostress.harness.sql;

import isostress.checker.sql.Predicate;
import isostress.checker.sql.SqlOp;
import isostress.generator.sql.SqlStatement;
import isostress.generator.sql.SqlWorkload;
import isostress.harness.db.AcctDialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Runs one statement in the connection's open transaction and returns it as a history operation (the checker's
 * {@link SqlOp}, written as {@code docs/sql-history.md} says): the rows it returned, each with its key, the version it
 * read (writer) and, for reads and writes, the column values.
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

    SqlOp run(Connection c, SqlStatement s, String w) throws SQLException {
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
                // execute(), not executeQuery(): MySQL Connector/J refuses executeQuery() for anything but a SELECT
                // (it judges by the statement's first word, SQLState S1009), though MariaDB's DELETE ... RETURNING
                // returns rows (found by MySqlCampaignTest).
                if (!p.execute()) throw new RecordingError(s.kind() + " " + w + " returned no result set");
                try (ResultSet rs = p.getResultSet()) {
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
        return op(s, w, rows);
    }

    private static SqlOp op(SqlStatement s, String w, List<AcctRow> rows) {
        String table = SqlWorkload.TABLE;
        if (s.kind() == SqlStatement.Kind.INSERT) {
            List<SqlOp.WriteRow> written = new ArrayList<>();
            for (AcctRow r : rows) {
                if (!w.equals(r.wid())) throw new RecordingError("insert " + w + " returned row " + r.key()
                        + " with write id " + r.wid());
                written.add(new SqlOp.WriteRow(r.key(), r.value()));
            }
            return new SqlOp.Insert(table, w, written);
        }
        Predicate where = s.where().predicate();
        List<SqlOp.ReadRow> read = new ArrayList<>();
        for (AcctRow r : rows) {
            switch (s.kind()) {
                case SELECT -> read.add(new SqlOp.ReadRow(r.key(), r.wid(), r.value())); // its wid: the version read
                case DELETE -> read.add(new SqlOp.ReadRow(r.key(), r.wid(), null));
                default -> { // UPDATE, SOFT_DELETE: the new version, and (prev_wid) the one it overwrote
                    if (!w.equals(r.wid())) throw new RecordingError("update " + w + " returned row " + r.key()
                            + " with write id " + r.wid());
                    read.add(new SqlOp.ReadRow(r.key(), r.prevWid(), r.value()));
                }
            }
        }
        return switch (s.kind()) {
            case SELECT -> new SqlOp.Select(table, where, read);
            case DELETE -> new SqlOp.Delete(table, where, w, read);
            default -> new SqlOp.Update(table, where, w, read);
        };
    }
}
