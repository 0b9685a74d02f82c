package isostress.checker.general;

import isostress.checker.history.History;
import isostress.checker.history.InputException;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.Outcome;

import java.util.Arrays;

/**
 * The operations of a list-append history compiled for {@link ListAppendIndex}: keys made dense, each element's
 * append op (an element appended twice to a key is refused), one access per (transaction, key) in first-touch
 * order, and the transactions counted as committed. Fields are read directly by {@link ListAppendIndex}, which copies
 * them into its own final fields: the arrays are its hot path.
 */
final class ListAccesses {
    final History h;
    final int n;
    final LongPairIntMap keyIds = new LongPairIntMap(1024);
    long[] keyOf = new long[64];
    int keys;
    /** (key id, element) → append op. */
    AppendTable appendOp;
    final boolean[] included;
    // Per op: its transaction, dense key and access.
    final int[] opTxn, opKey, opAccess;
    // Per access: key, final append op (-1: none), number of appends; transaction t owns accStart[t]..accStart[t+1]-1.
    int acc;
    int[] accStart, accKey, accFinalOp, accAppends;

    private ListAccesses(History h) {
        this.h = h;
        this.n = h.size();
        this.included = new boolean[n];
        int ops = h.opCount();
        this.opTxn = new int[ops];
        this.opKey = new int[ops];
        this.opAccess = new int[ops];
    }

    /** Compiles {@code h}; raises {@link InputException} for mixed histories and elements appended twice. */
    static ListAccesses of(History h) {
        ListAccesses c = new ListAccesses(h);
        c.scanOps();
        c.includeCommitted();
        return c;
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
        accKey = Arrays.copyOf(accKey, acc);
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
                if (!knownRead(h, t, o)) continue;
                for (int i = 0, l = len(h, o); i < l; i++) {
                    int ap = appendOp.get(opKey[o], h.listValue(o, i));
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
     * A list read whose value is known: a list read with values, or a read of nil in a completed ok or fail
     * transaction, which is how Jepsen records an empty list (in an invocation or an info completion nil is
     * "not known").
     */
    static boolean knownRead(History h, int t, int o) {
        byte k = h.opKind(o);
        if (k == History.LIST_READ) return !h.opValueNull(o);
        return k == History.READ && h.opValueNull(o) && h.outcome(t) != Outcome.INFO;
    }

    /** Length of known read o's list (0 for a read of nil). */
    static int len(History h, int o) {
        return h.opKind(o) == History.LIST_READ ? h.listLength(o) : 0;
    }
}
