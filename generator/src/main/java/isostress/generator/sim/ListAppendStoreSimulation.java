package isostress.generator.sim;

import isostress.generator.sim.SnapshotStoreSimulation.Stats;
import isostress.generator.sim.SnapshotStoreSimulation.Store;

import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;

/**
 * {@link SnapshotStoreSimulation}'s stores with list-append transactions: each write appends a value unique per key
 * (a per-key counter from 1) and each read returns the key's whole list in the transaction's snapshot, its own
 * earlier appends to the key at the end. Sessions interleave one step at a time on a global clock, as there; the
 * {@link Store#SI} store refuses a commit when a key it appended to was appended to by a commit after its snapshot
 * (first committer wins: snapshot isolation, with write skews, so not serializable), {@link Store#SER} also when a
 * key it read was (serializable, in commit order), and {@link Store#RC} reads the latest committed lists and refuses
 * nothing (read committed, with fractured reads, so not read atomic). Lists start empty; aborted transactions are
 * not written.
 *
 * <p>A key is retired, replaced by a fresh one, after {@code appendsPerKey} appends were planned to it, as Jepsen's
 * list-append workload does: {@code keys} keys are in use at any time and lists stay short however long the run,
 * where unbounded lists would make the file grow with the square of the transactions.
 *
 * <p>Output: Chronos/TimeKiller JSON (one committed transaction per line, {@code "t":"a"} appends and reads of lists,
 * with start and commit timestamps, in commit order; TimeKiller takes it with {@code --data_model list}) or
 * isostress's JSON lines (each committed transaction's invocation and completion, in commit order, after a header
 * saying the history has no real-time order). Transactions are numbered from 1 in commit order.
 */
public final class ListAppendStoreSimulation {
    /** The output format. */
    public enum Format { CHRONOS, JSONL }

    /**
     * @param txns          committed transactions to write
     * @param sessions      concurrent sessions
     * @param keys          keys in use at any time, chosen uniformly
     * @param minOps        fewest ops per transaction (each a read or an append, even odds)
     * @param maxOps        most ops per transaction
     * @param appendsPerKey appends after which a key is retired
     */
    public record Config(int txns, int sessions, int keys, int minOps, int maxOps, int appendsPerKey, Store store,
                         long seed) {
        public Config {
            if (txns < 1 || sessions < 1 || keys < 1 || minOps < 1 || maxOps < minOps || appendsPerKey < 1) {
                throw new IllegalArgumentException("need txns, sessions, keys, appendsPerKey >= 1 and "
                        + "1 <= minOps <= maxOps");
            }
        }

        /** {@link SnapshotStoreSimulation.Config#of}'s shape: 2 to 6 ops. */
        public static Config of(int txns, int sessions, int keys, int appendsPerKey, Store store, long seed) {
            return new Config(txns, sessions, keys, 2, 6, appendsPerKey, store, seed);
        }
    }

    private ListAppendStoreSimulation() {
    }

    /** Runs the simulation until {@code c.txns()} transactions committed, writing them to {@code out}. */
    public static Stats run(Config c, Format format, Writer out) throws IOException {
        return new Run(c, format, out).go();
    }

    private static final class Run extends InterleavedStoreRun {
        private final Config c;
        private final Format format;
        private final Writer out;
        private final StringBuilder sb = new StringBuilder(4096);
        // per slot: the key in use and the appends planned to it
        private final int[] slotKey, slotAppends;
        // per key id: committed appends in commit order (commit timestamp, value), the last commit timestamp, the
        // last value handed out
        private long[][] appendTs = new long[0][], appendValue = new long[0][];
        private int[] appends = new int[0];
        private long[] lastCommit = new long[0], lastValue = new long[0];
        private int keyIds;
        // per session: a read's list is the first readPrefix committed appends of its key, then the transaction's
        // own earlier appends to it
        private final int[][] readPrefix;
        private long index;

        Run(Config c, Format format, Writer out) {
            super(c.seed(), c.txns(), c.sessions(), c.minOps(), c.maxOps(), c.store());
            this.c = c;
            this.format = format;
            this.out = out;
            slotKey = new int[c.keys()];
            slotAppends = new int[c.keys()];
            for (int i = 0; i < c.keys(); i++) slotKey[i] = newKey();
            readPrefix = new int[c.sessions()][c.maxOps()];
        }

        private int newKey() {
            if (keyIds == appends.length) {
                int n = Math.max(16, keyIds * 2);
                appendTs = Arrays.copyOf(appendTs, n);
                appendValue = Arrays.copyOf(appendValue, n);
                appends = Arrays.copyOf(appends, n);
                lastCommit = Arrays.copyOf(lastCommit, n);
                lastValue = Arrays.copyOf(lastValue, n);
            }
            return keyIds++;
        }

        Stats go() throws IOException {
            if (format == Format.CHRONOS) out.write("[\n");
            else out.write("{\"type\":\"header\",\"real-time\":false}\n");
            interleave();
            if (format == Format.CHRONOS) out.write("\n]\n");
            out.flush();
            return new Stats(committed, aborted);
        }

        /** A slot's key; an append takes its value now, and the slot's key is retired after its last append. */
        @Override
        int drawKey(int s, int i) {
            int slot = r.nextInt(c.keys());
            int k = slotKey[slot];
            if (!isRead[s][i]) {
                value[s][i] = ++lastValue[k];
                if (++slotAppends[slot] == c.appendsPerKey()) {
                    slotKey[slot] = newKey();
                    slotAppends[slot] = 0;
                }
            }
            return k;
        }

        @Override
        long lastCommit(int k) {
            return lastCommit[k];
        }

        /** A read fixes how many committed appends of its key it sees; an append waits for the commit. */
        @Override
        void step(int s, int i) {
            if (!isRead[s][i]) return;
            int k = key[s][i];
            readPrefix[s][i] = store == Store.RC ? appends[k] : visible(k, sts[s]);
        }

        /** How many committed appends of {@code k} precede {@code ts}: a prefix, since commits come in order. */
        private int visible(int k, long ts) {
            int n = appends[k];
            while (n > 0 && appendTs[k][n - 1] >= ts) n--;
            return n;
        }

        @Override
        void commit(int s, long cts) throws IOException {
            for (int i = 0; i < planned[s]; i++) {
                if (isRead[s][i]) continue;
                int k = key[s][i];
                install(k, cts, value[s][i]);
                lastCommit[k] = cts;
            }
            committed++;
            if (format == Format.CHRONOS) chronos(s, cts);
            else jsonl(s);
        }

        private void install(int k, long ts, long v) {
            int n = appends[k];
            if (appendTs[k] == null) {
                appendTs[k] = new long[8];
                appendValue[k] = new long[8];
            } else if (n == appendTs[k].length) {
                appendTs[k] = Arrays.copyOf(appendTs[k], n * 2);
                appendValue[k] = Arrays.copyOf(appendValue[k], n * 2);
            }
            appendTs[k][n] = ts;
            appendValue[k][n] = v;
            appends[k] = n + 1;
        }

        /** Op {@code i}'s list: the committed prefix it saw, then the transaction's own earlier appends to the key. */
        private void list(int s, int i) {
            int k = key[s][i];
            sb.append('[');
            int p = readPrefix[s][i];
            for (int j = 0; j < p; j++) {
                if (j > 0) sb.append(',');
                sb.append(appendValue[k][j]);
            }
            boolean first = p == 0;
            for (int j = 0; j < i; j++) {
                if (isRead[s][j] || key[s][j] != k) continue;
                if (!first) sb.append(',');
                sb.append(value[s][j]);
                first = false;
            }
            sb.append(']');
        }

        private void chronos(int s, long cts) throws IOException {
            sb.setLength(0);
            if (committed > 1) sb.append(",\n");
            sb.append("{\"cts\":{\"l\":0,\"p\":").append(cts).append("},\"sid\":").append(s)
                    .append(",\"sts\":{\"l\":0,\"p\":").append(sts[s]).append("},\"tid\":").append(committed)
                    .append(",\"ops\":[");
            for (int i = 0; i < planned[s]; i++) {
                if (i > 0) sb.append(',');
                sb.append("{\"k\":").append(key[s][i]).append(",\"t\":\"").append(isRead[s][i] ? 'r' : 'a')
                        .append("\",\"v\":");
                if (isRead[s][i]) list(s, i);
                else sb.append(value[s][i]);
                sb.append('}');
            }
            out.append(sb.append("]}"));
        }

        private void jsonl(int s) throws IOException {
            sb.setLength(0);
            for (int ok = 0; ok < 2; ok++) {
                sb.append("{\"index\":").append(index++).append(",\"type\":\"").append(ok == 0 ? "invoke" : "ok")
                        .append("\",\"process\":").append(s).append(",\"f\":\"txn\",\"value\":[");
                for (int i = 0; i < planned[s]; i++) {
                    if (i > 0) sb.append(',');
                    if (!isRead[s][i]) {
                        sb.append("[\"append\",").append(key[s][i]).append(',').append(value[s][i]).append(']');
                    } else {
                        sb.append("[\"r\",").append(key[s][i]).append(',');
                        if (ok == 0) sb.append("null");
                        else list(s, i);
                        sb.append(']');
                    }
                }
                sb.append("]}\n");
            }
            out.append(sb);
        }
    }
}
