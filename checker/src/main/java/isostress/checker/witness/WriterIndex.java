package isostress.checker.witness;

import isostress.checker.history.History;
import isostress.checker.history.LongPairIntMap;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The join's index of the history's writes, (key, value) to the first op that wrote the pair, in two halves by a bit
 * of the pair's hash, built and probed by two threads at once.
 *
 * <p>Why halves: with a million transactions each insertion and each lookup (one per history write, one per log
 * write) is a cache miss in a table of about 100 MB, most of the join's time (JFR); two tables filled and read
 * concurrently take the two cores a check has. A sort-and-merge join was measured too, and was no faster.
 */
final class WriterIndex {
    static final int MISSING = LongPairIntMap.MISSING;
    private final LongPairIntMap[] half;
    /** Ops that write a pair their own transaction wrote before, each followed by that first op: {dup, first, ...}. */
    final int[] repeats;

    private WriterIndex(LongPairIntMap[] half, int[] repeats) {
        this.half = half;
        this.repeats = repeats;
    }

    private static int halfOf(long k, long v) {
        return (int) ((k * 0x9E3779B97F4A7C15L + v * 0xC2B2AE3D27D4EB4FL) >>> 63);
    }

    /** A pair written by two transactions: {@code first} is the pair's first op, {@code later} the conflicting op. */
    record Conflict(int first, int later) {
    }

    /**
     * Indexes {@code h}'s writes (a CAS writes its new value), counting in {@code nWrites} each transaction's
     * distinct pairs (a transaction writing a pair twice writes it once); {@code opTxn} must name each op's
     * transaction. {@code conflict[0]} gets the first op, in op order, whose pair another transaction wrote before
     * (a single pass in op order meets it first), or null.
     */
    static WriterIndex build(History h, int[] opTxn, int[] nWrites, Conflict[] conflict) {
        LongPairIntMap[] half = new LongPairIntMap[2];
        int[][] counts = new int[2][], repeats = new int[2][];
        Conflict[] found = new Conflict[2];
        CompletableFuture<Void> other = CompletableFuture.runAsync(() -> fill(h, opTxn, 1, half, counts, repeats,
                found));
        fill(h, opTxn, 0, half, counts, repeats, found);
        await(other);
        for (int t = 0; t < nWrites.length; t++) nWrites[t] = counts[0][t] + counts[1][t];
        conflict[0] = found[0] == null ? found[1]
                : found[1] == null || found[0].later() < found[1].later() ? found[0] : found[1];
        int[] both = java.util.Arrays.copyOf(repeats[0], repeats[0].length + repeats[1].length);
        System.arraycopy(repeats[1], 0, both, repeats[0].length, repeats[1].length);
        return new WriterIndex(half, both);
    }

    private static void fill(History h, int[] opTxn, int p, LongPairIntMap[] half, int[][] counts, int[][] repeats,
                             Conflict[] found) {
        LongPairIntMap m = new LongPairIntMap(Math.max(16, h.opCount() / 4));
        int[] nWrites = new int[h.size()];
        int[] rep = new int[0];
        int reps = 0;
        for (int op = 0; op < h.opCount(); op++) {
            byte k = h.opKind(op);
            if (k != History.WRITE && k != History.APPEND && k != History.CAS) continue;
            long key = h.opKey(op), v = k == History.CAS ? h.casNew(op) : h.opValue(op);
            if (halfOf(key, v) != p) continue;
            int prev = m.putIfAbsent(key, v, op);
            if (prev == op) {
                nWrites[opTxn[op]]++;
            } else if (opTxn[prev] != opTxn[op]) {
                found[p] = new Conflict(prev, op);
                break; // the join stops there
            } else {
                if (reps + 2 > rep.length) rep = java.util.Arrays.copyOf(rep, Math.max(8, rep.length * 2));
                rep[reps++] = op;
                rep[reps++] = prev;
            }
        }
        half[p] = m;
        counts[p] = nWrites;
        repeats[p] = java.util.Arrays.copyOf(rep, reps);
    }

    /** The first op that wrote (k, v), or {@link #MISSING}. */
    int get(long k, long v) {
        return half[halfOf(k, v)].get(k, v);
    }

    /**
     * For each of the log's writes, in the history's keys, the op that wrote it, or {@link #MISSING} (always for a
     * deleted row).
     */
    int[] lookup(Witness w, Map<Long, Long> keyIds) {
        int n = w.writeCount();
        int[] op = new int[n];
        int mid = n / 2;
        CompletableFuture<Void> other = CompletableFuture.runAsync(() -> lookup(w, keyIds, op, mid, n));
        lookup(w, keyIds, op, 0, mid);
        await(other);
        return op;
    }

    private void lookup(Witness w, Map<Long, Long> keyIds, int[] op, int from, int to) {
        // A deleted row has no value to name a writer by (and no history transaction deletes).
        for (int i = from; i < to; i++) {
            op[i] = w.isDelete(i) ? MISSING : get(WitnessJoin.historyKey(keyIds, w, i), w.value(i));
        }
    }

    private static void await(CompletableFuture<Void> f) {
        try {
            f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error r) throw r;
            throw e;
        }
    }
}
