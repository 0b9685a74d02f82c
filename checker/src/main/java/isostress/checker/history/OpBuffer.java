package isostress.checker.history;

import java.util.Arrays;

/**
 * The micro-ops of one event while its line is being parsed, before the transaction they belong to is known.
 * Reused across lines, so parsing allocates nothing per op.
 */
final class OpBuffer {
    int size;
    byte[] kind = new byte[8];
    boolean[] isNull = new boolean[8];
    long[] key = new long[8], value = new long[8], value2 = new long[8];
    /** A list read's elements: {@code lists[i][listFrom[i]..+listLen[i])}, in {@code own[i]} or a caller's array. */
    long[][] lists = new long[8][], own = new long[8][];
    int[] listFrom = new int[8], listLen = new int[8];

    void clear() {
        size = 0;
    }

    void read(long k, long v, boolean nul) {
        add(History.READ, k, v, 0, nul);
    }

    void write(long k, long v) {
        add(History.WRITE, k, v, 0, false);
    }

    void append(long k, long v) {
        add(History.APPEND, k, v, 0, false);
    }

    void cas(long k, long expected, boolean expectedNull, long newValue) {
        add(History.CAS, k, expected, newValue, expectedNull);
    }

    /** Starts a list read; add its elements with {@link #listElement}. {@code nul}: the list is unknown. */
    void listRead(long k, boolean nul) {
        add(History.LIST_READ, k, 0, 0, nul);
        int i = size - 1;
        if (own[i] == null) own[i] = new long[8];
        lists[i] = own[i];
        listFrom[i] = 0;
        listLen[i] = 0;
    }

    /**
     * A list read of {@code src[from..from+n)}, not copied: {@code src} must not change until the ops are flushed
     * ({@link #copyFrom} copies them into this buffer's own arrays).
     */
    void listRead(long k, long[] src, int from, int n) {
        add(History.LIST_READ, k, 0, 0, false);
        int i = size - 1;
        lists[i] = src;
        listFrom[i] = from;
        listLen[i] = n;
    }

    void listElement(long v) {
        int i = size - 1;
        if (listLen[i] == own[i].length) lists[i] = own[i] = Arrays.copyOf(own[i], listLen[i] * 2);
        own[i][listLen[i]++] = v;
    }

    private void add(byte kd, long k, long v, long v2, boolean nul) {
        if (size == kind.length) {
            int n = size * 2;
            kind = Arrays.copyOf(kind, n);
            isNull = Arrays.copyOf(isNull, n);
            key = Arrays.copyOf(key, n);
            value = Arrays.copyOf(value, n);
            value2 = Arrays.copyOf(value2, n);
            lists = Arrays.copyOf(lists, n);
            own = Arrays.copyOf(own, n);
            listFrom = Arrays.copyOf(listFrom, n);
            listLen = Arrays.copyOf(listLen, n);
        }
        kind[size] = kd;
        key[size] = k;
        value[size] = v;
        value2[size] = v2;
        isNull[size] = nul;
        size++;
    }

    /** Copies the ops into the builder's open transaction. */
    void flushTo(History.Builder b) {
        for (int i = 0; i < size; i++) {
            switch (kind[i]) {
                case History.READ:
                    if (isNull[i]) b.readNull(key[i]); else b.read(key[i], value[i]);
                    break;
                case History.WRITE: b.write(key[i], value[i]); break;
                case History.APPEND: b.append(key[i], value[i]); break;
                case History.CAS: b.cas(key[i], isNull[i] ? null : value[i], value2[i]); break;
                case History.LIST_READ:
                    b.listRead(key[i], isNull[i] ? null : lists[i], listFrom[i], listLen[i]);
                    break;
                default: throw new IllegalStateException();
            }
        }
    }

    /** Makes this buffer hold the same ops as {@code o} (to keep an invocation's ops until it completes). */
    void copyFrom(OpBuffer o) {
        clear();
        for (int i = 0; i < o.size; i++) {
            if (o.kind[i] == History.LIST_READ) {
                listRead(o.key[i], o.isNull[i]);
                for (int j = 0; j < o.listLen[i]; j++) listElement(o.lists[i][o.listFrom[i] + j]);
            } else {
                add(o.kind[i], o.key[i], o.value[i], o.value2[i], o.isNull[i]);
            }
        }
    }
}
