package isostress.checker.lin;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Linearizability of one register's operations: the Wing &amp; Gong search with Lowe's just-in-time linearization
 * and memoisation [1, 2], as Porcupine's {@code checkSingle} and Knossos's {@code :linear} implement it.
 *
 * <pre>
 * [1] J. M. Wing, C. Gong. "Testing and verifying concurrent objects." JPDC 17(1), 1993.
 * [2] G. Lowe. "Testing for linearizability." Concurrency and Computation: Practice and Experience 29(4), 2017
 *     (just-in-time linearization; the cache of (linearized set, state) pairs).
 * [3] A. Horn, D. Kroening. "Faster linearizability checking via P-compositionality." FORTE 2015
 *     (each key of a map of registers is checked alone: {@link RegisterOps#byKey}).
 * </pre>
 *
 * <p>Layout: call and return events sorted by position form a doubly linked list ({@code next}/{@code prev} over
 * event ids, {@code head} a sentinel). The search walks it from the head: at a call it tries to linearize the op
 * now (its model step must succeed and the pair (linearized set + op, new state) must be new to the cache [2]); on
 * success the op's call and return are unlinked ("lifted") and the walk restarts at the head. Reaching a return
 * means that op cannot be deferred any longer, so the last choice is undone (popped, unlifted) and the walk goes on
 * after it. An {@code info} write or cas has two successor states (applied or not): the frame keeps which one was
 * tried, so backtracking tries the other before moving on. The history is linearizable iff the list empties.
 *
 * <p>Counterexample: when the walk is blocked at a return, every op returning earlier is linearized (else the walk
 * would have stopped at its return first), so the prefix before that return is linearizable. The furthest blocked
 * return over the whole (exhaustive, up to the cache's equivalent states) search therefore ends the shortest prefix
 * that cannot be linearized; its op is the one that cannot be placed, and the linearization that got furthest is kept
 * to show the register's value there.
 *
 * <p>Cost: exponential in the worst case (the problem is NP-complete: Gibbons &amp; Korach 1997), near-linear when
 * concurrency is bounded. {@code budget} caps the walk's steps; past it the answer is unknown.
 */
final class WglSearch {
    /**
     * What the search found for one register.
     *
     * @param linearized      the last (at most {@link #TAIL}) ops of the furthest linearization, in order
     * @param linearizedCount how many ops that linearization holds in all
     */
    record Outcome(Kind kind, long steps, int blockedOp, int[] linearized, int linearizedCount, int stateBefore,
                   long prefixEnd) {
    }

    /** How many of the furthest linearization's last ops are kept for the counterexample. */
    static final int TAIL = 8;

    enum Kind { LINEARIZABLE, NOT_LINEARIZABLE, BUDGET_EXHAUSTED }

    private final RegisterOps ops;
    private final int n;
    private final int[] next, prev;   // linked list over events 0..2n-1, sentinel head = 2n, -1 = none
    private final int[] opOf;         // event -> op
    private final boolean[] isCall;
    private final int[] match;        // call event -> return event
    private final int[] rank;         // event -> position in sorted order (for "furthest")
    private final int head;

    WglSearch(RegisterOps ops) {
        this.ops = ops;
        n = ops.size();
        Integer[] events = new Integer[2 * n];
        for (int e = 0; e < 2 * n; e++) events[e] = e;
        // Event 2i is op i's call, 2i+1 its return; calls sort before returns at one position (info returns
        // share END_OF_TIME), so an op is never forced before a call at its own position.
        Arrays.sort(events, (x, y) -> {
            int c = Long.compare(pos(x), pos(y));
            return c != 0 ? c : Integer.compare(x & 1, y & 1);
        });
        next = new int[2 * n + 1];
        prev = new int[2 * n + 1];
        opOf = new int[2 * n];
        isCall = new boolean[2 * n];
        match = new int[2 * n];
        rank = new int[2 * n];
        head = 2 * n;
        int last = head;
        for (int r = 0; r < 2 * n; r++) {
            int e = events[r];
            opOf[e] = e >> 1;
            isCall[e] = (e & 1) == 0;
            match[e] = e ^ 1;
            rank[e] = r;
            next[last] = e;
            prev[e] = last;
            last = e;
        }
        next[last] = -1;
        if (n == 0) next[head] = -1;
    }

    private long pos(int event) {
        int i = event >> 1;
        return (event & 1) == 0 ? ops.call[i] : ops.ret[i];
    }

    /** Runs the search, taking at most {@code budget} steps. */
    Outcome run(long budget) {
        int words = (n + 63) >>> 6;
        long[] linearized = new long[words];
        Set<CacheKey> cache = new HashSet<>();
        int[] frameEvent = new int[n], frameState = new int[n], frameAlt = new int[n];
        int depth = 0;
        int state = ops.initial;
        int[] succ = new int[2];
        int bestRank = -1, bestOp = -1, bestState = 0, bestDepth = 0;
        int[] bestTail = new int[0];
        long steps = 0;
        int entry = next[head];
        int startAlt = 0;
        while (next[head] != -1) {
            if (++steps > budget) return new Outcome(Kind.BUDGET_EXHAUSTED, steps, -1, null, 0, 0, -1);
            if (isCall[entry]) {
                int i = opOf[entry];
                int k = ops.next(i, state, succ);
                boolean placed = false;
                linearized[i >>> 6] |= 1L << i;
                if ((i >>> 6) > highHint) highHint = i >>> 6;
                for (int alt = startAlt; alt < k && !placed; alt++) {
                    if (cache.add(key(linearized, succ[alt]))) {
                        frameEvent[depth] = entry;
                        frameState[depth] = state;
                        frameAlt[depth] = alt;
                        depth++;
                        state = succ[alt];
                        lift(entry);
                        placed = true;
                    }
                }
                if (!placed) clear(linearized, i);
                startAlt = 0;
                entry = placed ? next[head] : next[entry];
            } else {
                // A return whose op is not linearized: it cannot wait any longer. Only the linearization's last
                // ops are kept (all a counterexample shows): copying it all at each new furthest point is O(n^2).
                if (rank[entry] > bestRank) {
                    bestRank = rank[entry];
                    bestOp = opOf[entry];
                    bestState = state;
                    bestDepth = depth;
                    bestTail = new int[Math.min(depth, TAIL)];
                    for (int d = 0; d < bestTail.length; d++) bestTail[d] = opOf[frameEvent[depth - bestTail.length + d]];
                }
                if (depth == 0) {
                    return new Outcome(Kind.NOT_LINEARIZABLE, steps, bestOp, bestTail, bestDepth, bestState,
                            ops.ret[bestOp]);
                }
                depth--;
                int e = frameEvent[depth];
                state = frameState[depth];
                clear(linearized, opOf[e]);
                unlift(e);
                // Try the op's other successor state (info ops) before moving past it.
                entry = e;
                startAlt = frameAlt[depth] + 1;
            }
        }
        return new Outcome(Kind.LINEARIZABLE, steps, -1, null, 0, state, -1);
    }

    /*
     * The cache key is the linearized set in a compact form: ops are numbered in invocation order and the search
     * linearizes them roughly in that order, so the set is "every op below some point, then a window of bits". The
     * key keeps the first word that is not all ones (lo), and the words from it to the last non-zero word: O(window)
     * instead of O(n) per entry (an n-bit set per entry took 5.6 GB on a 100,000-op history). lowHint/highHint are
     * bounds kept across steps so finding lo and the last word does not rescan the set.
     */
    private int lowHint, highHint;

    private CacheKey key(long[] set, int state) {
        while (lowHint < set.length && set[lowHint] == -1L) lowHint++;
        int hi = Math.min(highHint, set.length - 1);
        while (hi > lowHint && set[hi] == 0) hi--;
        highHint = hi;
        int len = hi >= lowHint && lowHint < set.length && set[hi] != 0 ? hi - lowHint + 1 : 0;
        return new CacheKey(lowHint, Arrays.copyOfRange(set, lowHint, lowHint + len), state);
    }

    private void clear(long[] set, int i) {
        set[i >>> 6] &= ~(1L << i);
        if ((i >>> 6) < lowHint) lowHint = i >>> 6;
    }

    private void lift(int call) {
        next[prev[call]] = next[call];
        if (next[call] != -1) prev[next[call]] = prev[call];
        int ret = match[call];
        next[prev[ret]] = next[ret];
        if (next[ret] != -1) prev[next[ret]] = prev[ret];
    }

    private void unlift(int call) {
        int ret = match[call];
        next[prev[ret]] = ret;
        if (next[ret] != -1) prev[next[ret]] = ret;
        next[prev[call]] = call;
        if (next[call] != -1) prev[next[call]] = call;
    }

    /** A cache entry [2]: which ops are linearized and the register's value after them. */
    private static final class CacheKey {
        final int lo;
        final long[] bits;
        final int state;
        final int hash;

        CacheKey(int lo, long[] bits, int state) {
            this.lo = lo;
            this.bits = bits;
            this.state = state;
            this.hash = (Arrays.hashCode(bits) * 31 + lo) * 31 + state;
        }

        @Override public int hashCode() { return hash; }

        @Override public boolean equals(Object o) {
            if (!(o instanceof CacheKey)) return false;
            CacheKey k = (CacheKey) o;
            return k.state == state && k.lo == lo && Arrays.equals(k.bits, bits);
        }
    }
}
