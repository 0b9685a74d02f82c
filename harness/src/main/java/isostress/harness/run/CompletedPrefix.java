package isostress.harness.run;

import isostress.checker.history.History;
import isostress.checker.history.InitialState;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The part of a history still being recorded that can be checked now without false alarms: the completed
 * transactions, minus every one that read (directly or through other readers) from a transaction not completed yet.
 *
 * <p>Why a violation found here is a violation of the whole history [1, 2]: a history is valid at RC, RA, CC, PC,
 * SI, SER or SSER when some commit order of its committed transactions satisfies the level's axioms, all of which
 * talk about a transaction, the writer it read from, and transactions ordered before it. Take such an order for the
 * whole history and restrict it to a subset S that contains the writer of every read in S ("closed under
 * reads-from"): each read in S still reads from the same writer, every transaction between that writer and the
 * reader in the restricted order was between them before, and session, real-time and causal orders restricted to S
 * are contained in the old ones; so the restricted order satisfies the same axioms, and S is valid too. Contrapositive:
 * a violation in S is a violation of every history that extends S, whatever the transactions still in flight do.
 * Reads-from is exact here because mini-transactions write unique values (MTC §II, §IV-A).
 *
 * <p>So the prefix keeps a completed transaction only when the writer of each value it read is in the prefix too:
 * <ol>
 *   <li>in-flight transactions are left out: their outcome and reads are unknown;</li>
 *   <li>{@code info} transactions are left out: whether they committed is decided by who read them, which later
 *       transactions may change. Leaving one out is sound since its readers are left out as well (3);</li>
 *   <li>a transaction reading a value whose writer is not in the prefix is left out, transitively. Reads of the
 *       initial value and of null read from no one. {@code fail} transactions stay: reading their writes is an
 *       aborted read (G1a) now and forever.</li>
 * </ol>
 * The end-of-run check of the whole history stays authoritative; this only finds violations sooner.
 *
 * <p>[1] MTC: Jiang et al., "Verifying Transactional Consistency of MongoDB", §II-D (axioms), §IV (checks);
 * [2] Biswas &amp; Enea, "On the Complexity of Checking Transactional Consistency", OOPSLA 2019, §2.2 (axioms).
 */
final class CompletedPrefix {
    /**
     * @param history the prefix, its transactions numbered from 0 in invocation order
     * @param ids     per transaction of {@code history}, its number in the whole history (what the file will say)
     * @param left    completed transactions left out by rules 2 and 3
     */
    record Prefix(History history, int[] ids, int left) {
        /** The whole history's label of prefix transaction {@code t}, e.g. {@code T8812}. */
        String label(int t) {
            return "T" + ids[t];
        }
    }

    private CompletedPrefix() {
    }

    /**
     * The checkable prefix of {@code completed} (transactions in any order; their ids are their numbers in the whole
     * history). O(n + ops).
     */
    static Prefix of(List<Txn> completed, InitialState initial) {
        Txn[] txns = completed.toArray(new Txn[0]);
        Arrays.sort(txns, Comparator.comparingLong(Txn::invokeIndex)); // histories number by invocation
        int n = txns.length;
        LongPairIntMap writer = new LongPairIntMap(Math.max(16, n * 2));
        for (int t = 0; t < n; t++) {
            if (txns[t].outcome() == Outcome.INFO) continue; // rule 2: not a writer anyone may read from yet
            for (MicroOp m : txns[t].ops()) {
                if (m instanceof MicroOp.Write) writer.putIfAbsent(m.key(), ((MicroOp.Write) m).value(), t);
                else if (m instanceof MicroOp.Cas) writer.putIfAbsent(m.key(), ((MicroOp.Cas) m).newValue(), t);
            }
        }
        // readers[readerStart[w] .. readerStart[w + 1]) read from w: the edges along which leaving out spreads.
        boolean[] out = new boolean[n];
        int edges = 0;
        int[] edgeWriter = new int[64], edgeReader = new int[64];
        int[] stack = new int[n];
        int top = 0;
        for (int t = 0; t < n; t++) {
            if (txns[t].outcome() == Outcome.INFO) {
                out[t] = true;
                stack[top++] = t;
                continue;
            }
            for (MicroOp m : txns[t].ops()) {
                Long v = readValue(m);
                if (v == null || initial.isInitial(m.key(), v)) continue;
                int w = writer.get(m.key(), v);
                if (w == LongPairIntMap.MISSING) { // rule 3: the writer is in flight (or wrote out of thin air)
                    if (!out[t]) stack[top++] = t;
                    out[t] = true;
                } else if (w != t) {
                    if (edges == edgeWriter.length) {
                        edgeWriter = Arrays.copyOf(edgeWriter, edges * 2);
                        edgeReader = Arrays.copyOf(edgeReader, edges * 2);
                    }
                    edgeWriter[edges] = w;
                    edgeReader[edges++] = t;
                }
            }
        }
        int[] readerStart = new int[n + 1];
        for (int e = 0; e < edges; e++) readerStart[edgeWriter[e] + 1]++;
        for (int t = 0; t < n; t++) readerStart[t + 1] += readerStart[t];
        int[] readers = new int[edges], fill = Arrays.copyOf(readerStart, n);
        for (int e = 0; e < edges; e++) readers[fill[edgeWriter[e]]++] = edgeReader[e];
        while (top > 0) { // rule 3, transitively
            int w = stack[--top];
            for (int i = readerStart[w]; i < readerStart[w + 1]; i++) {
                int r = readers[i];
                if (!out[r]) {
                    out[r] = true;
                    stack[top++] = r;
                }
            }
        }
        History.Builder b = History.builder().initial(initial).realTime(true).source("history being recorded");
        List<Integer> ids = new ArrayList<>(n);
        int left = 0;
        for (int t = 0; t < n; t++) {
            if (out[t]) {
                left++;
                continue;
            }
            b.add(txns[t]);
            ids.add(txns[t].id());
        }
        return new Prefix(b.build(), ids.stream().mapToInt(Integer::intValue).toArray(), left);
    }

    /** The value {@code m} read (a CAS reads its expected value), or null when it read nothing or null. */
    private static Long readValue(MicroOp m) {
        if (m instanceof MicroOp.Read) return ((MicroOp.Read) m).value();
        if (m instanceof MicroOp.Cas) return ((MicroOp.Cas) m).expected();
        return null;
    }
}
