package isostress.checker.index;

import isostress.checker.history.History;

import java.util.Arrays;

/**
 * Tells the external reads of a register history (a read, or CAS, of a key its transaction has not written before
 * it) in one pass: the ops of each transaction are fed in program order, and a mark per key says whether the
 * transaction wrote it already. Scanning back from each read instead is quadratic in one long transaction (issue 15:
 * 806,000 writes took minutes).
 */
public final class ExternalReads {
    private final RegisterIndex m;
    private final History h;
    /** Per dense key, the last transaction that wrote it (so far in the pass), or -1. */
    private final int[] writtenBy;

    public ExternalReads(RegisterIndex m) {
        this.m = m;
        this.h = m.h;
        writtenBy = new int[m.keyCount];
        Arrays.fill(writtenBy, -1);
    }

    /**
     * Feeds op {@code o} of transaction {@code t}; every op of a transaction must be fed, in program order, before any
     * op of a later one is asked about. True when {@code o} is an external read.
     */
    public boolean next(int t, int o) {
        byte kind = h.opKind(o);
        int k = m.keyId(h.opKey(o));
        boolean external = (kind == History.READ || kind == History.CAS) && writtenBy[k] != t;
        if (kind == History.WRITE || kind == History.CAS) writtenBy[k] = t;
        return external;
    }
}
