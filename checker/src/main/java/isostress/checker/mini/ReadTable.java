package isostress.checker.mini;

import isostress.checker.index.ExternalReads;
import isostress.checker.index.RegisterIndex;
import isostress.checker.history.History;

import java.util.Arrays;

/**
 * The usable external reads of every included transaction, in program order, with the version each returned: what
 * the saturation checks (RC, RA, CC) and the prefix search read, resolved once instead of once per level (each
 * resolution is a lookup in the write index), and found in one pass ({@link ExternalReads}).
 */
final class ReadTable {
    /** Per transaction, its reads are {@code start[t] .. start[t + 1] - 1}. */
    final int[] start;
    /** The op, the version read ({@link RegisterIndex#readSource}) and the dense key of each read. */
    final int[] op, src, key;

    private ReadTable(int[] start, int[] op, int[] src, int[] key) {
        this.start = start;
        this.op = op;
        this.src = src;
        this.key = key;
    }

    static ReadTable of(RegisterIndex m) {
        History h = m.h;
        ExternalReads ext = new ExternalReads(m);
        int[] start = new int[m.n + 1];
        int cap = Math.max(16, m.accCount);
        int[] op = new int[cap], src = new int[cap], key = new int[cap];
        int r = 0;
        for (int t = 0; t < m.n; t++) {
            start[t] = r;
            if (!m.included[t]) continue;
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                if (!ext.next(t, o)) continue;
                int s = m.readSource(t, o);
                if (s == RegisterIndex.NONE) continue;
                if (r == op.length) {
                    op = Arrays.copyOf(op, r * 2);
                    src = Arrays.copyOf(src, r * 2);
                    key = Arrays.copyOf(key, r * 2);
                }
                op[r] = o;
                src[r] = s;
                key[r++] = m.keyId(h.opKey(o));
            }
        }
        start[m.n] = r;
        return new ReadTable(start, op, src, key);
    }

    /** Builds the table on first use: a valid history checked at SER or SI never needs it. */
    static final class Lazy {
        private final RegisterIndex m;
        private ReadTable table;

        Lazy(RegisterIndex m) {
            this.m = m;
        }

        ReadTable get() {
            if (table == null) table = of(m);
            return table;
        }
    }
}
