package isostress.checker.general;

import isostress.checker.history.LongPairIntMap;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Serializability, prefix consistency and snapshot isolation of a committed history by search over prefixes:
 * Biswas &amp; Enea, OOPSLA 2019, §4.1 Alg. 2 (checkSER), with the reductions of §4.2 (PC to SER of the history
 * whose transactions are split into a read half R_t and a write half W_t) and §4.3 (SI: additionally no write
 * half may come between the read and write halves of a transaction that writes a common key). The reductions are
 * applied on the fly while traversing the history, as the paper's implementation does (§6).
 *
 * <p>A state is the per-session position (for PC/SI in half-transactions). A move appends the next half of some
 * session when it is a valid extension (§4.1): a read half needs the write halves of the transactions it reads from
 * in the prefix; a write half needs, for every key it writes, every reader of the key's latest version to be in
 * the prefix already (kept as a counter per key: {@code pending}); under SI also no other transaction writing that
 * key with its read half in and its write half out ({@code open}). Failed states are memoised (the paper's
 * {@code seen}). Depth-first, iterative (histories have millions of moves), with an undo log.
 *
 * <p>Exponential in the number of sessions in the worst case (Theorem 3.2: NP-complete), polynomial for a fixed
 * number (Corollary 4.3); the search visits at most {@code budget} states and otherwise answers unknown.
 */
public final class PrefixSearch {
    /** Which level to decide. */
    public enum Mode { SER, PC, SI }

    /** The answer. */
    public enum Answer { VALID, INVALID, UNKNOWN }

    /** The answer with the number of states visited. */
    public record Outcome(Answer answer, long states) {
    }

    private final SearchHistory h;
    private final Mode mode;
    private final int[] pos;
    private final int[] latest;
    private final int[] pending;
    private final int[] open;
    private final LongPairIntMap readerCount;
    private int[] log = new int[1024];
    private int logTop;

    private PrefixSearch(SearchHistory h, Mode mode) {
        this.h = h;
        this.mode = mode;
        pos = new int[h.sessions];
        latest = new int[h.keys];
        pending = new int[h.keys];
        open = new int[h.keys];
        Arrays.fill(latest, -1);
        readerCount = new LongPairIntMap(Math.max(16, h.readKey.length));
        for (int t = 0; t < h.n; t++) {
            for (int i = h.readStart[t]; i < h.readStart[t + 1]; i++) {
                long src = h.readSrc[i], key = h.readKey[i];
                int c = readerCount.get(src, key);
                readerCount.put(src, key, c == LongPairIntMap.MISSING ? 1 : c + 1);
            }
        }
        for (int k = 0; k < h.keys; k++) pending[k] = readers(-1, k);
    }

    /** Decides {@code mode} for {@code h}, visiting at most {@code budget} states. */
    public static Outcome check(SearchHistory h, Mode mode, long budget) {
        return new PrefixSearch(h, mode).run(budget, null);
    }

    /**
     * As {@link #check(SearchHistory, Mode, long)}, trying at each step the sessions whose next transaction has the
     * lowest {@code priority} first (e.g. its completion time: the commit order of a real execution mostly follows
     * it). The order of moves changes only how soon a valid order is found, never the answer.
     */
    public static Outcome check(SearchHistory h, Mode mode, long budget, int[] priority) {
        return new PrefixSearch(h, mode).run(budget, priority);
    }

    private int readers(int src, int key) {
        int c = readerCount.get(src, key);
        return c == LongPairIntMap.MISSING ? 0 : c;
    }

    private Outcome run(long budget, int[] priority) {
        boolean split = mode != Mode.SER;
        int total = split ? 2 * h.n : h.n;
        int[] nextTry = new int[total + 1];
        int[] logStart = new int[total + 1];
        int S = h.sessions;
        // order[depth * S + i]: the i-th session to try at that depth.
        int[] order = new int[(total + 1) * S];
        Set<StateKey> failed = new HashSet<>();
        int depth = 0;
        long states = 0;
        orderSessions(order, 0, priority);
        while (true) {
            if (depth == total) return new Outcome(Answer.VALID, states);
            int found = -1;
            for (int i = nextTry[depth]; i < S; i++) {
                int s = order[depth * S + i];
                if (!tryMove(s)) continue;
                if (failed.contains(new StateKey(pos))) {
                    undo(logStart[depth]);
                    continue;
                }
                found = i;
                break;
            }
            if (found >= 0) {
                nextTry[depth] = found + 1;
                depth++;
                nextTry[depth] = 0;
                logStart[depth] = logTop;
                orderSessions(order, depth, priority);
                if (++states > budget) return new Outcome(Answer.UNKNOWN, states);
            } else {
                failed.add(new StateKey(pos.clone()));
                if (depth == 0) return new Outcome(Answer.INVALID, states);
                depth--;
                undo(logStart[depth]);
            }
        }
    }

    /** Fills the session order of {@code depth}: by the priority of each session's next transaction, or by index. */
    private void orderSessions(int[] order, int depth, int[] priority) {
        int S = h.sessions, base = depth * S;
        for (int s = 0; s < S; s++) order[base + s] = s;
        if (priority == null) return;
        boolean split = mode != Mode.SER;
        long[] keyed = new long[S];
        for (int s = 0; s < S; s++) {
            int len = h.sessionStart[s + 1] - h.sessionStart[s];
            int step = pos[s];
            long p = Integer.MAX_VALUE;
            if (step < (split ? 2 * len : len)) {
                p = 2L * priority[h.sessionTxns[h.sessionStart[s] + (split ? step / 2 : step)]] + (split ? step % 2 : 0);
            }
            keyed[s] = (p << 20) | s;
        }
        Arrays.sort(keyed);
        for (int s = 0; s < S; s++) order[base + s] = (int) (keyed[s] & ((1 << 20) - 1));
    }

    /** Applies the next move of session s if it is a valid extension; logs what to undo. */
    private boolean tryMove(int s) {
        int len = h.sessionStart[s + 1] - h.sessionStart[s];
        int step = pos[s];
        boolean split = mode != Mode.SER;
        if (step == (split ? 2 * len : len)) return false;
        int t = h.sessionTxns[h.sessionStart[s] + (split ? step / 2 : step)];
        int mark = logTop;
        if (!split || step % 2 == 0) {
            if (!readable(t)) return false;
            applyRead(t);
            if (!split) {
                if (!writable(t)) {
                    undo(mark);
                    return false;
                }
                applyWrite(t);
            }
        } else {
            if (!writable(t)) return false;
            applyWrite(t);
        }
        push(0, s, pos[s]);
        pos[s]++;
        return true;
    }

    private boolean readable(int t) {
        for (int i = h.readStart[t]; i < h.readStart[t + 1]; i++) {
            int src = h.readSrc[i];
            if (src >= 0 && !writeDone(src)) return false;
        }
        return true;
    }

    private boolean writeDone(int u) {
        int s = h.sessionOf[u];
        int idx = h.indexInSession[u];
        return mode == Mode.SER ? pos[s] > idx : pos[s] > 2 * idx + 1;
    }

    private boolean writable(int t) {
        for (int i = h.writeStart[t]; i < h.writeStart[t + 1]; i++) {
            int k = h.writeKey[i];
            if (pending[k] != 0) return false;
            if (mode == Mode.SI && open[k] != 1) return false;
        }
        return true;
    }

    private void applyRead(int t) {
        for (int i = h.readStart[t]; i < h.readStart[t + 1]; i++) {
            int k = h.readKey[i];
            if (latest[k] != h.readSrc[i]) {
                throw new IllegalStateException("read of an overwritten version admitted: transaction " + t);
            }
            push(1, k, pending[k]);
            pending[k]--;
        }
        if (mode == Mode.SI) {
            for (int i = h.writeStart[t]; i < h.writeStart[t + 1]; i++) {
                int k = h.writeKey[i];
                push(3, k, open[k]);
                open[k]++;
            }
        }
    }

    private void applyWrite(int t) {
        for (int i = h.writeStart[t]; i < h.writeStart[t + 1]; i++) {
            int k = h.writeKey[i];
            push(2, k, latest[k]);
            push(1, k, pending[k]);
            latest[k] = t;
            pending[k] = readers(t, k);
            if (mode == Mode.SI) {
                push(3, k, open[k]);
                open[k]--;
            }
        }
    }

    /** Undo record: what (0 pos, 1 pending, 2 latest, 3 open), which index, the old value. */
    private void push(int what, int index, int old) {
        if (logTop + 3 > log.length) log = Arrays.copyOf(log, log.length * 2);
        log[logTop++] = what;
        log[logTop++] = index;
        log[logTop++] = old;
    }

    private void undo(int mark) {
        while (logTop > mark) {
            int old = log[--logTop], index = log[--logTop], what = log[--logTop];
            switch (what) {
                case 0: pos[index] = old; break;
                case 1: pending[index] = old; break;
                case 2: latest[index] = old; break;
                default: open[index] = old; break;
            }
        }
    }

    /** A memoised state: the position vector. */
    private static final class StateKey {
        private final int[] pos;
        private final int hash;

        StateKey(int[] pos) {
            this.pos = pos;
            this.hash = Arrays.hashCode(pos);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof StateKey && Arrays.equals(pos, ((StateKey) o).pos);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
