package isostress.generator.sim;

import isostress.checker.history.History;

import java.util.Arrays;

/** The register ops of one simulated transaction (reads and writes), reused from one transaction to the next. */
public final class TxnOps {
    int size;
    byte[] kind = new byte[8];
    long[] key = new long[8];
    long[] value = new long[8];
    boolean[] unknown = new boolean[8];

    void clear() {
        size = 0;
    }

    void read(long k) {
        add(History.READ, k, 0, true);
    }

    void write(long k, long v) {
        add(History.WRITE, k, v, false);
    }

    private void add(byte kd, long k, long v, boolean unk) {
        if (size == kind.length) {
            kind = Arrays.copyOf(kind, size * 2);
            key = Arrays.copyOf(key, size * 2);
            value = Arrays.copyOf(value, size * 2);
            unknown = Arrays.copyOf(unknown, size * 2);
        }
        kind[size] = kd;
        key[size] = k;
        value[size] = v;
        unknown[size] = unk;
        size++;
    }

    public int size() {
        return size;
    }

    public boolean isRead(int i) {
        return kind[i] == History.READ;
    }

    public long key(int i) {
        return key[i];
    }

    /** The value written, or read; meaningless when {@link #unknown}. */
    public long value(int i) {
        return value[i];
    }

    /** True for a read whose value is not known (not executed). */
    public boolean unknown(int i) {
        return unknown[i];
    }

    /** Marks every read unknown (a transaction that did not execute). */
    void forgetReads() {
        for (int i = 0; i < size; i++) if (kind[i] == History.READ) unknown[i] = true;
    }
}
