package isostress.checker.witness;

import isostress.checker.history.History;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.index.KeyIds;
import isostress.checker.index.WriteIndex;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The join's index of the history's writes, (key, value) to the op that wrote the pair: the checker's own
 * {@link WriteIndex} (writes bucketed by dense key, each bucket sorted by value) with ops as its codes.
 *
 * <p>Why not a hash table of pairs, as it once was: with a million transactions each insertion and each lookup (one
 * per history write, one per log write) was a cache miss, and a TLB miss, in a table of about 200 MB, most of the
 * join's time (JFR); buckets are a tenth of that, filled by counting, and a lookup stays inside one key's few cache
 * lines. A sort-and-merge of both sides by a hash of the pair was measured too, and was no faster.
 */
final class WriterIndex {
    static final int MISSING = LongPairIntMap.MISSING;
    private final KeyIds keyIds;
    private final int keyCount;
    private final WriteIndex writes;
    /** Groups of ops of one transaction writing the same pair (it wrote the pair once), each op of a group listed. */
    private final List<int[]> repeats;

    private WriterIndex(KeyIds keyIds, int keyCount, WriteIndex writes, List<int[]> repeats) {
        this.keyIds = keyIds;
        this.keyCount = keyCount;
        this.writes = writes;
        this.repeats = repeats;
    }

    /** A pair written by two transactions: {@code first} is the pair's first op, {@code later} the conflicting op. */
    record Conflict(int first, int later) {
    }

    /**
     * Indexes {@code h}'s writes (a CAS writes its new value), counting in {@code nWrites} each transaction's
     * distinct pairs (a transaction writing a pair twice writes it once); {@code opTxn} must name each op's
     * transaction. {@code conflict[0]} gets, of the ops whose pair another transaction wrote at an earlier op, the
     * first in op order (with that pair's first op), or null.
     */
    static WriterIndex build(History h, int[] opTxn, int[] nWrites, Conflict[] conflict) {
        int ops = h.opCount(), n = 0;
        for (int op = 0; op < ops; op++) if (isWrite(h.opKind(op))) n++;
        int[] key = new int[n], code = new int[n];
        long[] value = new long[n];
        KeyIds ids = KeyIds.of(h);
        int kc = 0, j = 0;
        for (int op = 0; op < ops; op++) {
            byte k = h.opKind(op);
            if (!isWrite(k)) continue;
            long hk = h.opKey(op);
            int id = ids.get(hk);
            if (id == LongPairIntMap.MISSING) {
                id = kc++;
                ids.put(hk, id);
            }
            key[j] = id;
            value[j] = k == History.CAS ? h.casNew(op) : h.opValue(op);
            code[j++] = op;
            nWrites[opTxn[op]]++;
        }
        WriteIndex writes = new WriteIndex(kc, n, key, value, code);
        List<int[]> repeats = new java.util.ArrayList<>();
        conflict[0] = null;
        for (int[] run : writes.duplicateRuns()) {
            int first = Integer.MAX_VALUE;
            for (int op : run) first = Math.min(first, op);
            int later = Integer.MAX_VALUE;
            for (int op : run) if (opTxn[op] != opTxn[first]) later = Math.min(later, op);
            if (later != Integer.MAX_VALUE) {
                if (conflict[0] == null || later < conflict[0].later()) conflict[0] = new Conflict(first, later);
            } else {
                nWrites[opTxn[first]] -= run.length - 1;
                repeats.add(run);
            }
        }
        return new WriterIndex(ids, kc, writes, repeats);
    }

    private static boolean isWrite(byte kind) {
        return kind == History.WRITE || kind == History.APPEND || kind == History.CAS;
    }

    /** Keys the history writes, numbered 0 to keyCount - 1 by {@link #keyId}. */
    int keyCount() {
        return keyCount;
    }

    /** The dense id of a key the history writes, or {@link #MISSING}. */
    int keyId(long key) {
        int id = keyIds.find(key);
        return id < keyCount ? id : MISSING;
    }

    /** An op that wrote (k, v), or {@link #MISSING}. */
    int get(long k, long v) {
        int id = keyIds.find(k);
        return id < 0 || id >= keyCount ? MISSING : writes.get(id, v);
    }

    /**
     * Marks every op of a repeated pair found when any of them is: a lookup returns one op of the group, and the
     * transaction wrote the pair once.
     */
    void spreadFound(boolean[] found) {
        for (int[] run : repeats) {
            boolean any = false;
            for (int op : run) any |= found[op];
            for (int op : run) found[op] = any;
        }
    }

    /**
     * For each of the log's writes, in the history's keys, an op that wrote it, or {@link #MISSING} (always for a
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
