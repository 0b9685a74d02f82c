package isostress.checker.stream;

import isostress.checker.history.LongPairIntMap;

import java.util.Arrays;

/**
 * Each session's transactions by invocation, for the nearest neighbours of one that comes in: session order is their
 * transitive closure, so an edge to each neighbour is enough.
 *
 * <p>Why not a {@code TreeMap} per session: it cost 12% of the checking thread in a profile of a million-transaction
 * list-append replay (a tree walk of cache misses per transaction). A session runs one transaction at a time, so its
 * transactions nearly always come in invocation order, and the new one goes at the end of a sorted array in O(1), its
 * neighbour the last entry. One admitted late (it waited for the writer of what it read) is placed by binary search
 * and the entries after it shift: O(those entries), which is a few, as it came in only a few places late.
 */
final class SessionNeighbours {
    /** Returned for a neighbour that does not exist. */
    static final int NONE = -1;

    private final LongPairIntMap number = new LongPairIntMap(64);
    private long[][] invoke = new long[16][];
    private int[][] node = new int[16][];
    private int[] len = new int[16];
    private int sessions;
    /** The neighbours the last {@link #insert} found: the session's transactions invoked just before and after it. */
    private int before, after;

    /**
     * Puts {@code node}, invoked {@code invocation}-th (its number in the history) in session {@code process}, among
     * its session's transactions, and finds its neighbours ({@link #before()}, {@link #after()}). A second
     * transaction of the same session with the same number (an ill-formed input) replaces the first, which is both
     * neighbours, as a sorted map would have it.
     */
    void insert(long process, long invocation, int v) {
        int s = number.get(process, 0);
        if (s == LongPairIntMap.MISSING) {
            s = sessions++;
            number.put(process, 0, s);
            if (s == invoke.length) {
                invoke = Arrays.copyOf(invoke, s * 2);
                node = Arrays.copyOf(node, s * 2);
                len = Arrays.copyOf(len, s * 2);
            }
            invoke[s] = new long[8];
            node[s] = new int[8];
        }
        long[] inv = invoke[s];
        int[] nd = node[s];
        int n = len[s];
        if (n == 0 || inv[n - 1] < invocation) { // in order: the common case
            before = n == 0 ? NONE : nd[n - 1];
            after = NONE;
            append(s, n, invocation, v);
            return;
        }
        int i = Arrays.binarySearch(inv, 0, n, invocation);
        if (i >= 0) {
            before = after = nd[i];
            nd[i] = v;
            return;
        }
        i = -i - 1;
        before = i == 0 ? NONE : nd[i - 1];
        after = nd[i];
        if (n == inv.length) grow(s);
        inv = invoke[s];
        nd = node[s];
        System.arraycopy(inv, i, inv, i + 1, n - i);
        System.arraycopy(nd, i, nd, i + 1, n - i);
        inv[i] = invocation;
        nd[i] = v;
        len[s] = n + 1;
    }

    int before() {
        return before;
    }

    int after() {
        return after;
    }

    private void append(int s, int n, long invocation, int v) {
        if (n == invoke[s].length) grow(s);
        invoke[s][n] = invocation;
        node[s][n] = v;
        len[s] = n + 1;
    }

    private void grow(int s) {
        invoke[s] = Arrays.copyOf(invoke[s], invoke[s].length * 2);
        node[s] = Arrays.copyOf(node[s], node[s].length * 2);
    }
}
