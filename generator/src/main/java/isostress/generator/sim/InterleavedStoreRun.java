package isostress.generator.sim;

import isostress.generator.sim.SnapshotStoreSimulation.Store;

import java.io.IOException;
import java.util.SplittableRandom;

/**
 * The sessions of a simulated multi-version store, as {@link SnapshotStoreSimulation} (registers) and
 * {@link ListAppendStoreSimulation} (lists) run them: sessions take turns at random on a global clock, one step a
 * turn: begin (the transaction's snapshot is the clock then, and its operations are drawn: a read or a write at even
 * odds, each on a key the store picks), one operation, or the commit. The commit is refused when a key the
 * transaction wrote was committed by another after its snapshot (first committer wins: snapshot isolation) and, for
 * {@link Store#SER}, also a key it read (backward validation: serializable, in commit order); {@link Store#RC}
 * refuses nothing. What a read returns, what a commit installs and how it is written are the store's.
 */
abstract class InterleavedStoreRun {
    final SplittableRandom r;
    final Store store;
    // per session: the open transaction, its snapshot, its planned and done operations
    final boolean[] open;
    final long[] sts;
    final int[] planned, done;
    final boolean[][] isRead;
    final int[][] key;
    final long[][] value;
    long clock = 1, committed, aborted;
    private final long txns;
    private final int sessions, minOps, maxOps;

    InterleavedStoreRun(long seed, long txns, int sessions, int minOps, int maxOps, Store store) {
        this.r = new SplittableRandom(seed);
        this.store = store;
        this.txns = txns;
        this.sessions = sessions;
        this.minOps = minOps;
        this.maxOps = maxOps;
        open = new boolean[sessions];
        sts = new long[sessions];
        planned = new int[sessions];
        done = new int[sessions];
        isRead = new boolean[sessions][maxOps];
        key = new int[sessions][maxOps];
        value = new long[sessions][maxOps];
    }

    /** The key of session {@code s}'s operation {@code i} (whose kind is drawn already), drawn from {@link #r}. */
    abstract int drawKey(int s, int i);

    /** Session {@code s}'s operation {@code i}, a read or a write, taking effect. */
    abstract void step(int s, int i);

    /** Session {@code s}'s transaction commits at {@code cts}: its writes installed, and it is written out. */
    abstract void commit(int s, long cts) throws IOException;

    /** When key {@code k} was last committed by a write, or 0. */
    abstract long lastCommit(int k);

    /** Turns until {@code txns} transactions committed. */
    final void interleave() throws IOException {
        while (committed < txns) {
            int s = r.nextInt(sessions);
            clock++;
            if (!open[s]) {
                begin(s);
            } else if (done[s] < planned[s]) {
                step(s, done[s]++);
            } else {
                open[s] = false;
                if (refused(s)) aborted++;
                else commit(s, clock);
            }
        }
    }

    private void begin(int s) {
        open[s] = true;
        sts[s] = clock;
        done[s] = 0;
        planned[s] = minOps + r.nextInt(maxOps - minOps + 1);
        for (int i = 0; i < planned[s]; i++) {
            isRead[s][i] = r.nextBoolean();
            key[s][i] = drawKey(s, i);
        }
    }

    private boolean refused(int s) {
        if (store == Store.RC) return false;
        for (int i = 0; i < planned[s]; i++) {
            if (lastCommit(key[s][i]) > sts[s] && (!isRead[s][i] || store == Store.SER)) return true;
        }
        return false;
    }
}
