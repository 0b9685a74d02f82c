package isostress.harness.sql;

import isostress.checker.history.Outcome;
import isostress.generator.sql.SqlWorkload;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes an {@code isostress-sql} history ({@code docs/sql-history.md}): the header, the initial rows, then each
 * transaction as it completes. Every line goes out in one write(2) as soon as it is complete, so a crash leaves a
 * history whose every line is whole: a checkable prefix.
 */
public final class SqlHistoryWriter implements AutoCloseable {
    private final OutputStream out;
    private final long start = System.nanoTime();
    private long nextId;
    private boolean closed;

    /** Creates {@code file} with the header (naming the campaign) and the initial rows. */
    public SqlHistoryWriter(Path file, String name, List<SqlWorkload.Row> init) throws IOException {
        out = Files.newOutputStream(file);
        StringBuilder cols = new StringBuilder();
        for (String c : SqlWorkload.COLUMNS) cols.append(cols.length() == 0 ? "" : ",").append('"').append(c).append('"');
        line("{\"format\":\"isostress-sql\",\"version\":1,\"name\":\"" + escape(name) + "\",\"tables\":{\""
                + SqlWorkload.TABLE + "\":[" + cols + "]}}");
        StringBuilder b = new StringBuilder("{\"type\":\"init\",\"rows\":[");
        for (int i = 0; i < init.size(); i++) {
            SqlWorkload.Row r = init.get(i);
            AcctRow row = new AcctRow(r.id(), r.grp(), r.bal(), false, "init", null);
            b.append(i == 0 ? "" : ",").append("{\"table\":\"").append(SqlWorkload.TABLE).append("\",\"key\":\"")
                    .append(row.key()).append("\",\"write\":\"init\",\"value\":").append(row.valueJson()).append('}');
        }
        line(b.append("]}").toString());
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
     * @param ops     its operations as JSON objects, in order
     */
    public synchronized void txn(int session, int index, String level, Outcome outcome, long startNs,
                                 List<String> ops) throws IOException {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"type\":\"txn\",\"id\":").append(nextId++).append(",\"session\":").append(session)
                .append(",\"index\":").append(index).append(",\"level\":\"").append(level)
                .append("\",\"outcome\":\"").append(outcome.name().toLowerCase(java.util.Locale.ROOT))
                .append("\",\"start\":").append(startNs).append(",\"end\":").append(now()).append(",\"ops\":[");
        for (int i = 0; i < ops.size(); i++) b.append(i == 0 ? "" : ",").append(ops.get(i));
        line(b.append("]}").toString());
    }

    private synchronized void line(String s) throws IOException {
        if (closed) throw new IOException("the history is closed");
        out.write((s + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) return;
        closed = true;
        out.close();
    }
}
