package isostress.generator.sim;

import java.util.Arrays;

/**
 * One session's transaction in flight in a {@link GeneralSimulation}: its operations as parallel arrays (kind, key,
 * written or read value, null reads, list reads), with buffers reused from one transaction to the next so that a run
 * of millions of transactions allocates little.
 */
final class PendingTxn {
    static final byte READ = 0, WRITE = 1;

    int id;
    int size;
    /** The commit count at invocation: the snapshot of SI and PREFIX. */
    int snap;
    boolean readOnly;
    byte[] kind = new byte[8];
    long[] key = new long[8];
    long[] value = new long[8];
    boolean[] nul = new boolean[8];
    long[][] list = new long[8][];
    int[] listLen = new int[8];

    void ensure(int ops) {
        if (ops <= kind.length) return;
        int m = Math.max(ops, kind.length * 2);
        kind = Arrays.copyOf(kind, m);
        key = Arrays.copyOf(key, m);
        value = Arrays.copyOf(value, m);
        nul = Arrays.copyOf(nul, m);
        list = Arrays.copyOf(list, m);
        listLen = Arrays.copyOf(listLen, m);
    }

    /** Index of the transaction's last write of op i's key before op i, or -1. */
    int ownWriteBefore(int i) {
        for (int j = i - 1; j >= 0; j--) if (kind[j] == WRITE && key[j] == key[i]) return j;
        return -1;
    }

    /** Whether op i (a write) is followed by another write of its key in this transaction. */
    boolean writtenAgainAfter(int i) {
        for (int j = i + 1; j < size; j++) if (kind[j] == WRITE && key[j] == key[i]) return true;
        return false;
    }
}
