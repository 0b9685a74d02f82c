package isostress.generator.sim;

import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;

/**
 * A simulated multi-version store with snapshot isolation (first committer wins), for comparisons with the peer
 * checkers on their own formats. Sessions interleave one step at a time on a global clock: a transaction takes its
 * snapshot when it starts (its start timestamp), reads the last version committed before it (or its own write),
 * and at commit is aborted when another transaction committed a write to one of its keys after its snapshot.
 *
 * <p>{@link Store#SI} histories are snapshot isolation but not serializable (write skews abound);
 * {@link Store#SER} also aborts a transaction when a key it read was overwritten after its snapshot (backward
 * validation), so its histories are serializable, in commit-timestamp order even. {@link Store#RC}, for contrast,
 * reads the last committed version at each read (no snapshot) and refuses no commit: read committed, but with
 * fractured reads, so not read atomic (nor causal, nor SI) with few keys. Every key starts at 0 and no
 * transaction writes 0; values are unique (a counter). Aborted transactions are not written.
 *
 * <p>Output: Chronos/TimeKiller JSON (one committed transaction per line, with its start and commit timestamps, in
 * commit order) or the {@code r(key,value,session,txn)} text of MTC, PolySI, Plume and AWDIT (sessions numbered
 * from 1). Transactions are numbered from 1 in commit order across sessions, since Plume and AWDIT key a transaction
 * by its number alone.
 */
public final class SnapshotStoreSimulation {
    /** The store's isolation: what a read sees and which commits are refused. */
    public enum Store { SI, SER, RC }

    /** The output format. */
    public enum Format { CHRONOS, TEXT }

    /**
     * @param txns     committed transactions to write
     * @param sessions concurrent sessions
     * @param keys     keys 0..keys-1, chosen uniformly
     * @param minOps   fewest ops per transaction (each a read or a write, even odds)
     * @param maxOps   most ops per transaction
     */
    public record Config(int txns, int sessions, int keys, int minOps, int maxOps, Store store, long seed) {
        public Config {
            if (txns < 1 || sessions < 1 || keys < 1 || minOps < 1 || maxOps < minOps) {
                throw new IllegalArgumentException("need txns, sessions, keys >= 1 and 1 <= minOps <= maxOps");
            }
        }

        /** gen_si's shape: 2 to 6 ops. */
        public static Config of(int txns, int sessions, int keys, Store store, long seed) {
            return new Config(txns, sessions, keys, 2, 6, store, seed);
        }
    }

    /** What a run produced: transactions committed and aborted. */
    public record Stats(long committed, long aborted) {
    }

    private SnapshotStoreSimulation() {
    }

    /** Runs the simulation until {@code c.txns()} transactions committed, writing them to {@code out}. */
    public static Stats run(Config c, Format format, Writer out) throws IOException {
        return new Run(c, format, out).go();
    }

    private static final class Run extends InterleavedStoreRun {
        private final Config c;
        private final Format format;
        private final Writer out;
        private final StringBuilder sb = new StringBuilder(512);
        // per key: committed versions in commit order (commit timestamp, value), and the last commit timestamp
        private final long[][] versionTs, versionValue;
        private final int[] versions;
        private final long[] lastCommit;
        private long counter;

        Run(Config c, Format format, Writer out) {
            super(c.seed(), c.txns(), c.sessions(), c.minOps(), c.maxOps(), c.store());
            this.c = c;
            this.format = format;
            this.out = out;
            versionTs = new long[c.keys()][];
            versionValue = new long[c.keys()][];
            versions = new int[c.keys()];
            lastCommit = new long[c.keys()];
        }

        Stats go() throws IOException {
            if (format == Format.CHRONOS) out.write("[\n");
            interleave();
            if (format == Format.CHRONOS) out.write("\n]\n");
            out.flush();
            return new Stats(committed, aborted);
        }

        @Override
        int drawKey(int s, int i) {
            return r.nextInt(c.keys());
        }

        @Override
        long lastCommit(int k) {
            return lastCommit[k];
        }

        @Override
        void step(int s, int i) {
            int k = key[s][i];
            if (isRead[s][i]) {
                long own = ownWrite(s, i, k);
                value[s][i] = own >= 0 ? own : snapshotRead(k, store == Store.RC ? clock : sts[s]);
            } else {
                value[s][i] = ++counter;
            }
        }

        /** The value of the transaction's last write to {@code k} before op {@code i}, or -1. */
        private long ownWrite(int s, int i, int k) {
            for (int j = i - 1; j >= 0; j--) if (!isRead[s][j] && key[s][j] == k) return value[s][j];
            return -1;
        }

        /** The last version of {@code k} committed before {@code ts}, 0 (the initial value) when none. */
        private long snapshotRead(int k, long ts) {
            for (int v = versions[k] - 1; v >= 0; v--) if (versionTs[k][v] < ts) return versionValue[k][v];
            return 0;
        }

        @Override
        void commit(int s, long cts) throws IOException {
            for (int i = 0; i < planned[s]; i++) {
                if (isRead[s][i] || laterWrite(s, i)) continue; // the key's final value is installed once
                int k = key[s][i];
                install(k, cts, value[s][i]);
                lastCommit[k] = cts;
            }
            write(s, cts);
            committed++;
        }

        /** True when the transaction writes op {@code i}'s key again later (then that write's value is installed). */
        private boolean laterWrite(int s, int i) {
            for (int j = i + 1; j < planned[s]; j++) if (!isRead[s][j] && key[s][j] == key[s][i]) return true;
            return false;
        }

        private void install(int k, long ts, long v) {
            int n = versions[k];
            if (versionTs[k] == null) {
                versionTs[k] = new long[4];
                versionValue[k] = new long[4];
            } else if (n == versionTs[k].length) {
                versionTs[k] = Arrays.copyOf(versionTs[k], n * 2);
                versionValue[k] = Arrays.copyOf(versionValue[k], n * 2);
            }
            versionTs[k][n] = ts;
            versionValue[k][n] = v;
            versions[k] = n + 1;
        }

        private void write(int s, long cts) throws IOException {
            sb.setLength(0);
            int n = planned[s];
            if (format == Format.CHRONOS) {
                if (committed > 0) sb.append(",\n");
                sb.append("{\"cts\":{\"l\":0,\"p\":").append(cts).append("},\"sid\":").append(s)
                        .append(",\"sts\":{\"l\":0,\"p\":").append(sts[s]).append("},\"tid\":").append(committed + 1)
                        .append(",\"ops\":[");
                for (int i = 0; i < n; i++) {
                    if (i > 0) sb.append(',');
                    sb.append("{\"k\":").append(key[s][i]).append(",\"t\":\"").append(isRead[s][i] ? 'r' : 'w')
                            .append("\",\"v\":").append(value[s][i]).append('}');
                }
                sb.append("]}");
            } else {
                for (int i = 0; i < n; i++) {
                    sb.append(isRead[s][i] ? "r(" : "w(").append(key[s][i]).append(',').append(value[s][i])
                            .append(',').append(s + 1).append(',').append(committed + 1).append(")\n");
                }
            }
            out.append(sb);
        }
    }
}
