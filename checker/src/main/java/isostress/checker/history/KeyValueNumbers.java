package isostress.checker.history;

import java.util.Arrays;
import java.util.List;

/**
 * Numbers the keys of a history and the (key, value) pairs written in it, as they are first seen: one numbering
 * shared by the streaming check's completed prefix and its incremental screen, which index their own per-key and
 * per-version arrays by these numbers.
 *
 * <p>Why one numbering for both: the check while running must keep up with 100,000 list-append transactions a second on
 * one core, and in a JFR profile of a million-transaction replay a third of the checking thread went to hash lookups,
 * each a cache miss, several kinds per operation: the prefix looked each appended element up in its writer map, the
 * screen inserted it again in its appender map, and both numbered the keys in maps of their own. Now the prefix
 * numbers each written pair once ({@link #write}) and hands the numbers to the screen with the transaction.
 *
 * <p>Keys are numbered through a direct table when they are small and non-negative (the workloads' keys are
 * {@code 0..n}): a key's number is then one array load, not a probe of a hash table many times larger. Other keys
 * (negative, or beyond {@link #DENSE_LIMIT}) go through a hash map.
 *
 * <p>The last pair written to each small key is kept beside the key, with its number: a read mostly shows the last
 * write of its key (a mini-transaction reads the value it then overwrites; a list read shows the element appended
 * last), so {@link #version} mostly finds its answer there, one cache line at the key's place in an array of a few
 * megabytes, rather than probing a hash table of every version ever written; so does a read of a key never written
 * (the initial value).
 */
public final class KeyValueNumbers {
    /** Returned by {@link #version} for a pair never written. */
    public static final int MISSING = LongPairIntMap.MISSING;
    /** Keys below this are numbered through the direct table (4M keys: at most 16 MB). */
    static final long DENSE_LIMIT = 1 << 22;

    /** Key to its number plus one (0: not numbered yet), for keys in [0, DENSE_LIMIT). */
    private int[] dense = new int[1024];
    private final LongPairIntMap sparse = new LongPairIntMap(16);
    private int keys;
    /** (key, value) to its version number: the order of the first write of the pair. */
    private final LongPairIntMap versions = new LongPairIntMap(1024);
    /** Keys below this have their last write kept in {@link #recent} (1M keys: at most 16 MB). */
    static final long RECENT_LIMIT = 1 << 20;
    /** Per key below RECENT_LIMIT: the last value written at {@code [2 key]}, its number plus one (0: none) after. */
    private long[] recent = new long[2048];

    /** The number of {@code key}, given on first sight (0, 1, 2, ... in that order). */
    public int key(long key) {
        if (key >= 0 && key < dense.length) {
            int n = dense[(int) key];
            if (n != 0) return n - 1;
        } else if (key >= 0 && key < DENSE_LIMIT) {
            dense = Arrays.copyOf(dense, Math.max(dense.length * 2, Integer.highestOneBit((int) key) << 1));
        } else {
            int n = sparse.putIfAbsent(key, 0, keys);
            if (n == keys) keys++;
            return n;
        }
        dense[(int) key] = keys + 1;
        return keys++;
    }

    /** Keys numbered so far. */
    public int keys() {
        return keys;
    }

    /** The version number of {@code (key, value)}, given on its first write, or {@link #MISSING}. */
    public int version(long key, long value) {
        if (key >= 0 && key < RECENT_LIMIT) {
            int i = 2 * (int) key;
            if (i >= recent.length || recent[i + 1] == 0) return MISSING; // the key was never written
            if (recent[i] == value) return (int) recent[i + 1] - 1;
        }
        return versions.get(key, value);
    }

    /** The version number of {@code (key, value)}, which is written now: a new one on the pair's first write. */
    public int write(long key, long value) {
        int n = versions.putIfAbsent(key, value, versions.size());
        if (key >= 0 && key < RECENT_LIMIT) {
            int i = 2 * (int) key;
            if (i >= recent.length) recent = Arrays.copyOf(recent, Math.max(recent.length * 2, 2 * (i / 2 + 1)));
            recent[i] = value;
            recent[i + 1] = n + 1L;
        }
        return n;
    }

    /**
     * The version number of each pair {@code ops} write, in order ({@link #write}: an append's element, a write's
     * value; -1 for any other operation), in {@code into}, or in a larger array returned when it is too short.
     */
    public int[] writes(List<MicroOp> ops, int[] into) {
        int[] out = into.length >= ops.size() ? into : new int[ops.size() * 2];
        for (int i = 0; i < ops.size(); i++) {
            MicroOp m = ops.get(i);
            out[i] = m instanceof MicroOp.Append a ? write(a.key(), a.value())
                    : m instanceof MicroOp.Write w ? write(w.key(), w.value()) : -1;
        }
        return out;
    }

    /** Versions numbered so far. */
    public int versions() {
        return versions.size();
    }
}
