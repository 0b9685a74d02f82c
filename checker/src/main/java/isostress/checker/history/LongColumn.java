package isostress.checker.history;

import java.util.Arrays;

/**
 * A growable column of longs stored as narrowly as its values allow: no array at all while every entry holds the
 * column's default (e.g. the -1 of an absent time), four bytes an entry while every value fits in an int (keys,
 * values and event indices of almost every history), eight bytes an entry from the first value that does not.
 *
 * <p>Why: a history's columns are most of the memory a check of a hundred million mini-transactions needs,
 * and a long per key, value, process, index and time is two to three times what their values use. Every entry below
 * the builder's size is set before it is read, so growing needs no fill. The checkers' indexes use it too, through
 * {@link #of} (read-only).
 */
public final class LongColumn {
    private final long fill;
    private int capacity;
    private int[] narrow;
    private long[] wide;

    /** A column whose entries read {@code fill} until set otherwise. */
    LongColumn(long fill, int capacity) {
        this.fill = fill;
        this.capacity = capacity;
    }

    /** A column holding {@code values[0..n)}, as narrow as they allow. */
    public static LongColumn of(long[] values, int n) {
        LongColumn c = new LongColumn(0, n);
        for (int i = 0; i < n; i++) c.set(i, values[i]);
        return c;
    }

    public long get(int i) {
        if (narrow != null) return narrow[i];
        if (wide != null) return wide[i];
        return fill;
    }

    void set(int i, long v) {
        if (narrow != null) {
            if ((int) v == v) narrow[i] = (int) v; else widen(i, v);
        } else if (wide != null) {
            wide[i] = v;
        } else if (v != fill) {
            materialize(i, v);
        }
    }

    int capacity() {
        return capacity;
    }

    /** Makes room for exactly {@code n} entries: grows, or drops spare capacity once the builder is done. */
    void resize(int n) {
        if (n == capacity) return;
        capacity = n;
        if (narrow != null) narrow = Arrays.copyOf(narrow, n);
        if (wide != null) wide = Arrays.copyOf(wide, n);
    }

    /** The first entry {@code i} that differs from the default: entries below it all held the default. */
    private void materialize(int i, long v) {
        if ((int) v == v && (int) fill == fill) {
            narrow = new int[capacity];
            if (fill != 0) Arrays.fill(narrow, 0, i, (int) fill);
            narrow[i] = (int) v;
        } else {
            wide = new long[capacity];
            if (fill != 0) Arrays.fill(wide, 0, i, fill);
            wide[i] = v;
        }
    }

    private void widen(int i, long v) {
        long[] w = new long[capacity];
        for (int j = 0; j < capacity; j++) w[j] = narrow[j];
        narrow = null;
        wide = w;
        wide[i] = v;
    }
}
