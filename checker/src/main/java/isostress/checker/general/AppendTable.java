package isostress.checker.general;

import isostress.checker.history.LongPairIntMap;

import java.util.Arrays;

/**
 * (dense key, element) to the op that appended it, for {@link ListAppendIndex}.
 *
 * <p>Why not one hash map: every element of every longest read and of every read's last element is looked up, at
 * random, and with a million transactions the map is tens of megabytes, so each lookup is a cache miss (it was the
 * list-append check's largest cost). Writers append counters per key (Jepsen: 1, 2, 3, ...), so a key's elements
 * usually fill a small range densely; such a key gets a slice of one {@code int[]} indexed by element minus the
 * key's smallest. A key whose elements are spread thin (less than half the range used) keeps a hash map.
 * Built in two passes: {@link #count} every append, {@link #allocate}, then {@link #put} them.
 */
final class AppendTable {
    static final int MISSING = LongPairIntMap.MISSING;

    private long[] min, max;
    private int[] count, base;
    private int[] table = new int[0];
    private LongPairIntMap sparse;

    AppendTable(int keys) {
        min = new long[keys];
        max = new long[keys];
        count = new int[keys];
        Arrays.fill(min, Long.MAX_VALUE);
        Arrays.fill(max, Long.MIN_VALUE);
    }

    /** First pass: an append of {@code e} to key {@code k}. */
    void count(int k, long e) {
        if (e < min[k]) min[k] = e;
        if (e > max[k]) max[k] = e;
        count[k]++;
    }

    /** Between the passes: decides each key's storage. */
    void allocate() {
        int keys = count.length;
        base = new int[keys];
        long size = 0;
        int sparseCount = 0;
        for (int k = 0; k < keys; k++) {
            long range = count[k] == 0 ? 0 : max[k] - min[k] + 1;
            if (count[k] > 0 && range > 0 && range <= 2L * count[k] + 16 && size + range < Integer.MAX_VALUE - 16) {
                base[k] = (int) size;
                size += range;
            } else {
                base[k] = -1;
                sparseCount += count[k];
            }
        }
        table = new int[(int) size];
        sparse = new LongPairIntMap(Math.max(16, sparseCount));
    }

    /** Second pass: records op {@code o} as the append of {@code e} to {@code k}; returns the earlier op or MISSING. */
    int put(int k, long e, int o) {
        int b = base[k];
        if (b < 0) return sparse.put(k, e, o);
        int i = b + (int) (e - min[k]);
        int prev = table[i] - 1;
        if (prev < 0) table[i] = o + 1;
        return prev < 0 ? MISSING : prev;
    }

    /** The op that appended {@code e} to {@code k}, or {@link #MISSING}. */
    int get(int k, long e) {
        int b = base[k];
        if (b < 0) return sparse.get(k, e);
        if (e < min[k] || e > max[k]) return MISSING;
        return table[b + (int) (e - min[k])] - 1;
    }
}
