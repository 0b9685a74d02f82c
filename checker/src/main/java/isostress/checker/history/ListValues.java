package isostress.checker.history;

import java.util.Arrays;

/**
 * The elements of a history's list reads, stored so that reads of one key share their common prefix.
 *
 * <p>Why: in a list-append history every read of a key returns (when the database is correct) a prefix of one list,
 * so storing each read's elements costs the sum of the read lengths (Jepsen's shape: about 50 elements per read, 400
 * bytes per transaction, most of a ten-million-transaction history's memory), while the distinct information is one
 * list per key. Each key has a canonical segment in one element pool; a read that is a prefix of it, or extends it,
 * is stored as (start, length) of that segment, and only a read that disagrees with it is copied on its own. The
 * segment keeps spare room after it (doubling), so extending it in place is amortised O(1) per element; when the
 * room is used up, the segment moves to the pool's end and reads stored earlier keep pointing at the old copy, which
 * never changes. Elements are compared as they are stored, so an invalid history is stored exactly, only larger.
 */
final class ListValues {
    private int lists;
    private int[] start = new int[16], length = new int[16];
    private int used;
    private long[] pool = new long[64];
    /** Per key (by {@link #canonicalOf}): its canonical segment's start, length and room. */
    private final LongPairIntMap canonicalOf = new LongPairIntMap(64);
    private int canonicals;
    private int[] canStart = new int[16], canLength = new int[16], canRoom = new int[16];

    /** Number of lists stored. */
    int size() {
        return lists;
    }

    int length(int list) {
        return length[list];
    }

    long element(int list, int i) {
        return pool[start[list] + i];
    }

    long[] copy(int list) {
        return Arrays.copyOfRange(pool, start[list], start[list] + length[list]);
    }

    /** Stores {@code values[from..from+n)}, a read of {@code key}, and returns its list id. */
    int add(long key, long[] values, int from, int n) {
        if (lists == start.length) {
            start = Arrays.copyOf(start, lists * 2);
            length = Arrays.copyOf(length, lists * 2);
        }
        int c = canonicalOf.get(key, 0);
        int at;
        if (c == LongPairIntMap.MISSING) {
            c = newCanonical(key);
            at = place(c, values, from, n);
        } else {
            int common = Math.min(n, canLength[c]);
            int s = canStart[c];
            boolean prefix = Arrays.equals(pool, s, s + common, values, from, from + common);
            if (!prefix) {
                at = reserve(n);
                System.arraycopy(values, from, pool, at, n);
            } else if (n <= canLength[c]) {
                at = s;
            } else {
                at = place(c, values, from, n);
            }
        }
        start[lists] = at;
        length[lists] = n;
        return lists++;
    }

    private int newCanonical(long key) {
        if (canonicals == canStart.length) {
            canStart = Arrays.copyOf(canStart, canonicals * 2);
            canLength = Arrays.copyOf(canLength, canonicals * 2);
            canRoom = Arrays.copyOf(canRoom, canonicals * 2);
        }
        canonicalOf.put(key, 0, canonicals);
        return canonicals++;
    }

    /** Makes canonical {@code c} hold {@code values[from..from+n)}, which extends it (or it is new); returns its start. */
    private int place(int c, long[] values, int from, int n) {
        if (n > canRoom[c]) {
            int room = Math.max(8, 2 * n);
            int at = reserve(room);
            System.arraycopy(pool, canStart[c], pool, at, canLength[c]);
            canStart[c] = at;
            canRoom[c] = room;
        }
        int s = canStart[c];
        System.arraycopy(values, from + canLength[c], pool, s + canLength[c], n - canLength[c]);
        canLength[c] = n;
        return s;
    }

    /** Takes {@code n} slots at the pool's end. */
    private int reserve(int n) {
        if (used + n > pool.length) {
            long want = Math.max((long) pool.length + (pool.length >> 1), (long) used + n);
            if (want > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("more than 2^31 list elements in one history");
            }
            pool = Arrays.copyOf(pool, (int) want);
        }
        int at = used;
        used += n;
        return at;
    }
}
