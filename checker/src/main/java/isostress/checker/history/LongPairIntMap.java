package isostress.checker.history;

/**
 * Open-addressing hash map from a pair of longs to a non-negative int; single longs use {@code b = 0}.
 *
 * <p>Hand-written because the checker stays free of dependencies other than Jackson, and because it is a
 * measured bottleneck: indexing a million-transaction history looks up millions of (key, value) pairs at random, so
 * each lookup is a cache miss. Slots are interleaved in one {@code long[]} ({@code a, b, value}: 24 bytes) so a
 * probe touches one cache line, not three; boxing {@code HashMap<Long, Integer>} was about 5x slower and 6x larger.
 * Linear probing, power-of-two table, load factor at most 1/2; no removal.
 */
public final class LongPairIntMap {
    /** Returned by {@link #get} for an absent pair. */
    public static final int MISSING = -1;

    private long[] slots; // a, b, value + 1 (0 marks an empty slot, so a fresh array needs no filling)
    private int mask, size;

    /** A map sized for about {@code expected} entries without rehashing. */
    public LongPairIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
        alloc(cap);
    }

    private void alloc(int cap) {
        slots = new long[cap * 3];
        mask = cap - 1;
    }

    public int size() {
        return size;
    }

    /** The value for (a, b), or {@link #MISSING}. */
    public int get(long a, long b) {
        long v = slots[find(a, b) + 2];
        return v == 0 ? MISSING : (int) v - 1;
    }

    /** Sets (a, b) to {@code value} (&gt;= 0) and returns the previous value, or {@link #MISSING}. */
    public int put(long a, long b, int value) {
        if (value < 0) throw new IllegalArgumentException("negative value " + value);
        int j = find(a, b);
        long v = slots[j + 2];
        if (v != 0) {
            slots[j + 2] = value + 1L;
            return (int) v - 1;
        }
        insert(j, a, b, value);
        return MISSING;
    }

    /** Returns the value for (a, b), first setting it to {@code value} when absent (one probe sequence). */
    public int putIfAbsent(long a, long b, int value) {
        if (value < 0) throw new IllegalArgumentException("negative value " + value);
        int j = find(a, b);
        long v = slots[j + 2];
        if (v != 0) return (int) v - 1;
        insert(j, a, b, value);
        return value;
    }

    /** The index in {@link #slots} of (a, b)'s slot, or of the empty slot where it would go. */
    private int find(long a, long b) {
        int i = slot(a, b);
        long[] s = slots;
        while (true) {
            int j = i * 3;
            if (s[j + 2] == 0 || s[j] == a && s[j + 1] == b) return j;
            i = (i + 1) & mask;
        }
    }

    private void insert(int j, long a, long b, int value) {
        slots[j] = a;
        slots[j + 1] = b;
        slots[j + 2] = value + 1L;
        if (++size * 2 > mask) grow();
    }

    private int slot(long a, long b) {
        long h = a * 0x9E3779B97F4A7C15L + b * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 32;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 29;
        return (int) h & mask;
    }

    private void grow() {
        long[] old = slots;
        alloc((mask + 1) * 2);
        for (int j = 0; j < old.length; j += 3) {
            if (old[j + 2] == 0) continue;
            int i = slot(old[j], old[j + 1]);
            while (slots[i * 3 + 2] != 0) i = (i + 1) & mask;
            slots[i * 3] = old[j];
            slots[i * 3 + 1] = old[j + 1];
            slots[i * 3 + 2] = old[j + 2];
        }
    }
}
