package isostress.checker.reference;

import java.util.List;
import java.util.Map;

/**
 * A version order taken as given (the database's commit log, docs/witness.md), for the references: per key, its
 * writers (transaction ids) in order. A commit order (or arbitration) is consistent with it when, for every key, it
 * places the key's committed writers in that order; the references enumerate only those. Writers left out of the
 * committed set simply drop out of the order.
 */
final class FixedOrder {
    private FixedOrder() {
    }

    /** {@code m[u][t]}: u and t write a common key and u comes first in its order (history ids). */
    static boolean[][] precedes(int size, Map<Long, List<Integer>> order) {
        boolean[][] m = new boolean[size][size];
        if (order == null) return m;
        for (List<Integer> writers : order.values()) {
            for (int i = 0; i < writers.size(); i++) {
                for (int j = i + 1; j < writers.size(); j++) m[writers.get(i)][writers.get(j)] = true;
            }
        }
        return m;
    }
}
