package isostress.checker.index;

import isostress.checker.history.History;

import java.util.Arrays;

/**
 * The usable external reads of one transaction at a time, in program order, with the version each returned
 * ({@link RegisterIndex#readSource}) and its dense key: what the saturation checks, the prefix search and the general checker's observations read, found in
 * one pass over the transaction ({@link ExternalReads}), so a long transaction costs linear time.
 */
public final class TxnReads {
    private final RegisterIndex m;
    private final ExternalReads external;
    /** Reads 0 .. count-1 of the last transaction loaded. */
    public int count;
    public int[] op = new int[16], src = new int[16], key = new int[16];

    public TxnReads(RegisterIndex m) {
        this.m = m;
        this.external = new ExternalReads(m);
    }

    /** Loads the reads of included transaction {@code t}; returns their count. */
    public int load(int t) {
        History h = m.h;
        external.begin();
        count = 0;
        for (int o = h.firstOp(t); o < h.endOp(t); o++) {
            if (!external.next(o)) continue;
            int s = m.readSource(t, o);
            if (s == RegisterIndex.NONE) continue;
            if (count == op.length) {
                op = Arrays.copyOf(op, count * 2);
                src = Arrays.copyOf(src, count * 2);
                key = Arrays.copyOf(key, count * 2);
            }
            op[count] = o;
            src[count] = s;
            key[count++] = m.keyId(h.opKey(o));
        }
        return count;
    }
}
