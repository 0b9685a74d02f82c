package isostress.checker.index;

import isostress.checker.history.History;
import isostress.checker.history.LongPairIntMap;

import java.util.Arrays;

/**
 * Dense ids of a history's keys: direct indexing when the keys are integers in a range not much larger than the
 * number of operations (the usual case: workloads number their keys), one array read instead of a hash probe per
 * op; a hash map otherwise.
 */
public final class KeyIds {
    private final long min;
    /** Direct table, or null when the keys are too sparse and {@link #map} holds them. */
    private final int[] ids;
    private final LongPairIntMap map;

    private KeyIds(long min, int[] ids, LongPairIntMap map) {
        this.min = min;
        this.ids = ids;
        this.map = map;
    }

    public static KeyIds of(History h) {
        int ops = h.opCount();
        if (ops == 0) return sparse();
        long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
        for (int o = 0; o < ops; o++) {
            long k = h.opKey(o);
            if (k < min) min = k;
            if (k > max) max = k;
        }
        long range = max - min + 1;
        if (range <= 0 || range > Math.max(1 << 16, 4L * ops) || range > (1 << 28)) return sparse();
        int[] ids = new int[(int) range];
        Arrays.fill(ids, LongPairIntMap.MISSING);
        return new KeyIds(min, ids, null);
    }

    private static KeyIds sparse() {
        return new KeyIds(0, null, new LongPairIntMap(1024));
    }

    /** The id of a key of the history, or {@link LongPairIntMap#MISSING} before {@link #put}. */
    public int get(long key) {
        return ids != null ? ids[(int) (key - min)] : map.get(key, 0);
    }

    /** Gives a key of the history its id. */
    public void put(long key, int id) {
        if (ids != null) ids[(int) (key - min)] = id;
        else map.put(key, 0, id);
    }

    /** The id of any key, or {@link LongPairIntMap#MISSING} for a key the history does not have. */
    public int find(long key) {
        if (ids != null) {
            long off = key - min;
            return off < 0 || off >= ids.length ? LongPairIntMap.MISSING : ids[(int) off];
        }
        return map.get(key, 0);
    }
}
