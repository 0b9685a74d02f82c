package isostress.checker.general;

import isostress.checker.history.History;
import isostress.checker.index.AnomalyLog;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.Step;
import isostress.checker.model.VersionOrder;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The database's commit log as the version order (docs/witness.md): each key's committed versions in the order the
 * log's transactions wrote the key become the key's chain, for rw-register histories as for list-append ones. The
 * checks then have every ww edge (consecutive versions) and every rw edge (each reader of a version to the writer of
 * the next) as known edges: the direct write- and anti-dependencies of Adya's DSG (Adya 1999, ch. 3), and for lists
 * Elle's inference (§3) with the log as the append order. No order is left to search for: each level is one
 * acyclicity test.
 *
 * <p>A key keeps the order the data shows (a list's reads; none for registers, whose order is then searched for as
 * without a log) when the log does not hold exactly its committed versions (a lost write, a version the log lacks)
 * or when its nodes' logs disagree. A list read that is not a prefix of the log's order shows an order the database
 * did not commit: it is reported (incompatible-order) and the key keeps the reads' order.
 */
final class LogOrder {
    private LogOrder() {
    }

    /** {@code o} with the log's order on every key it orders completely; {@code stats} gets the counts. */
    static Observations apply(Observations o, VersionOrder order, AnomalyLog anomalies, Map<String, Object> stats) {
        long t0 = System.nanoTime();
        int written = o.versions - o.keys;
        // A log write names its transaction; its version of the key is the transaction's last write of it.
        int[] committedOf = new int[o.keys];
        for (int v = 0; v < written; v++) {
            if (o.accWrite[v] == v && o.included[o.verTxn[v]]) committedOf[o.verKey[v]]++;
        }
        boolean[] fromLog = new boolean[o.keys];
        int[] at = new int[o.versions];
        Arrays.fill(at, -1);
        List<List<VersionOrder.Write>> writesOf = new java.util.ArrayList<>(o.keys);
        int[][] logChain = new int[o.keys][];
        int fromLogCount = 0, incomplete = 0, contradicted = 0;
        for (int k = 0; k < o.keys; k++) {
            List<VersionOrder.Write> writes = order.keys().get(o.keyOf[k]);
            writesOf.add(writes == null ? List.of() : writes);
            if (writes == null) {
                if (committedOf[k] == 0 && !order.disagreements().containsKey(o.keyOf[k])) fromLog[k] = true;
                else if (committedOf[k] > 0 && !order.disagreements().containsKey(o.keyOf[k])) incomplete++;
                logChain[k] = new int[0];
                continue;
            }
            int[] c = new int[writes.size()];
            int len = 0;
            for (int j = 0; j < writes.size(); j++) {
                VersionOrder.Write w = writes.get(j);
                int t = w.txn();
                if (t < 0 || t >= o.n || !o.included[t]) continue;
                int v = o.written(t, k);
                // Not a version: an intermediate write (the transaction wrote the key again), or one seen already.
                if (v < 0 || at[v] >= 0 || !Long.valueOf(w.value()).equals(o.value(v))) continue;
                at[v] = j;
                c[len++] = v;
            }
            logChain[k] = Arrays.copyOf(c, len);
            if (len != committedOf[k]) {
                incomplete++;
                continue;
            }
            if (o.lists && !readsArePrefix(o, k, logChain[k], new Observations.LogPlaces(fromLog, writesOf, at),
                    anomalies)) {
                contradicted++;
                continue;
            }
            fromLog[k] = true;
            fromLogCount++;
        }
        int[] chainStart = new int[o.keys + 1];
        int total = 0;
        for (int k = 0; k < o.keys; k++) {
            total += fromLog[k] ? logChain[k].length : o.chainStart == null ? 0 : o.chainStart[k + 1] - o.chainStart[k];
        }
        int[] chain = new int[total];
        int filled = 0;
        for (int k = 0; k < o.keys; k++) {
            chainStart[k] = filled;
            if (fromLog[k]) {
                System.arraycopy(logChain[k], 0, chain, filled, logChain[k].length);
                filled += logChain[k].length;
            } else if (o.chainStart != null) {
                int n = o.chainStart[k + 1] - o.chainStart[k];
                System.arraycopy(o.chain, o.chainStart[k], chain, filled, n);
                filled += n;
            }
        }
        chainStart[o.keys] = filled;
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("keys_from_log", fromLogCount);
        s.put("keys_not_in_log_completely", incomplete);
        if (o.lists) s.put("keys_whose_reads_contradict_the_log", contradicted);
        s.put("keys_whose_logs_disagree", order.disagreements().size());
        if (!order.disagreements().isEmpty()) {
            s.put("disagreements", order.disagreements().values().stream().sorted().limit(10).toList());
        }
        s.put("ms", (System.nanoTime() - t0) / 1_000_000);
        stats.put("version_order", s);
        return o.withChains(chainStart, chain, new Observations.LogPlaces(fromLog, writesOf, at));
    }

    /**
     * Whether the log orders each register key as its read-modify-writes do (each writer right after the version it
     * read), so that a check inferring the order from the reads (the mini-transaction checkers) checks the log's order:
     * true when every key the log orders completely has one read-modify-write chain from its initial version, equal to
     * the log's. Keys the log does not order are checked as without it either way. {@code stats} gets the counts.
     */
    static boolean sameAsReads(Observations o, VersionOrder order, Map<String, Object> stats) {
        Observations logged = apply(o, order, null, stats);
        KnownVersionOrder reads = KnownVersionOrder.of(o);
        for (int k = 0; k < o.keys; k++) {
            if (!logged.log.fromLog()[k]) continue;
            int[] p = reads.prefix[k];
            int from = logged.chainStart[k], len = logged.chainStart[k + 1] - from;
            if (reads.incomplete[k] || !reads.segments.get(k).isEmpty() || p.length != len + 1) return false;
            for (int i = 0; i < len; i++) if (logged.chain[from + i] != p[i + 1]) return false;
        }
        return true;
    }

    /**
     * Whether the order key k's reads show (its chain, committed versions only) is a prefix of the log's; if not,
     * the longest read (the one that shows the chain) is reported. Every read is a prefix of the chain or is reported
     * already (incompatible-order), so comparing the chain compares them all (Elle §3.1: reads are prefixes of the
     * append order).
     */
    private static boolean readsArePrefix(Observations o, int k, int[] log, Observations.LogPlaces place,
                                          AnomalyLog anomalies) {
        int i = 0;
        for (int j = o.chainStart[k]; j < o.chainStart[k + 1]; j++) {
            int v = o.chain[j];
            if (!o.included[o.verTxn[v]]) continue; // an uncommitted append, reported elsewhere (G1a)
            if (i >= log.length || log[i] != v) {
                report(o, k, i == 0 ? -1 : log[i - 1], i < log.length ? log[i] : -1, j, place, anomalies);
                return false;
            }
            i++;
        }
        return true;
    }

    /**
     * An incompatible-order anomaly on a read that shows key k's chain past index {@code mismatch}: in the log,
     * {@code next} follows {@code before} (-1: the initial version) where the read shows something else.
     */
    private static void report(Observations o, int k, int before, int next, int mismatch,
                               Observations.LogPlaces place, AnomalyLog anomalies) {
        History h = o.h;
        // The reads that show the chain at the mismatch: those of its versions from there on (one pass).
        boolean[] shows = new boolean[o.versions];
        for (int j = mismatch; j < o.chainStart[k + 1]; j++) shows[o.chain[j]] = true;
        int reader = -1, readOp = -1;
        for (int t = 0; t < o.n && reader < 0; t++) {
            if (!o.included[t]) continue;
            for (int i = o.readStart[t]; i < o.readStart[t + 1]; i++) {
                if (shows[o.readVer[i]]) {
                    reader = t;
                    readOp = o.readOp[i];
                    break;
                }
            }
        }
        if (reader < 0 || next < 0) return; // no read shows it (cannot happen for a chain), or nothing follows
        int from = before < 0 ? o.verTxn[next] : o.verTxn[before];
        Step s = new Step(from, o.verTxn[next], EdgeKind.WW, o.keyOf[k], before < 0 ? null : o.value(before),
                o.value(next), before < 0, -1,
                VersionOrder.between(before < 0 ? null : place.place(before, k), place.place(next, k)));
        anomalies.nonCycle(ListAnomalies.of(h, AnomalyType.INCOMPATIBLE_ORDER, reader, readOp,
                List.of(o.verTxn[next]), List.of(s)));
    }
}
