package isostress.checker.index;

import isostress.checker.history.History;

/**
 * Tells the external reads of a register history's transactions (a read, or CAS, of a key the transaction has not
 * written before it) in one pass over each: after {@link #begin()}, the transaction's ops are fed in program order,
 * and a stamp per key says whether this transaction wrote it already. Scanning back from each read instead is
 * quadratic in one long transaction (806,000 writes took minutes).
 */
public final class ExternalReads {
    private final RegisterIndex m;
    private final History h;
    /** Per dense key, the pass ({@link #begin}) in which it was last written. */
    private final int[] writtenIn;
    private int pass;

    public ExternalReads(RegisterIndex m) {
        this.m = m;
        this.h = m.h;
        writtenIn = new int[m.keyCount];
    }

    /** Starts a transaction: no key written yet. */
    public void begin() {
        pass++;
    }

    /** Feeds the transaction's next op {@code o}; true when it is an external read. */
    public boolean next(int o) {
        byte kind = h.opKind(o);
        int k = m.keyId(h.opKey(o));
        boolean external = (kind == History.READ || kind == History.CAS) && writtenIn[k] != pass;
        if (kind == History.WRITE || kind == History.CAS) writtenIn[k] = pass;
        return external;
    }
}
