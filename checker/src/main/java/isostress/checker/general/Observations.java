package isostress.checker.general;

import isostress.checker.history.History;
import isostress.checker.index.TxnReads;
import isostress.checker.index.RegisterIndex;

import isostress.checker.model.VersionOrder;

import java.util.Arrays;
import java.util.List;

/**
 * What the general checkers need from a history, whatever its data type: the committed transactions, the versions
 * each wrote, the version each read returned, and whatever part of each key's version order the data reveals.
 *
 * <p>A version is one transaction's final write of one key (its last register write, or the list after its last
 * append); every key also has an initial version. Reads are external reads only (before the transaction's own write
 * of the key): reads of one's own writes are checked for internal consistency where the history is compiled, and
 * add no dependency. The first external read of each key by each transaction is its read in the dependency graph
 * (PolySI §2.2, "T ⊢ R(x,v)"); later external reads of the key matter only to Read Committed, which lets them differ.
 *
 * <p>Register histories reveal no version order beyond what reads force; list-append histories reveal it
 * (Elle §3.1: every list read is a prefix of the key's append order), given as a chain per key. Writers missing from
 * a key's chain (appends no read observed) come after it, in an order the data does not tell.
 */
final class Observations {
    public final History h;
    /** Transactions (history ids). */
    public final int n;
    /** Transactions counted as committed: ok, or info whose write was observed. */
    public final boolean[] included;
    public final int keys;
    public final long[] keyOf;
    /** Versions 0 .. versions-1: written ones, then the initial version of each key ({@link #initialVersion}). */
    public final int versions;
    public final int[] verKey;
    /** The writer of each version, -1 for initial versions. */
    public final int[] verTxn;
    /** Per transaction: its accesses, one per key it reads externally or writes. */
    public final int[] accStart;
    public final int[] accKey;
    /** The version its first external read returned, or -1 (no usable read). */
    public final int[] accRead;
    /** The version it wrote, or -1. */
    public final int[] accWrite;
    /** Per transaction, every external read with a usable version, in program order. */
    public final int[] readStart;
    public final int[] readKey;
    public final int[] readVer;
    public final int[] readOp;
    /**
     * Per key, the known version order, initial version excluded: a list-append history's (what its reads show, or
     * the commit log's), or a register history's when a commit log gives it ({@link LogOrder}: keys it does not order
     * have an empty chain); null for register histories checked without a log.
     */
    public final int[] chainStart;
    public final int[] chain;
    /** True for list-append histories (explanations speak of lists, and a read observes its whole chain). */
    public final boolean lists;
    /**
     * Where the version order came from the database's commit log: per key, whether its chain is the log's order
     * (for rw-register histories too, which otherwise have no chain), and per version its place in the log; null
     * when checked without a log.
     */
    final LogPlaces log;
    /** Per version, its position in its key's chain, or -1. */
    private int[] chainPos;
    private final ValueNames names;
    private final java.util.function.LongToIntFunction keyIds;

    /** How versions are shown: the register value, or the last element of the list. */
    interface ValueNames {
        /** The value that identifies version v (null: an absent initial value). */
        Long value(int v);
    }

    Observations(History h, boolean[] included, long[] keyOf, int written, int[] verKey, int[] verTxn,
                 int[] accStart, int[] accKey, int[] accRead, int[] accWrite, int[] readStart, int[] readKey,
                 int[] readVer, int[] readOp, int[] chainStart, int[] chain, boolean lists, ValueNames names,
                 java.util.function.LongToIntFunction keyIds) {
        this(h, included, keyOf, written, verKey, verTxn, accStart, accKey, accRead, accWrite, readStart, readKey,
                readVer, readOp, chainStart, chain, lists, names, keyIds, null);
    }

    private Observations(History h, boolean[] included, long[] keyOf, int written, int[] verKey, int[] verTxn,
                         int[] accStart, int[] accKey, int[] accRead, int[] accWrite, int[] readStart, int[] readKey,
                         int[] readVer, int[] readOp, int[] chainStart, int[] chain, boolean lists, ValueNames names,
                         java.util.function.LongToIntFunction keyIds, LogPlaces log) {
        this.log = log;
        this.h = h;
        this.n = h.size();
        this.included = included;
        this.keys = keyOf.length;
        this.keyOf = keyOf;
        this.versions = written + keys;
        this.verKey = verKey;
        this.verTxn = verTxn;
        this.accStart = accStart;
        this.accKey = accKey;
        this.accRead = accRead;
        this.accWrite = accWrite;
        this.readStart = readStart;
        this.readKey = readKey;
        this.readVer = readVer;
        this.readOp = readOp;
        this.chainStart = chainStart;
        this.chain = chain;
        this.lists = lists;
        this.names = names;
        this.keyIds = keyIds;
    }

    /** These observations with each key's chain replaced by {@code chain} (per key), placed by {@code log}. */
    Observations withChains(int[] newChainStart, int[] newChain, LogPlaces places) {
        return new Observations(h, included, keyOf, versions - keys, verKey, verTxn, accStart, accKey, accRead,
                accWrite, readStart, readKey, readVer, readOp, newChainStart, newChain, lists, names, keyIds, places);
    }

    /**
     * Where the log places versions (see {@link #log}): per key whether its order is the log's, and its writes in the
     * log; per version the index of its write there, -1 for none (an initial version, or a key the log does not
     * give). Indices rather than the writes themselves: a million transactions' versions keep no record each.
     */
    record LogPlaces(boolean[] fromLog, List<List<VersionOrder.Write>> writes, int[] at) {
        /** Version v's write in the log, or null. */
        VersionOrder.Write place(int v, int k) {
            return at[v] < 0 ? null : writes.get(k).get(at[v]);
        }

        /** "log n1 pos 17 → pos 23" for the order of v1 and v2 when key k's order is the log's, else null. */
        String between(int k, int v1, int v2) {
            if (!fromLog[k] || at[v2] < 0) return null;
            return VersionOrder.between(place(v1, k), place(v2, k));
        }
    }

    /** The initial version of dense key k. */
    public int initialVersion(int k) {
        return versions - keys + k;
    }

    public boolean isInitial(int v) {
        return v >= versions - keys;
    }

    /** The value that identifies version v: the register value, or the list's last element. */
    public Long value(int v) {
        return names.value(v);
    }

    /**
     * How many transactions read {@code i} (an index into the reads) observed: a register read observes its
     * version's writer; a list read observes the writer of every element it shows, the key's chain up to the version
     * read (Biswas &amp; Enea's wr holds for each of them, which matters to read atomic and causal consistency).
     */
    public int observedCount(int i) {
        int v = readVer[i];
        if (isInitial(v)) return 0;
        if (!lists) return 1; // a register chain (from a commit log) orders versions; a read observes one
        int p = chainPosition(v);
        return p < 0 ? 1 : p + 1;
    }

    /** The {@code j}-th transaction read {@code i} observed (see {@link #observedCount}). */
    public int observedWriter(int i, int j) {
        int v = readVer[i];
        if (!lists || chainPosition(v) < 0) return verTxn[v];
        return verTxn[chain[chainStart[verKey[v]] + j]];
    }

    private int chainPosition(int v) {
        if (chainPos == null) {
            int[] p = new int[versions];
            java.util.Arrays.fill(p, -1);
            for (int k = 0; k < keys; k++) for (int i = chainStart[k]; i < chainStart[k + 1]; i++) p[chain[i]] = i - chainStart[k];
            chainPos = p;
        }
        return chainPos[v];
    }

    /** The version transaction t wrote of key k, or -1. */
    public int written(int t, int k) {
        for (int a = accStart[t]; a < accStart[t + 1]; a++) if (accKey[a] == k) return accWrite[a];
        return -1;
    }

    /** The version transaction t's first external read of key k returned, or -1. */
    public int read(int t, int k) {
        for (int a = accStart[t]; a < accStart[t + 1]; a++) if (accKey[a] == k) return accRead[a];
        return -1;
    }

    /** The dense id of a key, or -1. */
    public int keyId(long key) {
        int k = keyIds.applyAsInt(key);
        return k < 0 ? -1 : k;
    }

    /**
     * The observations of a compiled register history. Version ids are the index's: access ids of writing accesses,
     * then {@code accCount + key} for initial versions (accesses that do not write are simply unused ids).
     */
    public static Observations of(RegisterIndex m) {
        History h = m.h;
        int n = m.n;
        int[] verKey = new int[m.versionCount], verTxn = new int[m.versionCount];
        for (int v = 0; v < m.versionCount; v++) {
            verKey[v] = m.versionKey(v);
            verTxn[v] = m.versionTxn(v);
        }
        int[] accRead = new int[m.accCount], accWrite = new int[m.accCount];
        for (int a = 0; a < m.accCount; a++) {
            boolean in = m.included[m.accTxn[a]];
            accRead[a] = in ? m.accSource[a] : -1;
            accWrite[a] = in && m.accWrites[a] ? a : -1;
        }
        int[] readStart = new int[n + 1];
        int[] rk = new int[Math.max(16, m.accCount)], rv = new int[rk.length], ro = new int[rk.length];
        int r = 0;
        TxnReads reads = new TxnReads(m);
        for (int t = 0; t < n; t++) {
            readStart[t] = r;
            if (!m.included[t]) continue;
            int nr = reads.load(t);
            if (r + nr > rk.length) {
                int cap = Math.max(rk.length * 2, r + nr);
                rk = Arrays.copyOf(rk, cap);
                rv = Arrays.copyOf(rv, cap);
                ro = Arrays.copyOf(ro, cap);
            }
            System.arraycopy(reads.key, 0, rk, r, nr);
            System.arraycopy(reads.src, 0, rv, r, nr);
            System.arraycopy(reads.op, 0, ro, r, nr);
            r += nr;
        }
        readStart[n] = r;
        return new Observations(h, m.included, m.keyOf, m.accCount, verKey, verTxn, m.accStart, m.accKey, accRead,
                accWrite, readStart, rk, rv, ro, null, null, false, m::versionValue, m::keyId);
    }
}
