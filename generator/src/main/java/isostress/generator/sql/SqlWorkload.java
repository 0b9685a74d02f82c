package isostress.generator.sql;

import isostress.generator.workload.WorkloadSpec;

import java.util.List;

/**
 * An SQL workload: the table's initial rows and each session's transactions in order.
 *
 * @param spec     what generated it
 * @param init     the rows the table starts with (not deleted, written by {@code init})
 * @param sessions per session, its transactions in order
 */
public record SqlWorkload(WorkloadSpec spec, List<Row> init, List<List<SqlTxnPlan>> sessions) {
    /** The table's name. Columns: id, grp (immutable), bal, deleted, and the hidden wid, prev_wid. */
    public static final String TABLE = "acct";

    /** The columns a history records as a row's value (the hidden write-id columns are not the application's). */
    public static final List<String> COLUMNS = List.of("id", "grp", "bal", "deleted");

    public SqlWorkload {
        init = List.copyOf(init);
        sessions = List.copyOf(sessions);
    }

    /** A row of the initial table. */
    public record Row(long id, int grp, int bal) {
    }

    /** Transactions in all sessions. */
    public int size() {
        int n = 0;
        for (List<SqlTxnPlan> s : sessions) n += s.size();
        return n;
    }

    /** The history key of row {@code id}: {@code acct:<id>}. */
    public static String key(long id) {
        return TABLE + ":" + id;
    }
}
