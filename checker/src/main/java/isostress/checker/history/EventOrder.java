package isostress.checker.history;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The events of a history in index order, for writers: each transaction's invocation and completion (none when
 * pending) and the side events. Event code {@code 2t} is the invocation of transaction t, {@code 2t+1} its
 * completion, and {@code -(i+1)} side event i.
 */
final class EventOrder {
    private EventOrder() {
    }

    static int[] of(History h) {
        int n = h.size();
        List<SideEvent> side = h.sideEvents();
        int pendingCount = 0;
        for (int t = 0; t < n; t++) if (h.completeIndex(t) == History.PENDING) pendingCount++;
        int m = 2 * n - pendingCount + side.size();
        long[] keys = new long[m];
        int[] codes = new int[m];
        int k = 0;
        for (int t = 0; t < n; t++) {
            keys[k] = h.invokeIndex(t);
            codes[k++] = 2 * t;
            if (h.completeIndex(t) != History.PENDING) {
                keys[k] = h.completeIndex(t);
                codes[k++] = 2 * t + 1;
            }
        }
        for (int i = 0; i < side.size(); i++) {
            keys[k] = side.get(i).index();
            codes[k++] = -(i + 1);
        }
        return sortCodes(keys, codes);
    }

    /** Sorts codes by key; ties keep their order. Packs into longs when it can (the common, fast case). */
    private static int[] sortCodes(long[] keys, int[] codes) {
        int m = keys.length;
        boolean packable = m < (1 << 24);
        for (long key : keys) if (key < 0 || key >= (1L << 38)) { packable = false; break; }
        int[] out = new int[m];
        if (packable) {
            long[] packed = new long[m];
            for (int i = 0; i < m; i++) packed[i] = (keys[i] << 25) | i;
            Arrays.sort(packed);
            for (int i = 0; i < m; i++) out[i] = codes[(int) (packed[i] & ((1 << 25) - 1))];
            return out;
        }
        Integer[] idx = new Integer[m];
        for (int i = 0; i < m; i++) idx[i] = i;
        Arrays.sort(idx, Comparator.comparingLong((Integer i) -> keys[i]).thenComparingInt(i -> i));
        for (int i = 0; i < m; i++) out[i] = codes[idx[i]];
        return out;
    }
}
