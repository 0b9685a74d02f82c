package isostress.checker.witness;

import isostress.checker.history.History;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.Outcome;
import isostress.checker.model.VersionOrder;

import java.util.AbstractList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Each key's version order from the log: the writes of committed transactions to the key, in the order of the log
 * that holds them. Only writes the history made take part (a log write no transaction made is an unrecorded-write
 * finding already), and not those of transactions the history says failed (a failed-but-committed finding: the
 * checkers leave failed transactions out). With several nodes logging a key (replicas, a Galera cluster) the node
 * with the most of its writes gives the order; when another node holds two of its writes in the opposite order, the
 * logs disagree and the key gets no order (said in {@link VersionOrder#disagreements()}): which one the database
 * meant is not for the checker to invent. A key some log deletes gets no order either: after the delete the key's
 * row is gone and a later write starts it again, which is no version of the history's chain (no workload deletes),
 * so the key is searched for as without the log (the delete itself is an unrecorded-write finding).
 *
 * <p>Two passes over the log's writes, reusing the join's lookup of each write's op: counting per (key, node) (each
 * write's group kept), then filling one array of write indices grouped by (key, node) in log order; the groups are
 * numbered by the join index's dense key ids, so no hashing. Each key's list reads the witness's columns when asked,
 * so a million transactions' orders cost arrays, not a record per write.
 */
final class CommitOrder {
    private CommitOrder() {
    }

    /**
     * @param logOp   per log write, the history's op that made it, or {@link LongPairIntMap#MISSING}
     * @param writer  the join's index of the history's writes, whose dense key ids number the groups
     * @param deleted the history's keys that some log deletes: left without an order
     */
    static VersionOrder of(History h, Witness w, int[] logOp, int[] opTxn, WriterIndex writer, Set<Long> deleted) {
        // Group (key, node) is keyId * nodes + node: an array, not a map, as the keys are dense.
        int nodes = w.nodeCount(), keyCount = writer.keyCount(), groups = keyCount * nodes;
        int[] count = new int[groups];
        long[] keyOf = new long[keyCount];
        // Each log write's group (-1: not a committed history write) and writer, so the second pass reads only these
        // two arrays in order, not the history's columns at random again.
        int[] groupAt = new int[logOp.length], writerAt = new int[logOp.length];
        for (int L = 0; L < w.size(); L++) {
            for (int i = w.firstWrite(L); i < w.endWrite(L); i++) {
                int op = logOp[i];
                int t = op == LongPairIntMap.MISSING ? -1 : opTxn[op];
                if (t < 0 || h.outcome(t) == Outcome.FAIL) {
                    groupAt[i] = -1;
                    continue;
                }
                long key = h.opKey(op);
                int k = writer.keyId(key);
                int g = k * nodes + w.nodeIndex(L);
                groupAt[i] = g;
                writerAt[i] = t;
                keyOf[k] = key;
                count[g]++;
            }
        }
        int[] start = new int[groups + 1];
        for (int g = 0; g < groups; g++) start[g + 1] = start[g] + count[g];
        int[] fill = java.util.Arrays.copyOf(start, groups);
        int[] writeAt = new int[start[groups]], txnAt = new int[start[groups]], txnOf = new int[start[groups]];
        for (int L = 0; L < w.size(); L++) {
            for (int i = w.firstWrite(L); i < w.endWrite(L); i++) {
                int g = groupAt[i];
                if (g < 0) continue;
                writeAt[fill[g]] = i;
                txnOf[fill[g]] = writerAt[i];
                txnAt[fill[g]++] = L;
            }
        }
        // Per key, its groups (one per node logging it): the largest gives the order, the others are compared.
        Map<Long, List<VersionOrder.Write>> keys = new HashMap<>();
        Map<Long, String> disagreements = new HashMap<>();
        for (int k = 0; k < keyCount; k++) {
            int best = -1;
            for (int g = k * nodes; g < (k + 1) * nodes; g++) {
                if (count[g] > 0 && (best < 0 || count[g] > count[best])) best = g;
            }
            if (best < 0 || deleted.contains(keyOf[k])) continue;
            String why = null;
            for (int g = k * nodes; g < (k + 1) * nodes && why == null; g++) {
                if (g != best && count[g] > 0) {
                    why = disagreement(h.keyName(keyOf[k]), w, new Group(w, writeAt, txnAt, txnOf, start[best],
                            count[best]), new Group(w, writeAt, txnAt, txnOf, start[g], count[g]));
                }
            }
            if (why != null) disagreements.put(keyOf[k], why);
            else keys.put(keyOf[k], new Group(w, writeAt, txnAt, txnOf, start[best], count[best]));
        }
        return new VersionOrder(keys, disagreements);
    }

    /** One node's writes of one key, in its log's order: a view of the witness's columns. */
    private static final class Group extends AbstractList<VersionOrder.Write> {
        private final Witness w;
        private final int[] writeAt, txnAt, writer;
        private final int from, size;

        Group(Witness w, int[] writeAt, int[] txnAt, int[] writer, int from, int size) {
            this.w = w;
            this.writeAt = writeAt;
            this.txnAt = txnAt;
            this.writer = writer;
            this.from = from;
            this.size = size;
        }

        @Override
        public VersionOrder.Write get(int j) {
            return new VersionOrder.Write(value(j), w.node(txnAt[from + j]), w.pos(txnAt[from + j]),
                    writer[from + j]);
        }

        long value(int j) {
            return w.value(writeAt[from + j]);
        }

        @Override
        public int size() {
            return size;
        }
    }

    /** Why two nodes' orders of one key's writes disagree, or null when the writes both hold are in the same order. */
    private static String disagreement(String key, Witness w, Group a, Group b) {
        Map<Long, Integer> at = new HashMap<>();
        for (int i = 0; i < a.size(); i++) at.put(a.value(i), i);
        int lastIndex = -1, last = -1;
        for (int j = 0; j < b.size(); j++) {
            Integer i = at.get(b.value(j));
            if (i == null) continue;
            if (i < lastIndex) {
                VersionOrder.Write ax = a.get(i), al = a.get(lastIndex), bl = b.get(last), bx = b.get(j);
                return "key " + key + ": " + al.node() + " logs " + ax.value() + " before " + al.value() + " (pos "
                        + ax.pos() + ", pos " + al.pos() + "), " + bx.node() + " logs " + bl.value() + " before "
                        + bx.value() + " (pos " + bl.pos() + ", pos " + bx.pos() + ")";
            }
            lastIndex = i;
            last = j;
        }
        return null;
    }
}
