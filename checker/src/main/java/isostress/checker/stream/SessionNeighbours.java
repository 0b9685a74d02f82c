package isostress.checker.stream;

import isostress.checker.history.LongPairIntMap;

import java.util.Arrays;

/**
 * Session order for a screen: each transaction that comes in is joined to its session's nearest neighbours already
 * in, by invocation (its number in the history). Transactions come in by completion (and a reader waits for its
 * writers), so a session's mostly arrive in order: appending is O(1), and a late one is inserted by binary search.
 * Sorted arrays per session rather than a {@code TreeMap<Long, Integer>}: the streaming check's profile had the
 * tree's boxing and pointer chasing at 5% of its time.
 */
final class SessionNeighbours {
    /** Receives a session-order edge. */
    interface Edges {
        void edge(int from, int to);
    }

    private final LongPairIntMap index = new LongPairIntMap(64);
    private long[][] invokes = new long[16][];
    private int[][] nodes = new int[16][];
    private int[] len = new int[16];
    private int sessions;

    /** Takes {@code node}, invoked {@code invocation}-th by {@code process}, and reports its edges to its neighbours. */
    void add(long process, long invocation, int node, Edges edges) {
        int s = index.get(process, 0);
        if (s == LongPairIntMap.MISSING) s = open(process);
        long[] inv = invokes[s];
        int[] nd = nodes[s];
        int n = len[s];
        int at = n > 0 && inv[n - 1] < invocation ? n : insertionPoint(inv, n, invocation);
        if (n == inv.length) {
            invokes[s] = inv = Arrays.copyOf(inv, n * 2);
            nodes[s] = nd = Arrays.copyOf(nd, n * 2);
        }
        if (at < n) {
            System.arraycopy(inv, at, inv, at + 1, n - at);
            System.arraycopy(nd, at, nd, at + 1, n - at);
        }
        inv[at] = invocation;
        nd[at] = node;
        len[s] = n + 1;
        if (at > 0) edges.edge(nd[at - 1], node);
        if (at < n) edges.edge(node, nd[at + 1]);
    }

    private static int insertionPoint(long[] inv, int n, long invocation) {
        int i = Arrays.binarySearch(inv, 0, n, invocation);
        return i >= 0 ? i : -i - 1;
    }

    private int open(long process) {
        if (sessions == invokes.length) {
            int m = sessions * 2;
            invokes = Arrays.copyOf(invokes, m);
            nodes = Arrays.copyOf(nodes, m);
            len = Arrays.copyOf(len, m);
        }
        invokes[sessions] = new long[16];
        nodes[sessions] = new int[16];
        index.put(process, 0, sessions);
        return sessions++;
    }
}
