package isostress.checker.history;

import java.util.Arrays;

/**
 * Open-addressing hash map from a pair of longs to a non-negative int; single longs use {@code b = 0}.
 *
 * <p>Hand-written because DESIGN.md keeps the checker free of dependencies other than Jackson, and because it is a
 * measured bottleneck: boxing {@code HashMap<Long, Integer>} costs about 5x the time and 6x the memory when a
 * million-transaction history indexes its (key, value) pairs and (session, txn) ids. Linear probing, power-of-two
 * table, load factor at most 1/2; no removal.
 */
public final class LongPairIntMap {
    /** Returned by {@link #get} for an absent pair. */
    public static final int MISSING = -1;

    private long[] as, bs;
    private int[] vals;
    private int mask, size;

    /** A map sized for about {@code expected} entries without rehashing. */
    public LongPairIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
        as = new long[cap];
        bs = new long[cap];
        vals = new int[cap];
        Arrays.fill(vals, MISSING);
        mask = cap - 1;
    }

    public int size() {
        return size;
    }

    /** The value for (a, b), or {@link #MISSING}. */
    public int get(long a, long b) {
        int i = slot(a, b);
        while (true) {
            int v = vals[i];
            if (v == MISSING) return MISSING;
            if (as[i] == a && bs[i] == b) return v;
            i = (i + 1) & mask;
        }
    }

    /** Sets (a, b) to {@code value} (&gt;= 0) and returns the previous value, or {@link #MISSING}. */
    public int put(long a, long b, int value) {
        if (value < 0) throw new IllegalArgumentException("negative value " + value);
        int i = slot(a, b);
        while (true) {
            int v = vals[i];
            if (v == MISSING) {
                as[i] = a;
                bs[i] = b;
                vals[i] = value;
                if (++size * 2 > mask) grow();
                return MISSING;
            }
            if (as[i] == a && bs[i] == b) {
                vals[i] = value;
                return v;
            }
            i = (i + 1) & mask;
        }
    }

    /** Returns the value for (a, b), first setting it to {@code value} when absent. */
    public int putIfAbsent(long a, long b, int value) {
        int v = get(a, b);
        if (v != MISSING) return v;
        put(a, b, value);
        return value;
    }

    private int slot(long a, long b) {
        long h = a * 0x9E3779B97F4A7C15L + b * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 32;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 29;
        return (int) h & mask;
    }

    private void grow() {
        long[] oa = as, ob = bs;
        int[] ov = vals;
        int cap = (mask + 1) * 2;
        as = new long[cap];
        bs = new long[cap];
        vals = new int[cap];
        Arrays.fill(vals, MISSING);
        mask = cap - 1;
        for (int i = 0; i < ov.length; i++) {
            if (ov[i] == MISSING) continue;
            int j = slot(oa[i], ob[i]);
            while (vals[j] != MISSING) j = (j + 1) & mask;
            as[j] = oa[i];
            bs[j] = ob[i];
            vals[j] = ov[i];
        }
    }
}
