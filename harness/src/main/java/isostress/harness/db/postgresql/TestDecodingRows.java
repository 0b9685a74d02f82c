package isostress.harness.db.postgresql;

import isostress.harness.db.WitnessWrite;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rows {@code test_decoding} gives for the workload's tables, read back into witness writes. Its text (PostgreSQL's
 * contrib/test_decoding/test_decoding.c) is one row per change, between {@code BEGIN <xid>} and {@code COMMIT <xid>}:
 * <pre>
 * table public.isostress_kv: UPDATE: k[bigint]:3 v[bigint]:17
 * table public.isostress_lists_1: INSERT: k[bigint]:4 v[text]:'9'
 * table public.isostress_lists: UPDATE: k[bigint]:4 v[text]:'2,5,9'
 * table public.isostress_kv: DELETE: k[bigint]:3
 * </pre>
 * A register's row holds the value written. A list's row holds the whole list after the append, and the element
 * appended is its last one: every statement that changes a list appends at its end ({@code v || ',' || ?}, or an
 * upsert's insert of the one element), so the new value alone names the element and the table needs no
 * {@code REPLICA IDENTITY FULL} (which would log every old row too). An empty list is the initial row, no write.
 * A deleted row is logged with its key alone (the primary key, {@code REPLICA IDENTITY DEFAULT}), for registers and
 * lists alike: no workload deletes rows, so it is kept as a delete and the join reports it (someone else changed the
 * workload's data). Rows of other tables are not the workload's and are skipped.
 */
final class TestDecodingRows {
    private static final Pattern CHANGE = Pattern.compile("table [^.]+\\.(isostress_(kv|lists)(?:_\\d+)?): "
            + "(?:INSERT|UPDATE): (?:.*new-tuple: )?k\\[bigint\\]:(-?\\d+) v\\[(?:bigint|text)\\]:(.*)");
    private static final Pattern DELETE = Pattern.compile("table [^.]+\\.isostress_(?:kv|lists)(?:_\\d+)?: "
            + "DELETE: k\\[bigint\\]:(-?\\d+)(?: v\\[(?:bigint|text)\\]:.*)?"); // v: REPLICA IDENTITY FULL

    private TestDecodingRows() {
    }

    /**
     * The writes in a change row, none for another table's row or a list's initial empty value.
     *
     * @throws IllegalStateException a workload row whose value cannot be read (the sentence says which)
     */
    static List<WitnessWrite> writes(String row) {
        if (!row.startsWith("table ")) return List.of();
        Matcher m = CHANGE.matcher(row);
        if (!m.matches()) {
            Matcher d = DELETE.matcher(row);
            if (d.matches()) return List.of(WitnessWrite.delete(Long.parseLong(d.group(1))));
            if (row.contains(".isostress_kv") || row.contains(".isostress_lists")) {
                throw new IllegalStateException("a change of the workload's table that the capture cannot read: "
                        + row);
            }
            return List.of();
        }
        long key = Long.parseLong(m.group(3));
        String v = m.group(4);
        if (m.group(2).equals("kv")) return List.of(WitnessWrite.write(key, Long.parseLong(v)));
        if (!v.startsWith("'") || !v.endsWith("'") || v.length() < 2) {
            throw new IllegalStateException("a list's value is not logged whole (" + v + ") in: " + row);
        }
        String list = v.substring(1, v.length() - 1);
        if (list.isEmpty()) return List.of();
        return List.of(WitnessWrite.append(key, Long.parseLong(list.substring(list.lastIndexOf(',') + 1))));
    }

    /** {@code 16/B374D848} as one number: the high 32 bits, then the low. */
    static long lsn(String text) {
        int slash = text.indexOf('/');
        return Long.parseUnsignedLong(text.substring(0, slash), 16) << 32
                | Long.parseUnsignedLong(text.substring(slash + 1), 16);
    }
}
