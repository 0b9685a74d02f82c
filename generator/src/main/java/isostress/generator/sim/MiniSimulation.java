package isostress.generator.sim;

import isostress.checker.history.History;
import isostress.checker.history.InitialState;
import isostress.checker.history.Outcome;
import isostress.generator.KeyDistribution;
import isostress.generator.MtShape;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A simulated key-value store running random mini-transactions from concurrent sessions, recording the history a
 * client would see. Deterministic from the seed. Used for reference histories (tests, benchmarks) whose verdict is
 * known by construction, as Elle's {@code sim-si-test} does.
 *
 * <p>Each step picks a random session and advances its transaction: invoke, then (for serializable) execute
 * atomically at that step, then complete; so every transaction takes effect between its invocation and completion
 * and the history is strictly serializable. Under snapshot isolation a transaction reads the snapshot of its
 * invocation and commits at a later step unless a transaction that committed meanwhile wrote one of its keys
 * (first committer wins): the history is SI but may show write skew. With the configured rates a transaction fails
 * (aborts, recorded {@code fail}) or ends {@code info} (unknown outcome: it may or may not have taken effect; its
 * process is then retired, as in Jepsen). Keys start at 0; written values count up from 1 per key.
 */
public final class MiniSimulation {
    /** The isolation the store provides. */
    public enum Isolation { SERIALIZABLE, SNAPSHOT_ISOLATION }

    /**
     * @param txns      transactions invoked, across all sessions
     * @param sessions  concurrent sessions
     * @param keys      key distribution (and key count)
     * @param isolation what the store provides
     * @param failRate  probability that a transaction aborts
     * @param infoRate  probability that a transaction's outcome is unknown
     * @param seed      random seed
     */
    public record Config(int txns, int sessions, KeyDistribution keys, Isolation isolation, double failRate,
                         double infoRate, long seed) {
        public Config {
            if (txns < 0) throw new IllegalArgumentException("txns must be >= 0");
            if (sessions < 1) throw new IllegalArgumentException("sessions must be >= 1");
            if (failRate < 0 || infoRate < 0 || failRate + infoRate > 1) {
                throw new IllegalArgumentException("fail and info rates must be probabilities");
            }
        }

        /** A serializable run without failures. */
        public static Config serializable(int txns, int sessions, KeyDistribution keys, long seed) {
            return new Config(txns, sessions, keys, Isolation.SERIALIZABLE, 0, 0, seed);
        }
    }

    private static final MtShape[] SHAPES = MtShape.values();
    private static final int IDLE = 0, INVOKED = 1, EXECUTED = 2;

    private final Config c;
    private final TxnSink sink;
    private final SplittableRandom rnd;
    private final int keyCount;
    private final long[] lastValue;
    private final long[] current;
    // Snapshot isolation: committed versions per key, in commit-timestamp order.
    private long[][] versionTs, versionValue;
    private int[] versionCount;
    private long clock;
    private long index;

    private MiniSimulation(Config c, TxnSink sink) {
        this.c = c;
        this.sink = sink;
        this.rnd = new SplittableRandom(c.seed());
        this.keyCount = c.keys().keys();
        this.lastValue = new long[keyCount];
        this.current = new long[keyCount];
        if (c.isolation() == Isolation.SNAPSHOT_ISOLATION) {
            versionTs = new long[keyCount][];
            versionValue = new long[keyCount][];
            versionCount = new int[keyCount];
        }
    }

    /** Runs the simulation into {@code sink}. */
    public static void run(Config c, TxnSink sink) throws IOException {
        new MiniSimulation(c, sink).run();
    }

    /** Runs the simulation and returns its history. */
    public static History history(Config c) {
        HistorySink s = new HistorySink();
        try {
            run(c, s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return s.history();
    }

    private void run() throws IOException {
        sink.header(InitialState.allKeys(0L));
        int n = c.sessions();
        int[] state = new int[n];
        long[] process = new long[n];
        long[] start = new long[n];
        TxnOps[] ops = new TxnOps[n];
        for (int s = 0; s < n; s++) {
            process[s] = s;
            ops[s] = new TxnOps();
        }
        int[] active = new int[n];
        for (int s = 0; s < n; s++) active[s] = s;
        int activeCount = n;
        int issued = 0;
        while (activeCount > 0) {
            int ai = rnd.nextInt(activeCount);
            int s = active[ai];
            switch (state[s]) {
                case IDLE:
                    if (issued == c.txns()) {
                        active[ai] = active[--activeCount];
                        continue;
                    }
                    issued++;
                    plan(ops[s]);
                    start[s] = clock;
                    sink.invoke(index++, process[s], ops[s]);
                    state[s] = INVOKED;
                    break;
                case INVOKED: {
                    double r = rnd.nextDouble();
                    if (r < c.failRate()) {
                        ops[s].forgetReads();
                        sink.complete(index++, process[s], Outcome.FAIL, ops[s]);
                        state[s] = IDLE;
                    } else if (r < c.failRate() + c.infoRate()) {
                        boolean took = rnd.nextBoolean() && execute(ops[s], start[s]);
                        if (took) sink.commit(process[s], ops[s]); else ops[s].forgetReads();
                        sink.complete(index++, process[s], Outcome.INFO, ops[s]);
                        process[s] += n;
                        state[s] = IDLE;
                    } else if (execute(ops[s], start[s])) {
                        sink.commit(process[s], ops[s]);
                        state[s] = EXECUTED;
                    } else {
                        ops[s].forgetReads(); // first committer wins: aborted
                        sink.complete(index++, process[s], Outcome.FAIL, ops[s]);
                        state[s] = IDLE;
                    }
                    break;
                }
                default:
                    sink.complete(index++, process[s], Outcome.OK, ops[s]);
                    state[s] = IDLE;
            }
        }
        sink.finish();
    }

    /** Draws a shape and its keys; assigns each write a fresh value. */
    private void plan(TxnOps ops) {
        ops.clear();
        MtShape shape = SHAPES[rnd.nextInt(SHAPES.length)];
        if (keyCount < 2) {
            while (shape.twoKeys()) shape = SHAPES[rnd.nextInt(SHAPES.length)];
        }
        int k1 = c.keys().next(rnd);
        int k2 = k1;
        if (shape.twoKeys()) {
            while (k2 == k1) k2 = c.keys().next(rnd);
        }
        for (int i = 0; i < shape.size(); i++) {
            int k = shape.slot(i) == 0 ? k1 : k2;
            if (shape.isWrite(i)) ops.write(k, ++lastValue[k]); else ops.read(k);
        }
    }

    /** Executes (SER) or tries to commit (SI) the transaction; fills in its reads. False when aborted. */
    private boolean execute(TxnOps ops, long startTs) {
        if (c.isolation() == Isolation.SERIALIZABLE) {
            for (int i = 0; i < ops.size; i++) {
                int k = (int) ops.key[i];
                if (ops.isRead(i)) {
                    ops.value[i] = current[k];
                    ops.unknown[i] = false;
                } else {
                    current[k] = ops.value[i];
                }
            }
            return true;
        }
        for (int i = 0; i < ops.size; i++) {
            int k = (int) ops.key[i];
            if (!ops.isRead(i) && versionCount[k] > 0 && versionTs[k][versionCount[k] - 1] > startTs) return false;
        }
        for (int i = 0; i < ops.size; i++) {
            int k = (int) ops.key[i];
            if (!ops.isRead(i)) continue;
            long own = ownWriteBefore(ops, i);
            ops.value[i] = own >= 0 ? own : snapshotValue(k, startTs);
            ops.unknown[i] = false;
        }
        long ts = ++clock;
        for (int i = 0; i < ops.size; i++) {
            if (ops.isRead(i)) continue;
            int k = (int) ops.key[i];
            if (ownWriteAfter(ops, i)) continue; // only the last write of a key is installed
            if (versionTs[k] == null) {
                versionTs[k] = new long[4];
                versionValue[k] = new long[4];
            } else if (versionCount[k] == versionTs[k].length) {
                versionTs[k] = Arrays.copyOf(versionTs[k], versionCount[k] * 2);
                versionValue[k] = Arrays.copyOf(versionValue[k], versionCount[k] * 2);
            }
            versionTs[k][versionCount[k]] = ts;
            versionValue[k][versionCount[k]++] = ops.value[i];
        }
        return true;
    }

    private static long ownWriteBefore(TxnOps ops, int i) {
        for (int j = i - 1; j >= 0; j--) if (!ops.isRead(j) && ops.key[j] == ops.key[i]) return ops.value[j];
        return -1;
    }

    private static boolean ownWriteAfter(TxnOps ops, int i) {
        for (int j = i + 1; j < ops.size; j++) if (!ops.isRead(j) && ops.key[j] == ops.key[i]) return true;
        return false;
    }

    private long snapshotValue(int k, long ts) {
        int lo = 0, hi = versionCount[k] - 1, best = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (versionTs[k][mid] <= ts) {
                best = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return best < 0 ? 0 : versionValue[k][best];
    }
}
