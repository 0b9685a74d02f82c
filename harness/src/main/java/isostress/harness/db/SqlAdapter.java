package isostress.harness.db;

import isostress.checker.history.MicroOp;
import isostress.generator.workload.WorkloadType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL every JDBC adapter shares: point SELECT and UPDATE on an integer-keyed table, list-append as string
 * concatenation (elements comma-separated), CAS as a conditional UPDATE. Subclasses give the dialect bits.
 */
public abstract class SqlAdapter implements DatabaseAdapter {
    static final String KV = "isostress_kv", LISTS = "isostress_lists";

    private final boolean upsert;
    private final long opPauseNanos;
    private final int tables;

    /**
     * @param tables keys spread over this many tables (key k in table {@code <base>_<k mod tables>}), as Jepsen's
     *               {@code table-count}: PostgreSQL's SSI takes relation- and index-page-level SIREAD locks, so on
     *               one small table any earlier read covers a later insert's key and the conflict is caught on the
     *               write side; only a read of a table the reader had not touched before the insert depends on the
     *               read-side ("conflict out") check that PostgreSQL 12.3 gets wrong (fixed by 5940ffb2).
     */
    protected SqlAdapter(boolean upsert, java.time.Duration opPause, int tables) {
        if (tables < 1) throw new IllegalArgumentException("tables must be >= 1");
        this.upsert = upsert;
        this.opPauseNanos = opPause.toNanos();
        this.tables = tables;
    }

    /** The SQL that appends {@code ,?} to column v of {@code table} (parameters: element, key). */
    protected abstract String appendSql(String table);

    /** The SQL that writes value ? to key ? of {@code table} as an upsert (parameters: key, value). */
    protected abstract String upsertSql(String table);

    /** The SQL that appends ? to key ?'s list in {@code table} as an upsert, creating the row (parameters: key, element). */
    protected abstract String appendUpsertSql(String table);

    private List<String> allTables(String base) {
        List<String> out = new ArrayList<>(tables);
        for (int i = 0; i < tables; i++) out.add(tables == 1 ? base : base + "_" + i);
        return out;
    }

    @Override
    public void createSchema(Connection c, WorkloadType type, long maxKey) throws SQLException {
        boolean lists = type == WorkloadType.LIST_APPEND;
        String base = lists ? LISTS : KV;
        try (Statement s = c.createStatement()) {
            for (String table : allTables(base)) {
                s.execute("DROP TABLE IF EXISTS " + table);
                s.execute("CREATE TABLE " + table + " (k BIGINT PRIMARY KEY, v " + (lists ? "TEXT" : "BIGINT")
                        + " NOT NULL)");
            }
        }
        // Upserts start from an empty table: every key's first write inserts its row (the path PostgreSQL 12.3's SSI
        // bug is on), and a read of a missing row is the initial value the history's header announces.
        if (upsert) return;
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            for (int t = 0; t < tables; t++) {
                String table = allTables(base).get(t);
                try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " (k, v) VALUES (?, ?)")) {
                    int batched = 0;
                    for (long k = t; k <= maxKey; k += tables) {
                        p.setLong(1, k);
                        if (lists) p.setString(2, ""); else p.setLong(2, INITIAL);
                        p.addBatch();
                        if (++batched % 1000 == 0) p.executeBatch();
                    }
                    p.executeBatch();
                }
            }
            c.commit();
        } finally {
            c.setAutoCommit(auto);
        }
    }

    @Override
    public long keyCount(Connection c, WorkloadType type) throws SQLException {
        long n = 0;
        try (Statement s = c.createStatement()) {
            for (String table : allTables(type == WorkloadType.LIST_APPEND ? LISTS : KV)) {
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
                    rs.next();
                    n += rs.getLong(1);
                }
            }
            return n;
        } finally {
            c.rollback();
        }
    }

    /**
     * The statements' SQL, per table, built once (the first transaction needs them; the subclass's dialect methods
     * are not called from this class's constructor). A race builds it twice, equally: harmless.
     */
    private volatile Sql sql;

    /** Every statement's text per table, so a transaction concatenates no SQL and looks up the same Strings. */
    private record Sql(String[] read, String[] write, String[] upsert, String[] append, String[] appendUpsert,
                       String[] listRead, String[] cas) {
    }

    private Sql sql() {
        Sql s = sql;
        if (s != null) return s;
        int n = tables;
        s = new Sql(new String[n], new String[n], new String[n], new String[n], new String[n], new String[n],
                new String[n]);
        for (int t = 0; t < n; t++) {
            String kv = allTables(KV).get(t), lists = allTables(LISTS).get(t);
            s.read[t] = "SELECT v FROM " + kv + " WHERE k = ?";
            s.write[t] = "UPDATE " + kv + " SET v = ? WHERE k = ?";
            s.upsert[t] = upsertSql(kv);
            s.append[t] = appendSql(lists);
            s.appendUpsert[t] = appendUpsertSql(lists);
            s.listRead[t] = "SELECT v FROM " + lists + " WHERE k = ?";
            s.cas[t] = "UPDATE " + kv + " SET v = ? WHERE k = ? AND v = ?";
        }
        return sql = s;
    }

    @Override
    public List<MicroOp> execute(Statements st, List<MicroOp> ops, CasExpectations casExpected) throws SQLException {
        Sql q = sql();
        List<MicroOp> done = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            MicroOp op = ops.get(i);
            if (opPauseNanos > 0 && !done.isEmpty()) pause();
            long k = op.key();
            int t = tables == 1 ? 0 : Math.floorMod(k, tables);
            if (op instanceof MicroOp.Read) {
                PreparedStatement p = st.get(q.read[t]);
                p.setLong(1, k);
                try (ResultSet rs = p.executeQuery()) {
                    done.add(new MicroOp.Read(k, rs.next() ? Long.valueOf(rs.getLong(1)) : upsert ? INITIAL : null));
                }
            } else if (op instanceof MicroOp.Write) {
                long v = ((MicroOp.Write) op).value();
                if (upsert) {
                    PreparedStatement p = st.get(q.upsert[t]);
                    p.setLong(1, k);
                    p.setLong(2, v);
                    p.executeUpdate();
                } else {
                    update(st.get(q.write[t]), v, k);
                }
                done.add(op);
            } else if (op instanceof MicroOp.Append) {
                if (upsert) {
                    PreparedStatement p = st.get(q.appendUpsert[t]);
                    p.setLong(1, k);
                    p.setString(2, Long.toString(((MicroOp.Append) op).value()));
                    p.executeUpdate();
                } else {
                    update(st.get(q.append[t]), ((MicroOp.Append) op).value(), k);
                }
                done.add(op);
            } else if (op instanceof MicroOp.ListRead) {
                PreparedStatement p = st.get(q.listRead[t]);
                p.setLong(1, k);
                try (ResultSet rs = p.executeQuery()) {
                    done.add(new MicroOp.ListRead(k, rs.next() ? parseList(rs.getString(1)) : List.of()));
                }
            } else {
                MicroOp.Cas cas = (MicroOp.Cas) op;
                long expected = casExpected.expected(k);
                PreparedStatement p = st.get(q.cas[t]);
                p.setLong(1, cas.newValue());
                p.setLong(2, k);
                p.setLong(3, expected);
                if (p.executeUpdate() != 1) throw new CasMismatch(k, expected);
                done.add(new MicroOp.Cas(k, expected, cas.newValue()));
            }
        }
        return done;
    }

    /** A random pause between operations (IsoVista's 0-20 ms): stretches transactions so they overlap more. */
    private void pause() throws SQLException {
        try {
            java.util.concurrent.TimeUnit.NANOSECONDS.sleep(java.util.concurrent.ThreadLocalRandom.current()
                    .nextLong(opPauseNanos + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted", e);
        }
    }

    private static void update(PreparedStatement p, long value, long key) throws SQLException {
        p.setLong(1, value);
        p.setLong(2, key);
        if (p.executeUpdate() != 1) throw new SQLException("key " + key + " is missing from the table");
    }

    static List<Long> parseList(String s) {
        List<Long> out = new ArrayList<>();
        for (String part : s.split(",")) if (!part.isEmpty()) out.add(Long.parseLong(part));
        return out;
    }

    /**
     * The link failed or a timeout fired, whatever the database's code: SQLState class 08 (connection exception,
     * SQL:2011 and both drivers), JDBC's own {@link java.sql.SQLTimeoutException},
     * {@link java.sql.SQLRecoverableException} and connection exceptions (transient or not), or an I/O failure
     * (a {@link java.io.IOException} such as {@link java.net.SocketTimeoutException}) anywhere in the causes.
     */
    protected static boolean interrupted(SQLException e) {
        String st = e.getSQLState();
        if ((st != null && st.startsWith("08")) || e instanceof java.sql.SQLTimeoutException
                || e instanceof java.sql.SQLRecoverableException || e instanceof java.sql.SQLTransientConnectionException
                || e instanceof java.sql.SQLNonTransientConnectionException) {
            return true;
        }
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c instanceof java.io.IOException) return true;
        }
        return false;
    }
}
