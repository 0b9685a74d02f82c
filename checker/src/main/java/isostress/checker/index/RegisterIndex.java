package isostress.checker.index;

import isostress.checker.history.History;
import isostress.checker.history.InputException;
import isostress.checker.history.LongColumn;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.Outcome;

import java.util.Arrays;

/**
 * A mini-transaction history compiled for checking: keys made dense, each transaction's accesses (one per key it
 * touches, with its first external read and its last write), the transactions counted as committed, and the
 * version forest of each key.
 *
 * <p>Why this is enough (MTC §IV-A): values are unique, so every read names its writer (WR is determined); every
 * write is preceded by a read of the same key (read-modify-write), so every write names the version it overwrote,
 * and WW is determined except where two writers overwrote the same version (the Divergence pattern, Def. 10).
 * Per key the versions therefore form a forest: each written version's parent is the version its writer read; the
 * roots are the key's initial version (the paper's ⊥T) and versions whose writer's read is unusable (an anomaly).
 * A version with two or more children is a lost update.
 *
 * <p>Only the MT property the algorithms rely on is required: every write preceded by a read of its key in the same
 * transaction (Def. 8, second criterion). Transactions with more than four operations or two keys are accepted
 * (the algorithms and their proofs do not use those bounds; they keep database execution short). Blind writes and
 * list operations are rejected with the first offending transaction named.
 *
 * <p>Outcomes: {@code ok} transactions are committed; {@code fail} ones are not, and reading their writes is G1a;
 * an {@code info} transaction is committed iff some committed transaction read one of its writes (computed as a
 * closure), otherwise it is dropped, which only removes constraints. In an {@code info} transaction a null read is
 * "not known" (Jepsen copies the invocation), in an {@code ok} one it is the initial value.
 *
 * <p>Helpers, one job each: {@link KeyIds} (dense keys), {@link WriteIndex} (who wrote each value, duplicates
 * refused), {@link ReadAnomalyScan} (non-cycle anomalies), {@link VersionTour} (ancestry in the version forest).
 */
public final class RegisterIndex {
    /** Source of an access with no usable external read. */
    public static final int NONE = -1;

    /** Read state of an access. */
    public static final byte NO_READ = 0, READ_VALUE = 1, READ_NULL = 2, READ_UNKNOWN = 3;

    public final History h;
    public final int n;
    public final int keyCount;
    public final long[] keyOf;
    // Accesses: transaction t owns accesses accStart[t] .. accStart[t+1]-1, one per key, in first-touch order.
    public final int accCount;
    public final int[] accStart;
    public final int[] accTxn;
    public final int[] accKey;
    public final byte[] accReadState;
    /** Each access's first external read value: only while compiling (then dropped, 8 bytes an access). */
    long[] accRead;
    public final int[] accReadOp;
    public final boolean[] accWrites;
    /** Value each writing access wrote last (see {@link #accWrite(int)}); as narrow as the values allow. */
    private final LongColumn accWrite;
    /** Version read by each access's first external read: an access id (a written version), an initial version
     * {@code accCount + key}, or {@link #NONE}. */
    public final int[] accSource;
    /** The writes-map code of each access's first external read value (see {@link WriteIndex}), or MISSING; only
     * while compiling. */
    int[] accReadCode;
    public final boolean[] included;
    /** Written versions (accesses that write) whose parent is unknown because their writer's read is unknown. */
    public int undeterminedWrites;
    /** Writes not preceded by a read of their key in their transaction (none in mini-transaction histories). */
    public int blindWrites;
    private int firstBlindTxn = -1, firstBlindOp = -1;
    public int firstUndetermined = -1;
    // Versions: ids 0..accCount-1 are written versions (only accesses that write), accCount+k the initial one of key k.
    public final int versionCount;
    public final int[] childStart, children;
    public final int[] readerStart, readers;
    /** Ancestry in the version forest, built on first use: only classifying a violation or the weak levels need it. */
    private VersionTour tour;
    public final AnomalyLog anomalies;
    /** True when some version has two or more children: a lost update, so the version order is not fixed. */
    public final boolean anyDivergence;
    /** Who wrote each (key, value). */
    final WriteIndex writes;
    /** Dense id of each key. */
    private final KeyIds keyIds;

    private RegisterIndex(History h, AnomalyLog anomalies) {
        this.h = h;
        this.n = h.size();
        this.anomalies = anomalies;
        long[] keys = new long[1024];
        int kc = 0;
        int[] start = new int[n + 1];
        // Exact number of accesses (distinct keys per transaction), so the per-access arrays are not over-sized:
        // at ten million transactions the difference is gigabytes.
        int maxAcc = 0;
        for (int t = 0; t < n; t++) {
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                long key = h.opKey(o);
                boolean seen = false;
                for (int q = h.firstOp(t); q < o && !seen; q++) seen = h.opKey(q) == key;
                if (!seen) maxAcc++;
            }
        }
        int[] aTxn = new int[maxAcc], aKey = new int[maxAcc], aReadOp = new int[maxAcc];
        byte[] aReadState = new byte[maxAcc];
        long[] aRead = new long[maxAcc], aWrite = new long[maxAcc];
        boolean[] aWrites = new boolean[maxAcc];
        // Intermediate writes (a value the transaction overwrote itself): dense key, value, transaction.
        int inter = 0;
        int[] iKey = new int[16], iTxn = new int[16];
        long[] iValue = new long[16];
        int acc = 0;
        keyIds = KeyIds.of(h);
        for (int t = 0; t < n; t++) {
            start[t] = acc;
            int first = acc;
            boolean info = h.outcome(t) == Outcome.INFO;
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                byte kind = h.opKind(o);
                if (kind == History.APPEND || kind == History.LIST_READ) {
                    throw notMini(t, "has list-append operations (" + h.op(o) + ")");
                }
                long key = h.opKey(o);
                int k = keyIds.get(key);
                if (k == LongPairIntMap.MISSING) {
                    k = kc++;
                    keyIds.put(key, k);
                    if (k == keys.length) keys = Arrays.copyOf(keys, k * 2);
                    keys[k] = key;
                }
                int a = first;
                while (a < acc && aKey[a] != k) a++;
                if (a == acc) {
                    acc++;
                    aTxn[a] = t;
                    aKey[a] = k;
                    aReadState[a] = NO_READ;
                    aWrites[a] = false;
                }
                if (kind == History.READ || kind == History.CAS) {
                    if (!aWrites[a] && aReadState[a] == NO_READ) {
                        aReadOp[a] = o;
                        if (h.opValueNull(o)) {
                            aReadState[a] = info && kind == History.READ ? READ_UNKNOWN : READ_NULL;
                        } else {
                            aReadState[a] = READ_VALUE;
                            aRead[a] = h.opValue(o);
                        }
                    }
                }
                if (kind == History.WRITE || kind == History.CAS) {
                    if (aReadState[a] == NO_READ && !aWrites[a]) {
                        // A blind write: its version's place is not named by a read (general histories).
                        blindWrites++;
                        if (firstBlindTxn < 0) {
                            firstBlindTxn = t;
                            firstBlindOp = o;
                        }
                    }
                    long v = kind == History.WRITE ? h.opValue(o) : h.casNew(o);
                    if (h.initial().isInitial(key, v)) {
                        throw new InputException(h.source(), h.line(t), "duplicate written value: transaction T" + t
                                + " writes " + v + " to key " + key + ", which is also the key's initial value; "
                                + "every write of a key must write a value never written to it before");
                    }
                    if (aWrites[a]) { // the previous write becomes an intermediate one
                        if (inter == iKey.length) {
                            iKey = Arrays.copyOf(iKey, inter * 2);
                            iTxn = Arrays.copyOf(iTxn, inter * 2);
                            iValue = Arrays.copyOf(iValue, inter * 2);
                        }
                        iKey[inter] = k;
                        iTxn[inter] = t;
                        iValue[inter++] = aWrite[a];
                    }
                    aWrites[a] = true;
                    aWrite[a] = v;
                }
            }
        }
        start[n] = acc;
        keyCount = kc;
        keyOf = Arrays.copyOf(keys, kc);
        accCount = acc;
        writes = WriteIndex.ofRegisterWrites(h, kc, acc, aKey, aWrites, aWrite, aTxn, inter, iKey, iValue, iTxn, keys);
        accStart = start;
        accTxn = aTxn;
        accKey = aKey;
        accReadState = aReadState;
        accRead = aRead;
        accReadOp = aReadOp;
        accWrites = aWrites;
        accWrite = LongColumn.of(aWrite, acc);
        accSource = new int[acc];
        accReadCode = new int[acc];
        included = new boolean[n];
        versionCount = acc + kc;
        resolveSourcesAndInclusion();
        ReadAnomalyScan.scan(this);
        accRead = null;
        accReadCode = null;
        int[][] cs = group(true);
        childStart = cs[0];
        children = cs[1];
        int[][] rs = group(false);
        readerStart = rs[0];
        readers = rs[1];
        boolean div = false;
        for (int v = 0; v < versionCount && !div; v++) div = divergent(v);
        anyDivergence = div;

    }

    /** Compiles {@code h}; raises {@link InputException} for non-MT histories and duplicate written values. */
    public static RegisterIndex of(History h, AnomalyLog anomalies) {
        return new RegisterIndex(h, anomalies);
    }

    // ---- writes ----

    /** The writer of (key, value): the final-write access id, or -(txn+2) for an intermediate write, or NONE. */
    public int writerOf(long key, long value) {
        int k = keyId(key);
        return k < 0 ? NONE : decode(writes.get(k, value));
    }

    // ---- inclusion of info transactions, and each access's source version ----

    private void resolveSourcesAndInclusion() {
        boolean anyInfo = false;
        for (int t = 0; t < n; t++) {
            Outcome o = h.outcome(t);
            if (o == Outcome.OK) included[t] = true;
            else if (o == Outcome.INFO) anyInfo = true;
        }
        // One lookup per access: the writer of its first external read.
        for (int a = 0; a < accCount; a++) {
            accReadCode[a] = accReadState[a] == READ_VALUE ? writes.get(accKey[a], accRead[a]) : WriteIndex.MISSING;
        }
        if (anyInfo) includeInfoTransactionsThatWereRead();
        for (int a = 0; a < accCount; a++) {
            accSource[a] = NONE;
            int t = accTxn[a];
            if (!included[t]) continue;
            long key = keyOf[accKey[a]];
            switch (accReadState[a]) {
                case READ_NULL:
                    if (h.initial().isInitialNull(key)) accSource[a] = accCount + accKey[a];
                    break;
                case READ_VALUE: {
                    if (h.initial().isInitial(key, accRead[a])) {
                        accSource[a] = accCount + accKey[a];
                        break;
                    }
                    int w = decode(accReadCode[a]);
                    if (w >= 0 && accTxn[w] != t && h.outcome(accTxn[w]) != Outcome.FAIL) accSource[a] = w;
                    break;
                }
                case READ_UNKNOWN:
                    if (accWrites[a]) {
                        undeterminedWrites++;
                        if (firstUndetermined < 0) firstUndetermined = t;
                    }
                    break;
                default:
                    break;
            }
        }
    }

    /** Closure: a committed transaction's read of an info transaction's write commits that transaction. */
    private void includeInfoTransactionsThatWereRead() {
        int[] work = new int[n];
        int top = 0;
        for (int t = 0; t < n; t++) if (included[t]) work[top++] = t;
        while (top > 0) {
            int t = work[--top];
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                byte kind = h.opKind(o);
                if ((kind != History.READ && kind != History.CAS) || h.opValueNull(o)) continue;
                int w = writerOf(h.opKey(o), h.opValue(o));
                int wt = w >= 0 ? accTxn[w] : w == NONE ? -1 : -w - 2;
                if (wt >= 0 && !included[wt] && h.outcome(wt) == Outcome.INFO) {
                    included[wt] = true;
                    work[top++] = wt;
                }
            }
        }
    }

    /** A writes-map code as {@link #writerOf} returns it. */
    static int decode(int code) {
        if (code == WriteIndex.MISSING) return NONE;
        return (code & 1) == 0 ? code >>> 1 : -((code >>> 1) + 2);
    }

    // ---- version forest ----

    /** Groups included accesses by source version: the writers (children) or all external readers. */
    private int[][] group(boolean writersOnly) {
        int[] st = new int[versionCount + 1];
        for (int a = 0; a < accCount; a++) {
            if (accSource[a] != NONE && (!writersOnly || accWrites[a])) st[accSource[a] + 1]++;
        }
        for (int v = 0; v < versionCount; v++) st[v + 1] += st[v];
        int[] out = new int[st[versionCount]];
        int[] fill = Arrays.copyOf(st, versionCount);
        for (int a = 0; a < accCount; a++) {
            if (accSource[a] != NONE && (!writersOnly || accWrites[a])) out[fill[accSource[a]]++] = a;
        }
        return new int[][] {st, out};
    }

    /** True when version {@code a} is {@code v} or one of its descendants (both in the same key's forest). */
    public boolean descendantOrSelf(int a, int v) {
        return tour().descendantOrSelf(a, v);
    }

    private VersionTour tour() {
        if (tour == null) tour = new VersionTour(this);
        return tour;
    }

    /**
     * The version read by read (or CAS) op {@code o} of included transaction {@code t}: a final write's access, an
     * initial version, or NONE when the read is not usable (unknown, thin air, aborted, intermediate, own).
     */
    public int readSource(int t, int o) {
        long key = h.opKey(o);
        boolean nul = h.opValueNull(o);
        if (nul && h.outcome(t) == Outcome.INFO && h.opKind(o) == History.READ) return NONE;
        if (nul ? h.initial().isInitialNull(key) : h.initial().isInitial(key, h.opValue(o))) {
            return accCount + keyId(key);
        }
        if (nul) return NONE;
        int w = writerOf(key, h.opValue(o));
        if (w < 0 || accTxn[w] == t || h.outcome(accTxn[w]) == Outcome.FAIL) return NONE;
        return w;
    }

    /** The dense id of {@code key}. */
    public int keyId(long key) {
        return keyIds.find(key);
    }

    /** For each access: true when it is a version strictly below a version with two or more children. O(n). */
    public boolean[] belowDivergence() {
        return tour().belowDivergence(this);
    }

    /** True when version {@code a} hangs below a root (an initial version or a version with unusable parent). */
    public boolean inForest(int a) {
        return tour().inForest(a);
    }

    /** The transaction that wrote version {@code v}, or -1 for an initial version. */
    public int versionTxn(int v) {
        return v < accCount ? accTxn[v] : -1;
    }

    /** The value access {@code a} wrote last (meaningful when {@link #accWrites} says it writes). */
    public long accWrite(int a) {
        return accWrite.get(a);
    }

    /** The key (dense) of version {@code v}. */
    public int versionKey(int v) {
        return v < accCount ? accKey[v] : v - accCount;
    }

    /** The value of version {@code v}; null for an absent initial value. */
    public Long versionValue(int v) {
        return v < accCount ? (Long) accWrite.get(v) : h.initial().valueOf(keyOf[v - accCount]);
    }

    /** The access of transaction {@code t} on dense key {@code k}, or NONE. */
    public int access(int t, int k) {
        for (int a = accStart[t]; a < accStart[t + 1]; a++) if (accKey[a] == k) return a;
        return NONE;
    }

    /** True when some version has two or more children (a lost update). */
    public boolean divergent(int v) {
        return childStart[v + 1] - childStart[v] > 1;
    }

    /** The refusal of the mini-transaction checkers, naming the first blind write (null when there is none). */
    public InputException notMiniTransactionHistory() {
        if (firstBlindTxn < 0) return null;
        return notMini(firstBlindTxn, "writes key " + h.opKey(firstBlindOp) + " without reading it first ("
                + h.op(firstBlindOp) + ")");
    }

    private InputException notMini(int t, String why) {
        return new InputException(h.source(), h.line(t), "not a mini-transaction history: transaction T" + t
                + " (process " + h.process(t) + ") " + why + ". The mini-transaction checkers need every write "
                + "preceded by a read of the same key in the same transaction (MTC Def. 8); general histories "
                + "need the general checker");
    }
}
