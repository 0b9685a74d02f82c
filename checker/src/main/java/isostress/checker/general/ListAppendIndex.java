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
public final class ListAppendIndex {
    private final History h;
    private final AnomalyLog log;
    private final int n;
    private final LongPairIntMap keyIds = new LongPairIntMap(1024);
    private long[] keyOf = new long[64];
    private int keys;
    /** (key id, element) → append op. */
    private final LongPairIntMap appendOp = new LongPairIntMap(1024);
    private final boolean[] included;
    private final int[] opTxn;
    /** Per op: the length of the read's view of the committed list, or -1 (not a usable read). */
    private int[] viewLen;

    private ListAppendIndex(History h, AnomalyLog log) {
        this.h = h;
        this.log = log;
        this.n = h.size();
        this.included = new boolean[n];
        this.opTxn = new int[h.opCount()];
        for (int t = 0; t < n; t++) for (int o = h.firstOp(t); o < h.endOp(t); o++) opTxn[o] = t;
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

    /** The transaction owning op {@code op} (ops are stored per transaction, not in transaction order). */
    private int txnOfOp(int op) {
        return opTxn[op];
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
        // Keys, appends, and the final append of each (transaction, key).
        for (int t = 0; t < n; t++) {
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                byte kind = h.opKind(o);
                // A read of nil is how Jepsen writes an unknown list read (invocations, info completions).
                if (kind == History.READ && h.opValueNull(o)) {
                    key(h.opKey(o));
                    continue;
                }
                if (kind != History.APPEND && kind != History.LIST_READ) {
                    throw new InputException(h.source(), h.line(t), "transaction T" + t + " mixes register "
                            + "operations (" + h.op(o) + ") into a list-append history; check registers and lists "
                            + "in separate histories");
                }
                int k = key(h.opKey(o));
                if (kind == History.APPEND) {
                    long e = h.opValue(o);
                    int prev = appendOp.put(k, e, o);
                    if (prev != LongPairIntMap.MISSING) {
                        int pt = txnOfOp(prev);
                        throw new InputException(h.source(), h.line(t), "duplicate appended value: transaction T"
                                + t + " appends " + e + " to key " + h.opKey(o) + ", already appended by T" + pt
                                + " (line " + h.line(pt) + "); every append to a key must add a value never "
                                + "appended to it before");
                    }
                }
            }
        }
        keyOf = Arrays.copyOf(keyOf, keys);
        includeCommitted();
        // Accesses per (transaction, key): the first external read and the final append.
        int[] accStart = new int[n + 1];
        int[] accKey = new int[16], accRead = new int[16], accWrite = new int[16], accFinalOp = new int[16];
        int[] accFirstReadOp = new int[16];
        int acc = 0;
        for (int t = 0; t < n; t++) {
            accStart[t] = acc;
            int first = acc;
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                int k = keyIds.get(h.opKey(o), 0);
                int a = first;
                while (a < acc && accKey[a] != k) a++;
                if (a == acc) {
                    if (acc == accKey.length) {
                        int c = acc * 2;
                        accKey = Arrays.copyOf(accKey, c);
                        accRead = Arrays.copyOf(accRead, c);
                        accWrite = Arrays.copyOf(accWrite, c);
                        accFinalOp = Arrays.copyOf(accFinalOp, c);
                        accFirstReadOp = Arrays.copyOf(accFirstReadOp, c);
                    }
                    accKey[a] = k;
                    accRead[a] = -1;
                    accWrite[a] = -1;
                    accFinalOp[a] = -1;
                    accFirstReadOp[a] = -1;
                    acc++;
                }
                if (h.opKind(o) == History.APPEND) accFinalOp[a] = o;
            }
        }
        accStart[n] = acc;
        // Versions: accesses that append (their final append), then one initial version per key.
        int written = acc;
        int versions = written + keys;
        int[] verKey = new int[versions], verTxn = new int[versions];
        long[] verValue = new long[versions];
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
        // What each read saw of the committed state (its view: the list without the transaction's own appends).
        viewLen = new int[h.opCount()];
        Arrays.fill(viewLen, -1);
        for (int t = 0; t < n; t++) if (included[t]) views(t);
        // The version order of each key: its longest view (Elle also reads it off the longest read).
        int[] longestOp = new int[keys];
        Arrays.fill(longestOp, -1);
        for (int t = 0; t < n; t++) {
            if (!included[t]) continue;
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                if (viewLen[o] < 0) continue;
                int k = keyIds.get(h.opKey(o), 0);
                if (longestOp[k] < 0 || viewLen[o] > viewLen[longestOp[k]]) longestOp[k] = o;
                int a = accStart[t];
                while (accKey[a] != k) a++;
                if (accFirstReadOp[a] < 0) accFirstReadOp[a] = o;
            }
        }
        int[] chainStart = new int[keys + 1];
        int[] chain = new int[Math.max(1, acc)];
        int cl = 0;
        for (int k = 0; k < keys; k++) {
            chainStart[k] = cl;
            if (longestOp[k] >= 0) cl = chainOf(k, longestOp[k], chain, cl, accStart);
        }
        chainStart[keys] = cl;
        chain = Arrays.copyOf(chain, cl);
        // Reads: validate every external read of a committed transaction, and find its version.
        int[] readStart = new int[n + 1];
        int[] rk = new int[16], rv = new int[16], ro = new int[16];
        int r = 0;
        for (int t = 0; t < n; t++) {
            readStart[t] = r;
            if (!included[t]) continue;
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                if (viewLen[o] < 0) continue;
                int k = keyIds.get(h.opKey(o), 0);
                int v = versionRead(t, o, k, longestOp[k], accStart, accFinalOp, written);
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
        // Per access: its first usable external read, and its version when committed.
        for (int t = 0; t < n; t++) {
            for (int a = accStart[t]; a < accStart[t + 1]; a++) {
                accWrite[a] = included[t] && accFinalOp[a] >= 0 ? a : -1;
                accRead[a] = -1;
                for (int i = readStart[t]; i < readStart[t + 1]; i++) {
                    if (rk[i] == accKey[a] && ro[i] == accFirstReadOp[a]) accRead[a] = rv[i];
                }
            }
        }
        int[] readKey = Arrays.copyOf(rk, r), readVer = Arrays.copyOf(rv, r), readOp = Arrays.copyOf(ro, r);
        int[] aK = Arrays.copyOf(accKey, acc), aR = Arrays.copyOf(accRead, acc), aW = Arrays.copyOf(accWrite, acc);
        long[] values = verValue;
        Observations.ValueNames names = v -> v >= written ? null : values[v];
        return new Observations(h, included, keyOf, written, verKey, verTxn, accStart, aK, aR, aW, readStart,
                readKey, readVer, readOp, chainStart, chain, true, names, key -> {
                    int k = keyIds.get(key, 0);
                    return k == LongPairIntMap.MISSING ? -1 : k;
                });
    }

    /** ok transactions, and info ones with an element in a committed read (a closure). */
    private void includeCommitted() {
        int[] work = new int[n];
        int top = 0;
        for (int t = 0; t < n; t++) {
            if (h.outcome(t) == Outcome.OK) {
                included[t] = true;
                work[top++] = t;
            }
        }
        while (top > 0) {
            int t = work[--top];
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                if (!knownRead(t, o)) continue;
                int k = keyIds.get(h.opKey(o), 0);
                for (long e : values(o)) {
                    int ap = appendOp.get(k, e);
                    if (ap == LongPairIntMap.MISSING) continue;
                    int w = txnOfOp(ap);
                    if (!included[w] && h.outcome(w) == Outcome.INFO) {
                        included[w] = true;
                        work[top++] = w;
                    }
                }
            }
        }
    }

    /**
     * Appends key k's chain (versions in order) from its longest read. Each transaction's appends to the key must
     * appear as one run, in program order, complete unless the run ends the list (a read of an intermediate state,
     * reported as G1b with the read); otherwise the order is one no execution produces (incompatible-order). A
     * committed append after an aborted one is a dirty update.
     */
    private int chainOf(int k, int longest, int[] chain, int cl, int[] accStart) {
        long[] list = Arrays.copyOf(values(longest), viewLen[longest]);
        int reader = txnOfOp(longest);
        int abortedAt = -1;
        java.util.Set<Integer> seenWriters = new java.util.HashSet<>();
        int i = 0;
        while (i < list.length) {
            int ap = appendOp.get(k, list[i]);
            if (ap == LongPairIntMap.MISSING) { // thin air: reported with the read
                i++;
                continue;
            }
            int w = txnOfOp(ap);
            long[] own = appendsOf(w, k);
            int run = 0;
            while (i + run < list.length && run < own.length && list[i + run] == own[run]) run++;
            boolean atEnd = i + run == list.length;
            if (run == 0 || (run < own.length && !atEnd) || !seenWriters.add(w)) {
                log.nonCycle(anomaly(AnomalyType.INCOMPATIBLE_ORDER, reader, longest, List.of(w),
                        List.of(new Step(w, w, EdgeKind.WW, keyOf[k], list[i], null, false, -1))));
                i += Math.max(1, run);
                continue;
            }
            if (h.outcome(w) == Outcome.FAIL) {
                if (abortedAt < 0) abortedAt = i;
            } else if (abortedAt >= 0 && included[w]) {
                int aw = txnOfOp(appendOp.get(k, list[abortedAt]));
                log.nonCycle(anomaly(AnomalyType.DIRTY_UPDATE, reader, longest, List.of(aw, w),
                        List.of(new Step(aw, w, EdgeKind.WW, keyOf[k], list[abortedAt], list[i], false, -1))));
                abortedAt = -1;
            }
            // A transaction's version is its final append to the key.
            int a = access(w, k, accStart);
            if (a >= 0 && run == own.length) chain[cl++] = a;
            i += run;
        }
        return cl;
    }

    /** Transaction t's appends to key k, in program order. */
    private long[] appendsOf(int t, int k) {
        int c = 0;
        for (int o = h.firstOp(t); o < h.endOp(t); o++) {
            if (h.opKind(o) == History.APPEND && keyIds.get(h.opKey(o), 0) == k) c++;
        }
        long[] out = new long[c];
        c = 0;
        for (int o = h.firstOp(t); o < h.endOp(t); o++) {
            if (h.opKind(o) == History.APPEND && keyIds.get(h.opKey(o), 0) == k) out[c++] = h.opValue(o);
        }
        return out;
    }

    private int access(int t, int k, int[] accStart) {
        int i = 0;
        // Accesses of t are in first-touch order; find the one of key k.
        for (int o = h.firstOp(t), a = accStart[t]; o < h.endOp(t); o++) {
            int kk = keyIds.get(h.opKey(o), 0);
            boolean seen = false;
            for (int q = h.firstOp(t); q < o && !seen; q++) seen = h.opKey(q) == h.opKey(o);
            if (seen) continue;
            if (kk == k) return a + i;
            i++;
        }
        return -1;
    }

    private boolean isFinalAppend(int t, int k, long e) {
        long last = 0;
        boolean any = false;
        for (int o = h.firstOp(t); o < h.endOp(t); o++) {
            if (h.opKind(o) == History.APPEND && keyIds.get(h.opKey(o), 0) == k) {
                last = h.opValue(o);
                any = true;
            }
        }
        return any && last == e;
    }

    /**
     * The version external read {@code o} of transaction t returned, or -1 when the read is unusable (reported).
     */
    private int versionRead(int t, int o, int k, int longest, int[] accStart, int[] accFinalOp, int written) {
        long[] list = Arrays.copyOf(values(o), viewLen[o]);
        long key = h.opKey(o);
        boolean usable = validElements(t, o, k, list.length);
        // A prefix of the longest read.
        if (!isPrefix(list, Arrays.copyOf(values(longest), viewLen[longest]))) {
            int other = txnOfOp(longest);
            log.nonCycle(anomaly(AnomalyType.INCOMPATIBLE_ORDER, t, o, other == t ? List.of() : List.of(other),
                    List.of()));
            return -1;
        }
        if (!usable) return -1;
        if (list.length == 0) return written + k;
        long lastElem = list[list.length - 1];
        int w = txnOfOp(appendOp.get(k, lastElem));
        if (!isFinalAppend(w, k, lastElem)) {
            log.nonCycle(anomaly(AnomalyType.G1B, t, o, List.of(w),
                    List.of(new Step(w, t, EdgeKind.WR, key, lastElem, null, false, -1)), lastElem));
            return -1;
        }
        if (!included[w]) return -1;
        return access(w, k, accStart);
    }

    private static final long[] EMPTY = new long[0];

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

    private long[] values(int o) {
        return h.opKind(o) == History.LIST_READ ? h.listValues(o) : EMPTY;
    }

    private static boolean isPrefix(long[] a, long[] b) {
        if (a.length > b.length) return false;
        for (int i = 0; i < a.length; i++) if (a[i] != b[i]) return false;
        return true;
    }

    /**
     * Checks the first {@code upTo} elements of read o of transaction t: no duplicates (the whole list), each appended
     * by some transaction other than t that did not abort. Reports the first problem; false when there is one.
     */
    private boolean validElements(int t, int o, int k, int upTo) {
        long[] list = values(o);
        long key = h.opKey(o);
        LongPairIntMap seen = new LongPairIntMap(Math.max(4, list.length));
        for (long e : list) {
            if (seen.put(e, 0, 1) != LongPairIntMap.MISSING) {
                log.nonCycle(anomaly(AnomalyType.DUPLICATE_ELEMENTS, t, o, List.of(), List.of()));
                return false;
            }
        }
        for (int i = 0; i < upTo; i++) {
            long e = list[i];
            int ap = appendOp.get(k, e);
            if (ap == LongPairIntMap.MISSING) {
                log.nonCycle(anomaly(AnomalyType.THIN_AIR_READ, t, o, List.of(), List.of(), e));
                return false;
            }
            int w = txnOfOp(ap);
            if (w == t) {
                log.nonCycle(anomaly(AnomalyType.FUTURE_READ, t, o, List.of(), List.of(), e));
                return false;
            }
            if (h.outcome(w) == Outcome.FAIL) {
                log.nonCycle(anomaly(AnomalyType.G1A, t, o, List.of(w),
                        List.of(new Step(w, t, EdgeKind.WR, key, e, null, false, -1)), e));
                return false;
            }
        }
        return true;
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
            long key = h.opKey(o);
            List<Long> own = new ArrayList<>();
            int previous = -1;
            for (int q = h.firstOp(t); q < o; q++) {
                if (h.opKey(q) != key) continue;
                if (h.opKind(q) == History.APPEND) own.add(h.opValue(q));
                else if (viewLen[q] >= 0) previous = q;
            }
            long[] list = values(o);
            boolean endsWithOwn = list.length >= own.size();
            for (int i = 0; endsWithOwn && i < own.size(); i++) {
                endsWithOwn = list[list.length - own.size() + i] == own.get(i);
            }
            if (!endsWithOwn) {
                log.nonCycle(anomaly(AnomalyType.INTERNAL, t, o, List.of(), List.of()));
                continue;
            }
            viewLen[o] = list.length - own.size();
            if (previous >= 0 && !Arrays.equals(Arrays.copyOf(values(previous), viewLen[previous]),
                    Arrays.copyOf(list, viewLen[o]))) {
                log.nonRepeatableRead(t, previous, o);
            }
        }
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
