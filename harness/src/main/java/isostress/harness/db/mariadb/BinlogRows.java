package isostress.harness.db.mariadb;

import isostress.harness.db.WitnessWrite;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
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
 * A deleted row of a workload table, of either kind, is a delete of its key: no workload deletes rows, so it is kept
 * and the join reports it (someone else changed the workload's data). Rows of other tables are not the workload's
 * and are skipped.
 */
final class BinlogRows {
    private static final Pattern WORKLOAD = Pattern.compile("isostress_(kv|lists)(_\\d+)?");

    private BinlogRows() {
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
    static WitnessWrite write(Table t, Serializable[] before, Serializable[] after) {
        if (after.length < 2) throw new IllegalStateException("a row of the workload's table with "
                + after.length + " columns, expected k and v");
        long key = number(after[0], "k");
        if (t == Table.REGISTERS) return WitnessWrite.write(key, number(after[1], "v"));
        String now = text(after[1]);
        if (before == null) {
            if (now.isEmpty()) return null;
            return WitnessWrite.append(key, element(now, key, now));
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
        return WitnessWrite.append(key, element(added.substring(1), key, now));
    }

    /** The delete of a workload table's row, by its before image's key. */
    static WitnessWrite delete(Serializable[] before) {
        if (before.length < 1) throw new IllegalStateException("a deleted row of the workload's table without columns");
        return WitnessWrite.delete(number(before[0], "k"));
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
}
