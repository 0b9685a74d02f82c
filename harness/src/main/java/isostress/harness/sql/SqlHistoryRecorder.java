package isostress.harness.sql;

import isostress.checker.history.Outcome;
import isostress.checker.model.IsolationLevel;
import isostress.checker.sql.SqlHistory;
import isostress.checker.sql.SqlOp;
import isostress.checker.sql.SqlTxn;
import isostress.generator.sql.SqlWorkload;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes an {@code isostress-sql} history ({@code docs/sql-history.md}): the header, the initial rows, then each
 * transaction as it completes, each line as the checker's {@link isostress.checker.sql.SqlHistoryWriter} renders it. Every line goes out in one write(2) as soon as it is complete, so a crash leaves a
 * history whose every line is whole: a checkable prefix.
 */
public final class SqlHistoryRecorder implements AutoCloseable {
    private final OutputStream out;
    private final long start = System.nanoTime();
    private long nextId;
    private boolean closed;

    /** Creates {@code file} with the header (naming the campaign) and the initial rows. */
    public SqlHistoryRecorder(Path file, String name, List<SqlWorkload.Row> init) throws IOException {
        out = Files.newOutputStream(file);
        line(isostress.checker.sql.SqlHistoryWriter.headerLine(name, Map.of(SqlWorkload.TABLE, SqlWorkload.COLUMNS)));
        List<SqlHistory.InitRow> rows = new ArrayList<>();
        for (SqlWorkload.Row r : init) {
            AcctRow row = new AcctRow(r.id(), r.grp(), r.bal(), false, SqlHistory.INIT, null);
            rows.add(new SqlHistory.InitRow(SqlWorkload.TABLE, row.key(), row.value()));
        }
        line(isostress.checker.sql.SqlHistoryWriter.initLine(rows));
    }

    /** Nanoseconds since the history was opened (monotonic). */
    public long now() {
        return System.nanoTime() - start;
    }

    /**
     * Appends a completed transaction.
     *
     * @param level   the history's level name ({@code rc}, {@code si}, {@code ser}, ...)
     * @param startNs when it began, from {@link #now()}
     * @param ops     its operations, in order
     */
    public synchronized void txn(int session, int index, String level, Outcome outcome, long startNs,
                                 List<SqlOp> ops) throws IOException {
        SqlTxn t = new SqlTxn(nextId++, session, index, IsolationLevel.byName(level), outcome, startNs, now(),
                List.copyOf(ops));
        line(isostress.checker.sql.SqlHistoryWriter.txnLine(t));
    }

    private synchronized void line(String s) throws IOException {
        if (closed) throw new IOException("the history is closed");
        out.write((s + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) return;
        closed = true;
        out.close();
    }
}
