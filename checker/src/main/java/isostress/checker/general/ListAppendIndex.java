package isostress.checker.general;

import isostress.checker.history.History;
import isostress.checker.history.InputException;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.Outcome;
import isostress.checker.index.AnomalyLog;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.Step;

import java.util.Arrays;
import java.util.List;

/**
 * Compiles a list-append history into {@link Observations}, by Elle's inference (Kingsbury &amp; Alvaro, VLDB 2020,
 * §3-4): each element is appended once, so a list read names the writer of every element in it and reveals the
 * order of their appends; every read of a key must be a prefix of the longest one, which is therefore the key's
 * version order. A version is a transaction's last append to a key (its earlier ones are intermediate states).
 *
 * <p>Non-cycle anomalies found on the way, each deciding every level before the cycle search:
 * <ul>
 *   <li>duplicate-elements: a read holding an element twice;</li>
 *   <li>incompatible-order: a read that is not a prefix of the longest read of its key; also a transaction's
 *       appends out of program order, or split by another transaction's append (the longest read then shows an
 *       order no execution produces);</li>
 *   <li>G1a: a committed read holding an element appended by an aborted transaction; thin air: an element nobody
 *       appended;</li>
 *   <li>G1b: a read ending in a transaction's non-final append to the key;</li>
 *   <li>dirty-update: a committed append ordered after an aborted one;</li>
 *   <li>internal: a read after the transaction's own appends that does not end with them (or, after its own
 *       earlier read, is not that read plus them). Two external reads of a key that differ are non-repeatable reads
 *       (read atomic, as for registers).</li>
 * </ul>
 * Unusable reads (any of the above) give no dependency; appends no read observed follow the longest read, in an
 * order the history does not tell (the polygraph leaves it open). Info transactions count as committed when a
 * committed read holds one of their elements.
 *
 * <p>{@link ListAccesses} compiles the operations (keys, appends, accesses, committed transactions); this class
 * infers the views, version orders and reads from them; {@link ListAnomalies} builds the reports.
 */
final class ListAppendIndex {
    private final History h;
    private final AnomalyLog log;
    private final int n;
    // Compiled ops (see ListAccesses): dense keys, each element's append op, and per op its transaction, dense key and
    // access (the transaction's (txn, key) slot); per access its key, final append op (-1: none), number of appends.
    private final LongPairIntMap keyIds;
    private final long[] keyOf;
    private final int keys;
    private final AppendTable appendOp;
    private final boolean[] included;
    private final int[] opTxn, opKey, opAccess;
    private final int acc;
    private final int[] accStart, accKey, accFinalOp, accAppends;
    // Per read op: the length of its view of the committed list (-1: not a usable read).
    private int[] viewLen;
    // Per append op: key + 1 once the longest view of its key showed it. Per access: where its appends start in the
    // longest view of its key (-1: not shown). Per transaction: key + 1 once its run was seen (chainOf).
    private int[] shownAt, runStart, seenStamp;

    private ListAppendIndex(History h, AnomalyLog log) {
        this.h = h;
        this.log = log;
        this.n = h.size();
        ListAccesses c = ListAccesses.of(h);
        keyIds = c.keyIds;
        keyOf = c.keyOf;
        keys = c.keys;
        appendOp = c.appendOp;
        included = c.included;
        opTxn = c.opTxn;
        opKey = c.opKey;
        opAccess = c.opAccess;
        acc = c.acc;
        accStart = c.accStart;
        accKey = c.accKey;
        accFinalOp = c.accFinalOp;
        accAppends = c.accAppends;
    }

    /** True when the history holds list operations. */
    public static boolean isListHistory(History h) {
        for (int o = 0; o < h.opCount(); o++) {
            byte k = h.opKind(o);
            if (k == History.APPEND || k == History.LIST_READ) return true;
        }
        return false;
    }

    /** Compiles {@code h}; raises {@link InputException} for mixed histories and elements appended twice. */
    public static Observations of(History h, AnomalyLog log) {
        return new ListAppendIndex(h, log).build();
    }

    private Observations build() {
        viewLen = new int[h.opCount()];
        Arrays.fill(viewLen, -1);
        for (int t = 0; t < n; t++) if (included[t]) views(t);
        // The version order of each key: its longest view (Elle also reads it off the longest read).
        int[] longestOp = new int[keys];
        int[] firstRead = new int[acc];
        Arrays.fill(longestOp, -1);
        Arrays.fill(firstRead, -1);
        for (int t = 0; t < n; t++) {
            if (!included[t]) continue;
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                if (viewLen[o] < 0) continue;
                int k = opKey[o];
                if (longestOp[k] < 0 || viewLen[o] > viewLen[longestOp[k]]) longestOp[k] = o;
                if (firstRead[opAccess[o]] < 0) firstRead[opAccess[o]] = o;
            }
        }
        // Validate each key's longest view once: every read is compared with it, and any read that sees an invalid
        // element sees the longest view's first one.
        int[] firstBad = new int[keys];
        shownAt = new int[h.opCount()];
        for (int k = 0; k < keys; k++) firstBad[k] = longestOp[k] < 0 ? 0 : firstInvalid(k, longestOp[k]);
        runStart = new int[acc];
        Arrays.fill(runStart, -1);
        seenStamp = new int[n];
        int written = acc;
        int[] chainStart = new int[keys + 1];
        int[] chain = new int[Math.max(1, acc)];
        int cl = 0;
        for (int k = 0; k < keys; k++) {
            chainStart[k] = cl;
            if (longestOp[k] >= 0) cl = chainOf(k, longestOp[k], firstBad[k], chain, cl);
        }
        chainStart[keys] = cl;
        chain = Arrays.copyOf(chain, cl);
        // Reads: each view of a committed transaction, in program order, with the version it shows.
        int[] readStart = new int[n + 1];
        int[] rk = new int[16], rv = new int[16], ro = new int[16];
        int r = 0;
        for (int t = 0; t < n; t++) {
            readStart[t] = r;
            if (!included[t]) continue;
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                if (viewLen[o] < 0) continue;
                int k = opKey[o];
                int v = versionRead(t, o, k, longestOp[k], firstBad[k], written);
                if (v < 0) continue;
                if (r == rk.length) {
                    rk = Arrays.copyOf(rk, r * 2);
                    rv = Arrays.copyOf(rv, r * 2);
                    ro = Arrays.copyOf(ro, r * 2);
                }
                rk[r] = k;
                rv[r] = v;
                ro[r++] = o;
            }
        }
        readStart[n] = r;
        // Per access: the version its first usable read shows, and its own version when committed.
        int[] accRead = new int[acc], accWrite = new int[acc];
        Arrays.fill(accRead, -1);
        for (int t = 0; t < n; t++) {
            for (int a = accStart[t]; a < accStart[t + 1]; a++) accWrite[a] = included[t] && accFinalOp[a] >= 0 ? a : -1;
            for (int i = readStart[t]; i < readStart[t + 1]; i++) {
                int a = opAccess[ro[i]];
                if (ro[i] == firstRead[a]) accRead[a] = rv[i];
            }
        }
        int[] verKey = new int[written + keys], verTxn = new int[written + keys];
        long[] verValue = new long[written + keys];
        for (int t = 0; t < n; t++) {
            for (int a = accStart[t]; a < accStart[t + 1]; a++) {
                verKey[a] = accKey[a];
                verTxn[a] = t;
                if (accFinalOp[a] >= 0) verValue[a] = h.opValue(accFinalOp[a]);
            }
        }
        for (int k = 0; k < keys; k++) {
            verKey[written + k] = k;
            verTxn[written + k] = -1;
        }
        Observations.ValueNames names = v -> v >= written ? null : verValue[v];
        // A local, so that the lambda below holds the key map only, not this index (its per-operation arrays and
        // append table are garbage once the observations are built: a gigabyte at ten million transactions).
        LongPairIntMap ids = keyIds;
        return new Observations(h, included, keyOf, written, verKey, verTxn, accStart, accKey,
                accRead, accWrite, readStart, Arrays.copyOf(rk, r), Arrays.copyOf(rv, r), Arrays.copyOf(ro, r),
                chainStart, chain, true, names, key -> {
                    int k = ids.get(key, 0);
                    return k == LongPairIntMap.MISSING ? -1 : k;
                });
    }

    /**
     * The view of each known read of transaction t: a list read returns the committed list it saw followed by the
     * transaction's own appends to the key so far, so its view is the list without that suffix. A read that does not
     * end with the transaction's own appends is internal (and has no view); a view that differs from the previous
     * view of the key in the same transaction is a non-repeatable read (read atomic forbids it, read committed does
     * not; an older view is caught by the Read Committed axiom).
     */
    private void views(int t) {
        for (int o = h.firstOp(t); o < h.endOp(t); o++) {
            if (!ListAccesses.knownRead(h, t, o)) continue;
            int k = opKey[o];
            int own = 0, previous = -1;
            for (int q = h.firstOp(t); q < o; q++) {
                if (opKey[q] != k) continue;
                if (h.opKind(q) == History.APPEND) own++;
                else if (viewLen[q] >= 0) previous = q;
            }
            int length = ListAccesses.len(h, o);
            boolean endsWithOwn = length >= own;
            int i = length - own;
            for (int q = h.firstOp(t); q < o && endsWithOwn; q++) {
                if (opKey[q] == k && h.opKind(q) == History.APPEND) endsWithOwn = elem(o, i++) == h.opValue(q);
            }
            if (!endsWithOwn) {
                log.nonCycle(ListAnomalies.of(h, AnomalyType.INTERNAL, t, o, List.of(), List.of()));
                continue;
            }
            viewLen[o] = length - own;
            if (previous >= 0 && !samePrefix(previous, viewLen[previous], o, viewLen[o])) {
                log.nonRepeatableRead(t, previous, o);
            }
        }
    }

    /**
     * Index of the first element of key k's longest view that no read may show (appended by nobody, by an aborted
     * transaction, or a second time), or its length.
     */
    private int firstInvalid(int k, int longest) {
        int len = viewLen[longest];
        for (int i = 0; i < len; i++) {
            int ap = appendOp.get(k, elem(longest, i));
            if (ap == LongPairIntMap.MISSING || h.outcome(opTxn[ap]) == Outcome.FAIL) return i;
            if (shownAt[ap] == k + 1) return i; // shown before: a duplicate
            shownAt[ap] = k + 1;
        }
        return len;
    }

    /**
     * Appends key k's chain (versions in order) from its longest view, up to its first invalid element. Each
     * transaction's appends to the key must appear as one run, in program order, complete unless the run ends the
     * view (a read of an intermediate state, reported as G1b with the read); otherwise the order is one no execution
     * produces (incompatible-order). A committed append after an aborted one is a dirty update (reported even past
     * the first invalid element: that is where it shows).
     */
    private int chainOf(int k, int longest, int firstBad, int[] chain, int cl) {
        long[] list = h.listValues(longest); // one copy per key
        if (list == null) list = new long[0];
        int len = viewLen[longest];
        int reader = opTxn[longest];
        int abortedAt = -1;
        int i = 0;
        while (i < len) {
            int ap = appendOp.get(k, list[i]);
            if (ap == LongPairIntMap.MISSING) { // thin air: reported with the reads that show it
                i++;
                continue;
            }
            int w = opTxn[ap];
            int a = opAccess[ap];
            // The run of w's appends to k, in program order.
            int run = 0;
            for (int o = h.firstOp(w); o < h.endOp(w) && i + run < len; o++) {
                if (opKey[o] != k || h.opKind(o) != History.APPEND) continue;
                if (list[i + run] != h.opValue(o)) break;
                run++;
            }
            boolean complete = run == accAppends[a];
            boolean again = seenStamp[w] == k + 1;
            seenStamp[w] = k + 1;
            if (run == 0 || (!complete && i + run < len) || again) {
                // A run shown twice is a duplicate (firstInvalid cut the view there); otherwise the appends are split.
                if (!again || i < firstBad) {
                    log.nonCycle(ListAnomalies.of(h, AnomalyType.INCOMPATIBLE_ORDER, reader, longest, List.of(w),
                            List.of(new Step(w, w, EdgeKind.WW, keyOf[k], list[i], null, false, -1))));
                }
                i += Math.max(1, run);
                continue;
            }
            runStart[a] = i;
            if (h.outcome(w) == Outcome.FAIL) {
                if (abortedAt < 0) abortedAt = i;
            } else if (abortedAt >= 0 && included[w]) {
                int aw = opTxn[appendOp.get(k, list[abortedAt])];
                log.nonCycle(ListAnomalies.of(h, AnomalyType.DIRTY_UPDATE, reader, longest, List.of(aw, w),
                        List.of(new Step(aw, w, EdgeKind.WW, keyOf[k], list[abortedAt], list[i], false, -1))));
                abortedAt = -1;
            }
            // A transaction's version is its final append to the key; none past the first invalid element.
            if (complete && i + run <= firstBad) chain[cl++] = a;
            i += run;
        }
        return cl;
    }

    /**
     * The version read {@code o} of transaction t shows (its view's last element), or -1 when the read is unusable
     * (reported): not a prefix of the key's longest view, showing an invalid element, the transaction's own later
     * append, or an intermediate state.
     */
    private int versionRead(int t, int o, int k, int longest, int firstBad, int written) {
        int len = viewLen[o];
        long key = h.opKey(o);
        if (len > viewLen[longest] || !samePrefix(o, len, longest, len)) {
            int other = opTxn[longest];
            log.nonCycle(ListAnomalies.of(h, AnomalyType.INCOMPATIBLE_ORDER, t, o, other == t ? List.of() : List.of(other),
                    List.of()));
            return -1;
        }
        if (len > firstBad) {
            long e = elem(o, firstBad);
            int ap = appendOp.get(k, e);
            if (ap == LongPairIntMap.MISSING) {
                log.nonCycle(ListAnomalies.of(h, AnomalyType.THIN_AIR_READ, t, o, List.of(), List.of(), e));
            } else if (h.outcome(opTxn[ap]) == Outcome.FAIL) {
                int w = opTxn[ap];
                log.nonCycle(ListAnomalies.of(h, AnomalyType.G1A, t, o, List.of(w),
                        List.of(new Step(w, t, EdgeKind.WR, key, e, null, false, -1)), e));
            } else {
                log.nonCycle(ListAnomalies.of(h, AnomalyType.DUPLICATE_ELEMENTS, t, o, List.of(), List.of()));
            }
            return -1;
        }
        // The transaction's own appends to the key must not be in what it saw of the committed list.
        int a = opAccess[o];
        if (accAppends[a] > 0 && runStart[a] >= 0 && runStart[a] < len) {
            long e = elem(o, runStart[a]);
            log.nonCycle(ListAnomalies.of(h, AnomalyType.FUTURE_READ, t, o, List.of(), List.of(), e));
            return -1;
        }
        if (len == 0) return written + k;
        long lastElem = elem(o, len - 1);
        int ap = appendOp.get(k, lastElem);
        int w = opTxn[ap];
        if (accFinalOp[opAccess[ap]] != ap) {
            log.nonCycle(ListAnomalies.of(h, AnomalyType.G1B, t, o, List.of(w),
                    List.of(new Step(w, t, EdgeKind.WR, key, lastElem, null, false, -1)), lastElem));
            return -1;
        }
        return included[w] ? opAccess[ap] : -1;
    }

    /** Element i of known read o's list. */
    private long elem(int o, int i) {
        return h.listValue(o, i);
    }

    /** True when the first {@code la} elements of read a equal the first {@code lb} of read b. */
    private boolean samePrefix(int a, int la, int b, int lb) {
        if (la != lb) return false;
        for (int i = 0; i < la; i++) if (elem(a, i) != elem(b, i)) return false;
        return true;
    }


}
