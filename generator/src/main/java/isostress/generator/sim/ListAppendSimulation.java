package isostress.generator.sim;

import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A simulated serializable store running list-append transactions of Jepsen's shape (elle's {@code append}
 * generator): each transaction has 1 to {@code maxOps} micro-ops, each an append of a fresh value or a read of a whole
 * list, on a pool of {@code activeKeys} keys; a key is retired (replaced by a new one) once {@code appendsPerKey}
 * appends went to it, so lists stay short however long the run. A large {@code appendsPerKey} with few keys gives the
 * "very long lists" shape. Streams JSON lines without holding the history, so ten million transactions cost no heap.
 *
 * <p>Every transaction executes atomically between its invocation and completion (the step after it is invoked), so
 * the history is strictly serializable by construction. Deterministic from the seed.
 */
public final class ListAppendSimulation {
    /**
     * @param txns          transactions, across all sessions
     * @param sessions      concurrent sessions
     * @param maxOps        micro-ops per transaction, drawn uniformly from 1..maxOps
     * @param reads         probability that a micro-op is a read
     * @param activeKeys    keys in use at any time
     * @param appendsPerKey appends after which a key is retired
     * @param seed          random seed
     */
    public record Config(int txns, int sessions, int maxOps, double reads, int activeKeys, int appendsPerKey,
                         long seed) {
        public Config {
            if (txns < 0 || sessions < 1 || maxOps < 1 || activeKeys < 1 || appendsPerKey < 1) {
                throw new IllegalArgumentException("txns >= 0, sessions, ops, keys and appends per key >= 1");
            }
            if (reads < 0 || reads > 1) throw new IllegalArgumentException("reads must be a probability");
        }

        /** Jepsen's shape: 1-4 ops, half reads, 10 active keys, each retired after 100 appends. */
        public static Config jepsen(int txns, int sessions, long seed) {
            return new Config(txns, sessions, 4, 0.5, 10, 100, seed);
        }
    }

    private final Config c;
    private final Writer out;
    private final SimulatedLog log;
    private final SplittableRandom rnd;
    private final StringBuilder sb = new StringBuilder(1024);
    /** The pool of active keys, and appends planned per pool slot. */
    private final long[] pool;
    private final int[] planned;
    private long nextKey;
    /** Lists of keys in flight or in the pool, by key id; a retired key's list is dropped when no one reads it. */
    private final java.util.Map<Long, long[]> lists = new java.util.HashMap<>();
    private final java.util.Map<Long, Integer> lengths = new java.util.HashMap<>();
    private final java.util.Map<Long, Integer> users = new java.util.HashMap<>();
    private long index;

    private ListAppendSimulation(Config c, Writer out, SimulatedLog log) {
        this.c = c;
        this.out = out;
        this.log = log;
        this.rnd = new SplittableRandom(c.seed());
        this.pool = new long[c.activeKeys()];
        this.planned = new int[c.activeKeys()];
        for (int i = 0; i < pool.length; i++) pool[i] = nextKey++;
    }

    /** Writes the run to {@code out} as JSON lines. */
    public static void run(Config c, Writer out) throws IOException {
        new ListAppendSimulation(c, out, null).run();
    }

    /** As {@link #run(Config, Writer)}, with the store's commit log written to {@code log}. */
    public static void run(Config c, Writer out, SimulatedLog log) throws IOException {
        new ListAppendSimulation(c, out, log).run();
    }

    /** One session's transaction in flight: kinds (true: append), keys, appended values. */
    private static final class Txn {
        int size;
        boolean[] append = new boolean[8];
        long[] key = new long[8], value = new long[8];
        int[] readLen = new int[8];
        long[][] read = new long[8][];
    }

    private void run() throws IOException {
        int n = c.sessions();
        Txn[] txn = new Txn[n];
        boolean[] invoked = new boolean[n];
        for (int s = 0; s < n; s++) txn[s] = new Txn();
        int[] active = new int[n];
        for (int s = 0; s < n; s++) active[s] = s;
        int activeCount = n, issued = 0;
        while (activeCount > 0) {
            int ai = rnd.nextInt(activeCount);
            int s = active[ai];
            if (!invoked[s]) {
                if (issued == c.txns()) {
                    active[ai] = active[--activeCount];
                    continue;
                }
                issued++;
                plan(txn[s]);
                line(s, "invoke", txn[s], true);
                invoked[s] = true;
            } else {
                execute(txn[s]);
                if (log != null) log.commit(txn[s].key, txn[s].value, txn[s].append, true, txn[s].size);
                line(s, "ok", txn[s], false);
                release(txn[s]);
                invoked[s] = false;
            }
        }
        out.flush();
    }

    private void plan(Txn t) {
        t.size = 1 + rnd.nextInt(c.maxOps());
        for (int i = 0; i < t.size; i++) {
            int slot = rnd.nextInt(pool.length);
            long k = pool[slot];
            t.key[i] = k;
            users.merge(k, 1, Integer::sum);
            t.append[i] = rnd.nextDouble() >= c.reads();
            if (t.append[i]) {
                t.value[i] = ++planned[slot]; // values count up from 1 per key: unique per key
                if (planned[slot] == c.appendsPerKey()) {
                    pool[slot] = nextKey++;
                    planned[slot] = 0;
                }
            }
        }
    }

    /** Runs the transaction atomically: appends extend the key's list, reads copy it. */
    private void execute(Txn t) {
        for (int i = 0; i < t.size; i++) {
            long k = t.key[i];
            long[] l = lists.get(k);
            int len = lengths.getOrDefault(k, 0);
            if (t.append[i]) {
                if (l == null) l = new long[8];
                if (len == l.length) l = Arrays.copyOf(l, len * 2);
                l[len++] = t.value[i];
                lists.put(k, l);
                lengths.put(k, len);
            } else {
                if (t.read[i] == null || t.read[i].length < len) t.read[i] = new long[Math.max(8, len)];
                if (len > 0) System.arraycopy(l, 0, t.read[i], 0, len);
                t.readLen[i] = len;
            }
        }
    }

    /** Drops the lists of retired keys nobody will touch again. */
    private void release(Txn t) {
        for (int i = 0; i < t.size; i++) {
            long k = t.key[i];
            int u = users.merge(k, -1, Integer::sum);
            if (u == 0) {
                users.remove(k);
                boolean inPool = false;
                for (long p : pool) inPool |= p == k;
                if (!inPool) {
                    lists.remove(k);
                    lengths.remove(k);
                }
            }
        }
    }

    private void line(int process, String type, Txn t, boolean invoke) throws IOException {
        sb.setLength(0);
        sb.append("{\"index\":").append(index++).append(",\"type\":\"").append(type).append("\",\"process\":")
          .append(process).append(",\"f\":\"txn\",\"value\":[");
        for (int i = 0; i < t.size; i++) {
            if (i > 0) sb.append(',');
            if (t.append[i]) {
                sb.append("[\"append\",").append(t.key[i]).append(',').append(t.value[i]).append(']');
            } else if (invoke) {
                sb.append("[\"r\",").append(t.key[i]).append(",null]");
            } else {
                sb.append("[\"r\",").append(t.key[i]).append(",[");
                for (int j = 0; j < t.readLen[i]; j++) {
                    if (j > 0) sb.append(',');
                    sb.append(t.read[i][j]);
                }
                sb.append("]]");
            }
        }
        out.append(sb.append("]}\n"));
    }
}
