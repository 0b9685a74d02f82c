package isostress.checker.index;

import isostress.checker.history.History;
import isostress.checker.history.InputException;

import java.util.Arrays;

/**
 * Who wrote each (key, value): the writes of a history grouped by dense key, each key's values sorted, so a read is
 * resolved by a binary search inside its key's bucket.
 *
 * <p>Written instead of a (key, value) hash table because it is the index's measured bottleneck: a million
 * mini-transactions make about three million lookups, and a hash table turns each into a cache miss anywhere in a
 * hundred megabytes; buckets keep a key's versions together, and the bucketing itself is sequential counting. With
 * unique values a bucket is a sorted set, so duplicates show up as equal neighbours while sorting.
 *
 * <p>A write's code is {@code access << 1} for a transaction's final write of the key and {@code txn << 1 | 1} for an
 * intermediate one (a value the transaction overwrote itself).
 */
public final class WriteIndex {
    public static final int MISSING = -1;

    private final int[] start;
    /**
     * Write i's value at {@code 2i}, its code at {@code 2i + 1}: one array, so that a lookup's hit reads one cache
     * line, not one in a value array and another in a code array.
     */
    private final long[] slots;

    /**
     * @param keyCount dense keys
     * @param n        number of writes
     * @param key      dense key of each write
     * @param value    value of each write
     * @param code     code of each write
     */
    public WriteIndex(int keyCount, int n, int[] key, long[] value, int[] code) {
        start = new int[keyCount + 1];
        for (int i = 0; i < n; i++) start[key[i] + 1]++;
        for (int k = 0; k < keyCount; k++) start[k + 1] += start[k];
        slots = new long[2 * n];
        int[] fill = Arrays.copyOf(start, keyCount);
        for (int i = 0; i < n; i++) {
            int p = fill[key[i]]++;
            slots[2 * p] = value[i];
            slots[2 * p + 1] = code[i];
        }
        for (int k = 0; k < keyCount; k++) {
            int len = start[k + 1] - start[k];
            sort(start[k], start[k + 1], 2 * (32 - Integer.numberOfLeadingZeros(len)));
        }
    }

    /** The code of the write of {@code value} to dense key {@code k}, or {@link #MISSING}. */
    public int get(int k, long value) {
        int lo = start[k], hi = start[k + 1] - 1;
        if (hi - lo < 8) {
            for (int i = lo; i <= hi; i++) if (slots[2 * i] == value) return (int) slots[2 * i + 1];
            return MISSING;
        }
        // One interpolation step first: workloads number a key's values in write order (a counter per key, or one
        // for the whole run), so a bucket's sorted values are close to evenly spaced and the guess is usually the
        // place, which saves the binary search's unpredictable branches.
        long first = slots[2 * lo], last = slots[2 * hi];
        if (value < first || value > last) return MISSING;
        // In doubles: the differences of arbitrary longs overflow; the guess is clamped, as rounding may stray.
        int guess = lo + (int) (((double) value - first) / ((double) last - first) * (hi - lo));
        guess = Math.max(lo, Math.min(hi, guess));
        if (slots[2 * guess] == value) return (int) slots[2 * guess + 1];
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long v = slots[2 * mid];
            if (v < value) lo = mid + 1;
            else if (v > value) hi = mid - 1;
            else return (int) slots[2 * mid + 1];
        }
        return MISSING;
    }

    /**
     * The first duplicate found: positions of two writes of the same value to the same key, as {@code {code1,
     * code2}}, or null.
     */
    public int[] duplicate() {
        java.util.List<int[]> runs = duplicateRuns();
        return runs.isEmpty() ? null : new int[] {runs.get(0)[0], runs.get(0)[1]};
    }

    /**
     * Every group of writes of one value to one key, as the codes of its writes (each group at least two), in key
     * order; empty when values are unique per key.
     */
    public java.util.List<int[]> duplicateRuns() {
        java.util.List<int[]> runs = new java.util.ArrayList<>();
        for (int k = 0; k + 1 < start.length; k++) {
            int i = start[k] + 1;
            while (i < start[k + 1]) {
                if (slots[2 * i] != slots[2 * (i - 1)]) {
                    i++;
                    continue;
                }
                int from = i - 1;
                while (i < start[k + 1] && slots[2 * i] == slots[2 * from]) i++;
                int[] run = new int[i - from];
                for (int j = from; j < i; j++) run[j - from] = (int) slots[2 * j + 1];
                runs.add(run);
            }
        }
        return runs;
    }

    /** Value of the write with {@code code} in key {@code k}'s bucket (for messages). */
    public long valueOf(int k, int code) {
        for (int i = start[k]; i < start[k + 1]; i++) if ((int) slots[2 * i + 1] == code) return slots[2 * i];
        throw new IllegalStateException("no such write");
    }

    /**
     * Sorts writes [lo, hi) by value, codes alongside: insertion sort for small buckets, quicksort for hot keys, heapsort
     * when quicksort's partitions stay unbalanced past {@code depth} levels (introsort, Musser 1997): one transaction
     * overwriting a key many times lists its final write before its intermediate ones, a rotated sorted run that
     * makes median-of-three quicksort quadratic.
     */
    private void sort(int lo, int hi, int depth) {
        while (hi - lo > 16) {
            if (depth-- == 0) {
                heapSort(lo, hi);
                return;
            }
            long pivot = median(slots[2 * lo], slots[2 * ((lo + hi) >>> 1)], slots[2 * (hi - 1)]);
            int i = lo, j = hi - 1;
            while (i <= j) {
                while (slots[2 * i] < pivot) i++;
                while (slots[2 * j] > pivot) j--;
                if (i <= j) swap(i++, j--);
            }
            if (j - lo < hi - i) {
                sort(lo, j + 1, depth);
                lo = i;
            } else {
                sort(i, hi, depth);
                hi = j + 1;
            }
        }
        for (int i = lo + 1; i < hi; i++) {
            long v = slots[2 * i];
            long c = slots[2 * i + 1];
            int j = i - 1;
            while (j >= lo && slots[2 * j] > v) {
                slots[2 * (j + 1)] = slots[2 * j];
                slots[2 * (j + 1) + 1] = slots[2 * j + 1];
                j--;
            }
            slots[2 * (j + 1)] = v;
            slots[2 * (j + 1) + 1] = c;
        }
    }

    private void heapSort(int lo, int hi) {
        int n = hi - lo;
        for (int i = n / 2 - 1; i >= 0; i--) siftDown(lo, i, n);
        for (int end = n - 1; end > 0; end--) {
            swap(lo, lo + end);
            siftDown(lo, 0, end);
        }
    }

    /** Restores the max-heap of writes [lo, lo + n) below position i (relative to lo). */
    private void siftDown(int lo, int i, int n) {
        while (true) {
            int c = 2 * i + 1;
            if (c >= n) return;
            if (c + 1 < n && slots[2 * (lo + c + 1)] > slots[2 * (lo + c)]) c++;
            if (slots[2 * (lo + i)] >= slots[2 * (lo + c)]) return;
            swap(lo + i, lo + c);
            i = c;
        }
    }

    private void swap(int i, int j) {
        long v = slots[2 * i];
        slots[2 * i] = slots[2 * j];
        slots[2 * j] = v;
        long c = slots[2 * i + 1];
        slots[2 * i + 1] = slots[2 * j + 1];
        slots[2 * j + 1] = c;
    }

    private static long median(long a, long b, long c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }

    /**
     * The writes of a register history: each access's final write ({@code access << 1}) and each intermediate
     * write ({@code txn << 1 | 1}); raises {@link InputException} naming both writers of a value written twice.
     */
    static WriteIndex ofRegisterWrites(History h, int keyCount, int acc, int[] aKey, boolean[] aWrites,
                                          long[] aWrite, int[] aTxn, int inter, int[] iKey, long[] iValue,
                                          int[] iTxn, long[] keyOf) {
        int n = inter;
        for (int a = 0; a < acc; a++) if (aWrites[a]) n++;
        int[] key = new int[n], code = new int[n];
        long[] value = new long[n];
        int j = 0;
        for (int a = 0; a < acc; a++) {
            if (!aWrites[a]) continue;
            key[j] = aKey[a];
            value[j] = aWrite[a];
            code[j++] = a << 1;
        }
        for (int i = 0; i < inter; i++) {
            key[j] = iKey[i];
            value[j] = iValue[i];
            code[j++] = (iTxn[i] << 1) | 1;
        }
        WriteIndex idx = new WriteIndex(keyCount, n, key, value, code);
        int[] dup = idx.duplicate();
        if (dup != null) {
            int t1 = (dup[0] & 1) == 1 ? dup[0] >>> 1 : aTxn[dup[0] >>> 1];
            int t2 = (dup[1] & 1) == 1 ? dup[1] >>> 1 : aTxn[dup[1] >>> 1];
            int later = Math.max(t1, t2), earlier = Math.min(t1, t2);
            int k = (dup[0] & 1) == 0 ? aKey[dup[0] >>> 1] : keyOfIntermediate(dup[0] >>> 1, inter, iTxn, iKey);
            long v = idx.valueOf(k, dup[0]);
            throw new InputException(h.source(), h.line(later), "duplicate written value: transaction T" + later
                    + " writes " + v + " to key " + keyOf[k] + ", already written by T" + earlier + " (line "
                    + h.line(earlier) + "); every write of a key must write a value never written to it before");
        }
        return idx;
    }

    private static int keyOfIntermediate(int txn, int inter, int[] iTxn, int[] iKey) {
        for (int i = 0; i < inter; i++) if (iTxn[i] == txn) return iKey[i];
        throw new IllegalStateException();
    }
}
