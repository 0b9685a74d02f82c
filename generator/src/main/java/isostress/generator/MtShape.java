package isostress.generator;

/**
 * The 14 mini-transaction shapes of MTC (Wei et al., §III and Fig. 5): one or two keys, at most four
 * operations, every write preceded by a read of its key. {@code R1W1R2W2} reads key 1, writes key 1, reads key 2,
 * writes key 2.
 */
public enum MtShape {
    R1("R1"), R1R2("R1R2"), R1R1("R1R1"), R1W1("R1W1"), R1R2W2("R1R2W2"), R2R1W2("R2R1W2"), R1R1W1("R1R1W1"),
    R2W2R1("R2W2R1"), R1W1R1("R1W1R1"), R1R2W1W2("R1R2W1W2"), R1R2W2W1("R1R2W2W1"), R1W1R2W2("R1W1R2W2"),
    R1R1W1W1("R1R1W1W1"), R1W1R1W1("R1W1R1W1");

    private final boolean[] write;
    private final int[] slot;

    MtShape(String spec) {
        int n = spec.length() / 2;
        write = new boolean[n];
        slot = new int[n];
        for (int i = 0; i < n; i++) {
            write[i] = spec.charAt(2 * i) == 'W';
            slot[i] = spec.charAt(2 * i + 1) - '1';
        }
    }

    /** Number of operations. */
    public int size() {
        return write.length;
    }

    /** True when operation i is a write. */
    public boolean isWrite(int i) {
        return write[i];
    }

    /** Which key operation i uses: 0 (key 1) or 1 (key 2). */
    public int slot(int i) {
        return slot[i];
    }

    /** True when the shape uses two keys. */
    public boolean twoKeys() {
        for (int s : slot) if (s == 1) return true;
        return false;
    }

    /** True when it writes. */
    public boolean writes() {
        for (boolean w : write) if (w) return true;
        return false;
    }
}
