package isostress.harness.db.mariadb;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The row images of a row-based binary log ({@code binlog_format=ROW}, {@code binlog_row_image=FULL}) read back as
 * the history's writes. The workload's tables ({@code isostress_kv}, {@code isostress_lists}, or their
 * {@code _<n>} siblings with {@code tables: n}) have two columns, {@code k BIGINT PRIMARY KEY} then {@code v}
 * ({@code BIGINT} for registers, {@code TEXT} for lists), so a row image is {@code [k, v]}:
 * <ul>
 *   <li>a register's inserted or updated row writes its new {@code v};</li>
 *   <li>a list's row holds the whole list, elements comma-separated; the element appended is what the update added
 *   to the old value ({@code CONCAT(v, ',', ?)}: the old value, a comma, the element; the initial value is empty,
 *   so the first append gives {@code ",9"}), or the inserted row's value (an upsert's first append, {@code "9"}). An
 *   empty list is an initial row, no write.</li>
 * </ul>
 * Rows of other tables are not the workload's and are skipped; deleted rows are none of its writes.
 */
final class BinlogRows {
    private static final Pattern WORKLOAD = Pattern.compile("isostress_(kv|lists)(_\\d+)?");

    private BinlogRows() {
    }

    /** A write as a witness line lists it: {@code ["w", k, v]} or {@code ["append", k, element]}. */
    record Write(boolean append, long key, long value) {
        String json() {
            return "[\"" + (append ? "append" : "w") + "\"," + key + "," + value + "]";
        }
    }

    /** Which of the workload's tables a table is. */
    enum Table { REGISTERS, LISTS, OTHER }

    static Table table(String name) {
        var m = WORKLOAD.matcher(name);
        if (!m.matches()) return Table.OTHER;
        return m.group(1).equals("kv") ? Table.REGISTERS : Table.LISTS;
    }

    /**
     * The write of an inserted ({@code before} null) or updated row of a workload table, or null for a list's empty
     * initial value.
     *
     * @throws IllegalStateException a row the capture cannot read (the sentence says which)
     */
    static Write write(Table t, Serializable[] before, Serializable[] after) {
        if (after.length < 2) throw new IllegalStateException("a row of the workload's table with "
                + after.length + " columns, expected k and v");
        long key = number(after[0], "k");
        if (t == Table.REGISTERS) return new Write(false, key, number(after[1], "v"));
        String now = text(after[1]);
        if (before == null) {
            if (now.isEmpty()) return null;
            return new Write(true, key, element(now, key, now));
        }
        String was = text(before[1]);
        if (!now.startsWith(was) || now.length() == was.length()) {
            throw new IllegalStateException("list " + key + " changed from '" + was + "' to '" + now
                    + "', which is not an append at its end");
        }
        String added = now.substring(was.length());
        if (!added.startsWith(",")) {
            throw new IllegalStateException("list " + key + " changed from '" + was + "' to '" + now
                    + "', which is not a comma and an element appended");
        }
        return new Write(true, key, element(added.substring(1), key, now));
    }

    private static long element(String s, long key, String list) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("list " + key + " = '" + list + "' had '" + s
                    + "' appended, which is not one integer element");
        }
    }

    private static long number(Serializable v, String column) {
        if (v instanceof Number n) return n.longValue();
        throw new IllegalStateException("column " + column + " of the workload's table is " + describe(v)
                + ", expected an integer");
    }

    /** TEXT arrives as bytes (the client does not know the column's character set); the workload writes ASCII. */
    private static String text(Serializable v) {
        if (v instanceof byte[] b) return new String(b, StandardCharsets.UTF_8);
        if (v instanceof String s) return s;
        throw new IllegalStateException("column v of a list table is " + describe(v) + ", expected text");
    }

    private static String describe(Serializable v) {
        return v == null ? "null" : v.getClass().getSimpleName() + " " + v;
    }

    /** {@code mariadb-bin.000012} → 12: the file's place in the log. */
    static long fileIndex(String file) {
        int dot = file.lastIndexOf('.');
        try {
            return Long.parseLong(file.substring(dot + 1));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw new IllegalStateException("binary log file name " + file + " does not end in a number");
        }
    }

    /** A position in a node's log as one number: the file's index in the high 32 bits, the offset in the low. */
    static long pos(long fileIndex, long offset) {
        return fileIndex << 32 | offset;
    }

    /** One witness line. */
    static String line(long pos, String node, String txid, List<Write> writes) {
        StringBuilder sb = new StringBuilder(48 + 16 * writes.size());
        sb.append("{\"pos\":").append(pos).append(",\"node\":\"").append(node).append("\",\"txid\":\"").append(txid)
                .append("\",\"writes\":[");
        for (int i = 0; i < writes.size(); i++) sb.append(i == 0 ? "" : ",").append(writes.get(i).json());
        return sb.append("]}").toString();
    }
}
