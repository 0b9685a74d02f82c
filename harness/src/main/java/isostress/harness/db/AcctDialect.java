package isostress.harness.db;

import isostress.generator.sql.SqlStatement;
import isostress.generator.sql.SqlWorkload;

import java.util.List;

/**
 * The accounts table's SQL in one database's dialect (each database's package holds its own: PostgreSql.ACCT,
 * InnoDbDatabase.ACCT). Every write sets the hidden {@code wid} column to its statement's write id, and an update also
 * copies the old {@code wid} into {@code prev_wid}: the writer of the version it read (the write ids of Bouajjani,
 * Enea and Román-Calvo's SQL history recorder, CAV 2025). In PostgreSQL the right-hand sides of SET all see the old
 * row; in MariaDB the assignments run left to right, so {@code prev_wid = wid} comes before {@code wid = ?} and
 * copies the old value (checked by {@code SqlWorkloadMariaDbTest}).
 *
 * <p>PostgreSQL returns the written rows with {@code RETURNING *}. MariaDB (10.5+) has DELETE ... RETURNING but no
 * UPDATE ... RETURNING, so the recorder reads the rows just written back by their write id in the same transaction,
 * where the transaction's own writes are visible.
 *
 * @param updateReturning true when UPDATE and INSERT can return the rows they wrote; else they are read back by
 *                        write id
 * @param ddl             drops and creates the table
 * @param insertSql       the upsert of one row (parameters: id, grp, bal, write id)
 */
public record AcctDialect(boolean updateReturning, List<String> ddl, String insertSql) {
    /** The accounts table's name. */
    public static final String T = SqlWorkload.TABLE;
    /** Its columns in the order initial rows and inserts give them. */
    public static final String COLUMNS = "(id, grp, bal, deleted, wid, prev_wid)";
    /** Its column definitions, for each dialect's CREATE TABLE. */
    public static final String COLUMN_TYPES = "id BIGINT PRIMARY KEY, grp INT NOT NULL, bal INT NOT NULL, "
            + "deleted BOOLEAN NOT NULL, wid VARCHAR(64) NOT NULL, prev_wid VARCHAR(64)";

    public AcctDialect {
        ddl = List.copyOf(ddl);
    }

    /** (Re)creates the table on {@code c} with the initial rows, committed. */
    public void createTable(java.sql.Connection c, List<SqlWorkload.Row> init) throws java.sql.SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(true);
        try (java.sql.Statement s = c.createStatement()) {
            for (String sql : ddl()) s.execute(sql);
        }
        c.setAutoCommit(false);
        try (java.sql.PreparedStatement p = c.prepareStatement(initSql())) {
            for (SqlWorkload.Row r : init) {
                p.setLong(1, r.id());
                p.setInt(2, r.grp());
                p.setInt(3, r.bal());
                p.addBatch();
            }
            p.executeBatch();
            c.commit();
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /** Inserts one initial row (parameters: id, grp, bal). */
    public String initSql() {
        return "INSERT INTO " + T + " " + COLUMNS + " VALUES (?, ?, ?, FALSE, 'init', NULL)";
    }

    /**
     * The statement's SQL. Parameters: select, delete: the predicate's; update and soft delete: (update: the amount),
     * the write id, then the predicate's; insert: id, grp, bal, write id.
     */
    public String sql(SqlStatement s) {
        String ret = updateReturning ? " RETURNING *" : "";
        switch (s.kind()) {
            case SELECT:
                return "SELECT * FROM " + T + " WHERE " + s.where().sql();
            case UPDATE:
                return "UPDATE " + T + " SET bal = bal + ?, prev_wid = wid, wid = ? WHERE " + s.where().sql() + ret;
            case SOFT_DELETE:
                return "UPDATE " + T + " SET deleted = TRUE, prev_wid = wid, wid = ? WHERE " + s.where().sql() + ret;
            case DELETE:
                return "DELETE FROM " + T + " WHERE " + s.where().sql() + " RETURNING *";
            default:
                return insertSql;
        }
    }

    /** Reads back the rows a statement wrote (parameter: its write id). */
    public String readBackSql() {
        return "SELECT * FROM " + T + " WHERE wid = ?";
    }
}
