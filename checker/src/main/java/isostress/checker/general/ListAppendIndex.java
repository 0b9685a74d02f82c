package isostress.checker.general;

import isostress.checker.history.History;
import isostress.checker.history.InputException;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.Outcome;
import isostress.checker.index.AnomalyLog;
import isostress.checker.model.Anomaly;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.CycleVariant;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.MtcAnomaly;
import isostress.checker.model.Step;
import isostress.checker.history.Txn;

import java.util.ArrayList;
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
 */
final class ListAppendIndex {
    private final History h;
    private final AnomalyLog log;
    private final int n;
    private final LongPairIntMap keyIds = new LongPairIntMap(1024);
    private long[] keyOf = new long[64];
    private int keys;
    /** (key id, element) → append op. */
    private AppendTable appendOp;
    private final boolean[] included;
    // Per op: its transaction, dense key, access (the transaction's (txn, key) slot), and, for reads, the length of
    // its view of the committed list (-1: not a usable read).
    private final int[] opTxn, opKey, opAccess;
    private int[] viewLen;
    // Per append op: key + 1 once the longest view of its key showed it. Per access: where its appends start in the
    // longest view of its key (-1: not shown). Per transaction: key + 1 once its run was seen (chainOf).
    private int[] shownAt, runStart, seenStamp;
    // Per access: key, final append op (-1: none), number of appends.
    private int acc;
    private int[] accStart, accKey, accFinalOp, accAppends;

    private ListAppendIndex(History h, AnomalyLog log) {
        this.h = h;
        this.log = log;
        this.n = h.size();
        this.included = new boolean[n];
        int ops = h.opCount();
        this.opTxn = new int[ops];
        this.opKey = new int[ops];
        this.opAccess = new int[ops];
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

    private int key(long key) {
        int k = keyIds.get(key, 0);
        if (k == LongPairIntMap.MISSING) {
            k = keys++;
            keyIds.put(key, 0, k);
            if (k == keyOf.length) keyOf = Arrays.copyOf(keyOf, k * 2);
            keyOf[k] = key;
        }
        return k;
    }

    private Observations build() {
        scanOps();
        includeCommitted();
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
        return new Observations(h, included, keyOf, written, verKey, verTxn, accStart, Arrays.copyOf(accKey, acc),
                accRead, accWrite, readStart, Arrays.copyOf(rk, r), Arrays.copyOf(rv, r), Arrays.copyOf(ro, r),
                chainStart, chain, true, names, key -> {
                    int k = keyIds.get(key, 0);
                    return k == LongPairIntMap.MISSING ? -1 : k;
                });
    }

    /** Keys, appends (each element once per key), and accesses: one per (transaction, key), in first-touch order. */
    private void scanOps() {
        // First the dense keys (in first-touch order) and each key's range of elements, to size the append table.
        for (int o = 0; o < h.opCount(); o++) opKey[o] = key(h.opKey(o));
        appendOp = new AppendTable(keys);
        for (int o = 0; o < h.opCount(); o++) {
            if (h.opKind(o) == History.APPEND) appendOp.count(opKey[o], h.opValue(o));
        }
        appendOp.allocate();
        accStart = new int[n + 1];
        accKey = new int[16];
        accFinalOp = new int[16];
        accAppends = new int[16];
        for (int t = 0; t < n; t++) {
            accStart[t] = acc;
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                opTxn[o] = t;
                byte kind = h.opKind(o);
                // A read of nil is how Jepsen writes an unknown or empty list read (see knownRead).
                if (kind != History.APPEND && kind != History.LIST_READ && !(kind == History.READ && h.opValueNull(o))) {
                    throw new InputException(h.source(), h.line(t), "transaction T" + t + " mixes register "
                            + "operations (" + h.op(o) + ") into a list-append history; check registers and lists "
                            + "in separate histories");
                }
                int k = opKey[o];
                int a = accStart[t];
                while (a < acc && accKey[a] != k) a++;
                if (a == acc) {
                    if (acc == accKey.length) {
                        accKey = Arrays.copyOf(accKey, acc * 2);
                        accFinalOp = Arrays.copyOf(accFinalOp, acc * 2);
                        accAppends = Arrays.copyOf(accAppends, acc * 2);
                    }
                    accKey[acc] = k;
                    accFinalOp[acc] = -1;
                    accAppends[acc++] = 0;
                }
                opAccess[o] = a;
                if (kind != History.APPEND) continue;
                accFinalOp[a] = o;
                accAppends[a]++;
                long e = h.opValue(o);
                int prev = appendOp.put(k, e, o);
                if (prev != AppendTable.MISSING) {
                    int pt = opTxn[prev];
                    throw new InputException(h.source(), h.line(t), "duplicate appended value: transaction T" + t
                            + " appends " + e + " to key " + h.opKey(o) + ", already appended by T" + pt + " (line "
                            + h.line(pt) + "); every append to a key must add a value never appended to it before");
                }
            }
        }
        accStart[n] = acc;
        keyOf = Arrays.copyOf(keyOf, keys);
    }

    /** ok transactions, and info ones with an element in a committed read (a closure). */
    private void includeCommitted() {
        boolean infoAppends = false;
        for (int t = 0; t < n; t++) {
            if (h.outcome(t) == Outcome.OK) included[t] = true;
            else if (h.outcome(t) == Outcome.INFO && accAppendsOf(t) > 0) infoAppends = true;
        }
        if (!infoAppends) return; // nothing to discover: skip looking up every element of every read
        int[] work = new int[n];
        int top = 0;
        for (int t = 0; t < n; t++) if (included[t]) work[top++] = t;
        while (top > 0) {
            int t = work[--top];
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                if (!knownRead(t, o)) continue;
                for (int i = 0, l = len(o); i < l; i++) {
                    int ap = appendOp.get(opKey[o], elem(o, i));
                    if (ap == LongPairIntMap.MISSING) continue;
                    int w = opTxn[ap];
                    if (!included[w] && h.outcome(w) == Outcome.INFO) {
                        included[w] = true;
                        work[top++] = w;
                    }
                }
            }
        }
    }

    private int accAppendsOf(int t) {
        int c = 0;
        for (int a = accStart[t]; a < accStart[t + 1]; a++) c += accAppends[a];
        return c;
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
            if (!knownRead(t, o)) continue;
            int k = opKey[o];
            int own = 0, previous = -1;
            for (int q = h.firstOp(t); q < o; q++) {
                if (opKey[q] != k) continue;
                if (h.opKind(q) == History.APPEND) own++;
                else if (viewLen[q] >= 0) previous = q;
            }
            int length = len(o);
            boolean endsWithOwn = length >= own;
            int i = length - own;
            for (int q = h.firstOp(t); q < o && endsWithOwn; q++) {
                if (opKey[q] == k && h.opKind(q) == History.APPEND) endsWithOwn = elem(o, i++) == h.opValue(q);
            }
            if (!endsWithOwn) {
                log.nonCycle(anomaly(AnomalyType.INTERNAL, t, o, List.of(), List.of()));
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
                    log.nonCycle(anomaly(AnomalyType.INCOMPATIBLE_ORDER, reader, longest, List.of(w),
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
                log.nonCycle(anomaly(AnomalyType.DIRTY_UPDATE, reader, longest, List.of(aw, w),
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
            log.nonCycle(anomaly(AnomalyType.INCOMPATIBLE_ORDER, t, o, other == t ? List.of() : List.of(other),
                    List.of()));
            return -1;
        }
        if (len > firstBad) {
            long e = elem(o, firstBad);
            int ap = appendOp.get(k, e);
            if (ap == LongPairIntMap.MISSING) {
                log.nonCycle(anomaly(AnomalyType.THIN_AIR_READ, t, o, List.of(), List.of(), e));
            } else if (h.outcome(opTxn[ap]) == Outcome.FAIL) {
                int w = opTxn[ap];
                log.nonCycle(anomaly(AnomalyType.G1A, t, o, List.of(w),
                        List.of(new Step(w, t, EdgeKind.WR, key, e, null, false, -1)), e));
            } else {
                log.nonCycle(anomaly(AnomalyType.DUPLICATE_ELEMENTS, t, o, List.of(), List.of()));
            }
            return -1;
        }
        // The transaction's own appends to the key must not be in what it saw of the committed list.
        int a = opAccess[o];
        if (accAppends[a] > 0 && runStart[a] >= 0 && runStart[a] < len) {
            long e = elem(o, runStart[a]);
            log.nonCycle(anomaly(AnomalyType.FUTURE_READ, t, o, List.of(), List.of(), e));
            return -1;
        }
        if (len == 0) return written + k;
        long lastElem = elem(o, len - 1);
        int ap = appendOp.get(k, lastElem);
        int w = opTxn[ap];
        if (accFinalOp[opAccess[ap]] != ap) {
            log.nonCycle(anomaly(AnomalyType.G1B, t, o, List.of(w),
                    List.of(new Step(w, t, EdgeKind.WR, key, lastElem, null, false, -1)), lastElem));
            return -1;
        }
        return included[w] ? opAccess[ap] : -1;
    }

    /**
     * A list read whose value is known: a list read with values, or a read of nil in a completed ok or fail
     * transaction, which is how Jepsen records an empty list (in an invocation or an info completion nil is
     * "not known").
     */
    private boolean knownRead(int t, int o) {
        byte k = h.opKind(o);
        if (k == History.LIST_READ) return !h.opValueNull(o);
        return k == History.READ && h.opValueNull(o) && h.outcome(t) != Outcome.INFO;
    }

    /** Length of known read o's list (0 for a read of nil). */
    private int len(int o) {
        return h.opKind(o) == History.LIST_READ ? h.listLength(o) : 0;
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

    private Anomaly anomaly(AnomalyType type, int t, int op, List<Integer> others, List<Step> steps) {
        return anomaly(type, t, op, others, steps, null);
    }

    private Anomaly anomaly(AnomalyType type, int t, int op, List<Integer> others, List<Step> steps, Long element) {
        List<Txn> txns = new ArrayList<>();
        txns.add(h.txn(t));
        for (int x : others) if (x != t) txns.add(h.txn(x));
        MtcAnomaly alias = type == AnomalyType.G1A ? MtcAnomaly.ABORTED_READ
                : type == AnomalyType.G1B ? MtcAnomaly.INTERMEDIATE_READ
                : type == AnomalyType.THIN_AIR_READ ? MtcAnomaly.THIN_AIR_READ
                : type == AnomalyType.FUTURE_READ ? MtcAnomaly.FUTURE_READ : null;
        List<Step> s = steps;
        if (element != null && steps.isEmpty()) {
            s = List.of(new Step(t, t, EdgeKind.WR, h.opKey(op), element, null, false, -1));
        }
        return new Anomaly(type, CycleVariant.NONE, alias, IsolationLevel.READ_COMMITTED, txns, s, h.op(op),
                h.opKey(op));
    }
}
