package isostress.checker.stream;

import isostress.checker.history.KeyValueNumbers;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;

import java.util.Arrays;
import java.util.List;

/**
 * The incremental screen of a mini-transaction history ({@link Screen}): its dependency graph, grown as transactions
 * come into the prefix, with a cycle found the moment its last edge arrives ({@link OnlineOrder}).
 *
 * <p>Why mini-transactions can be kept incrementally: a key's first write in a transaction follows a read of it (no
 * blind writes), and values are unique per key, so each key's versions form a forest by reads-from: the transaction
 * that read version v of k and wrote k installed v's child (MTC, Wei et al., §IV-A); a second write of the key in
 * the same transaction makes the first an intermediate version. The edges of the
 * dependency graph (MTC §IV-B, Alg. 1, in the form of §IV-C without WW's transitive closure) are then known as soon
 * as both ends are in: wr from v's writer to each reader (which also stands for ww to v's child, its reader), and rw
 * from each other reader of v to v's child. A prefix closed under reads-from has its writers in before their readers,
 * so an edge never changes once drawn, and the graph only grows: a dynamic topological order keeps it.
 *
 * <p>Two children of one version (two transactions that read v and both wrote k) are a lost update (MTC Def. 10,
 * Lemma 1: not even SI): flagged when a level at least parallel SI is asked, and counted as a cycle (each overwrote
 * what the other read), but their sibling rw edges are not drawn; later readers of v get an edge to the first
 * child only. What the screen does not see: real time, the cycles weaker levels forbid, and non-cycle anomalies
 * other than aborted and intermediate reads; the caller checks the whole prefix each time it doubles for those.
 *
 * <p>Versions are found through the completed prefix's numbering of written (key, value) pairs
 * ({@link KeyValueNumbers}), which the prefix hands over with each transaction: before, each read and write was also
 * a look-up in a (key, value) map of the screen's own, a cache miss among a million versions, the same pairs the
 * prefix had just hashed.
 */
public final class MiniScreen extends ScreenGraph implements Screen {
    /** The value standing for a read of null (the initial state of an absent key) in the version map. */
    private static final long NULL_VALUE = Long.MIN_VALUE;
    /** The layout of {@link #ver}. */
    private static final int STRIDE = 4, WRITER = 0, CHILD = 1, READERS = 2, INTERMEDIATE = 3;
    private final boolean conflictsCount;
    /** Numbers written (key, value) pairs: the prefix's, or the screen's own. */
    private final KeyValueNumbers numbers;
    /** Whether {@link #numbers} is a prefix's, which numbers each transaction's writes before handing it over. */
    private final boolean shared;
    /**
     * Per number of a (key, value) pair, its version's slot in the arrays below plus one (0: none yet). The last
     * committed write of the pair has it; a pair read before any committed write (the initial value, or an aborted
     * write's) gets one when first read.
     */
    private int[] slotOf = new int[1024];
    /**
     * The pairs read while they had no number (the initial value, null, a value only an aborted transaction wrote):
     * per key number ({@link KeyValueNumbers#key}) the first such value at {@code [2 k]} and its version's slot plus
     * one (0: none) after it, since each key mostly has one, its initial value; the others in {@link #unnumbered}.
     * Why not only the map: about one read in ten of a simulated million-transaction history reads an initial value,
     * and the map (a cache miss each) was a tenth of the checking thread's samples.
     */
    private long[] firstUnnumbered = new long[2048];
    /** (key, value) to its version's slot, for the pairs without a number that {@link #firstUnnumbered} does not hold. */
    private final LongPairIntMap unnumbered = new LongPairIntMap(64);
    /** Scratch of {@link #add(Txn)}: the numbers of a transaction's writes. */
    private int[] ownVersions = new int[8];
    /** (key, value) written by aborted transactions. */
    private final LongPairIntMap aborted = new LongPairIntMap(64);
    /**
     * Per version, at {@code STRIDE * slot}: its writer's node (-1: initial), its first child's node (-1: none yet),
     * its readers' list head (-1: none), and 1 when it is intermediate (written by a transaction that wrote its key
     * again, so no one may read it). One array with the four side by side, not four arrays: a version is looked up
     * at random among a million, and the profile of the check while running was dominated by cache misses.
     */
    private int[] ver = new int[STRIDE * 1024];
    private int slots;
    /** Readers' lists, linked: per entry, its reader's node and the next entry (-1: end). */
    private int[] readerNode = new int[1024], nextReader = new int[1024];
    private int entries;
    /**
     * Per key read by the transaction being added (reused across transactions): the version it read, and the last
     * version it wrote (-1: none yet).
     */
    private long[] readKey = new long[8];
    private int[] readSlot = new int[8], ownSlot = new int[8];

    /**
     * @param cyclesCount    whether a cycle is worth a whole check (serializability is asked for)
     * @param conflictsCount whether a lost update is (a level at least parallel snapshot isolation is asked for)
     */
    public MiniScreen(boolean cyclesCount, boolean conflictsCount) {
        super(cyclesCount);
        this.conflictsCount = conflictsCount;
        this.numbers = new KeyValueNumbers();
        this.shared = false;
    }

    /**
     * A screen fed by a completed prefix that numbers written pairs in {@code prefixNumbers} and hands each
     * transaction over with the numbers of what it read and wrote ({@link #add(Txn, int[])}).
     */
    public MiniScreen(boolean cyclesCount, boolean conflictsCount, KeyValueNumbers prefixNumbers) {
        super(cyclesCount);
        this.conflictsCount = conflictsCount;
        this.numbers = prefixNumbers;
        this.shared = true;
    }

    /**
     * True when {@code t} is a mini-transaction the screen can read: register reads and writes only, and, in a
     * committed transaction, each key's first write after a read of that key.
     */
    public static boolean minis(Txn t) {
        List<MicroOp> ops = t.ops();
        for (int i = 0; i < ops.size(); i++) {
            MicroOp m = ops.get(i);
            if (m instanceof MicroOp.Read) continue;
            if (!(m instanceof MicroOp.Write w)) return false;
            boolean readBefore = false;
            for (int j = 0; j < i; j++) {
                if (ops.get(j) instanceof MicroOp.Read r && r.key() == w.key()) readBefore = true;
            }
            if (!readBefore && t.outcome() != Outcome.FAIL) return false; // a blind write
        }
        return true;
    }

    @Override
    public boolean accepts(Txn t) {
        return minis(t);
    }

    /** Takes a transaction, numbering its writes (a screen with numbers of its own only). */
    @Override
    public void add(Txn t) {
        if (shared) throw new IllegalStateException("this screen shares a prefix's numbers: add(txn, versions)");
        ownVersions = numbers.writes(t.ops(), ownVersions);
        add(t, ownVersions);
    }

    /**
     * Takes a transaction that came into the prefix, with the number ({@link KeyValueNumbers}) of the pair each of its
     * operations wrote or read (-1 for a read: not known, looked up here).
     */
    @Override
    public void add(Txn t, int[] versions) {
        List<MicroOp> ops = t.ops();
        if (t.outcome() == Outcome.FAIL) {
            for (MicroOp m : ops) if (m instanceof MicroOp.Write w) aborted.put(w.key(), w.value(), 1);
            return;
        }
        int v = g.node();
        session(t, v);
        int reads = 0;
        for (int j = 0, n = ops.size(); j < n; j++) {
            MicroOp m = ops.get(j);
            if (m instanceof MicroOp.Read r) {
                if (find(r.key(), reads) >= 0) continue; // a second read of the key, or one of its own write
                if (reads == readKey.length) grow();
                readKey[reads] = r.key();
                ownSlot[reads] = -1;
                readSlot[reads++] = read(v, r.key(), r.value() == null ? NULL_VALUE : r.value(), versions[j]);
            } else {
                MicroOp.Write w = (MicroOp.Write) m;
                int i = find(w.key(), reads); // found: a committed mini-transaction read the key first
                if (ownSlot[i] < 0) overwrite(v, readSlot[i], w.key());
                else ver[STRIDE * ownSlot[i] + INTERMEDIATE] = 1; // R1W1R1W1, R1R1W1W1: the last write is installed
                int s = slot();
                remember(w.key(), w.value(), versions[j], s);
                ver[STRIDE * s + WRITER] = v;
                ownSlot[i] = s;
            }
        }
        // Only now, as a reader of a version it did not overwrite: its own child needs no rw edge from it, and most
        // mini-transactions overwrite what they read.
        for (int i = 0; i < reads; i++) if (ownSlot[i] < 0) reader(v, readSlot[i]);
    }

    /** Node {@code v} read {@code value} of {@code key}, numbered {@code number} (-1: look it up); returns its slot. */
    private int read(int v, long key, long value, int number) {
        if (number < 0) number = numbers.version(key, value); // the initial value, null, or not handed over
        int s = number >= 0 && number < slotOf.length && slotOf[number] != 0 ? slotOf[number] - 1
                : unnumberedSlot(key, value);
        if (s == LongPairIntMap.MISSING) {
            if (aborted.size() > 0 && aborted.get(key, value) != LongPairIntMap.MISSING) {
                raise("aborted read of key " + key);
            }
            s = slot(); // the initial version (the prefix holds every other value's writer)
            remember(key, value, number, s);
        }
        int at = STRIDE * s;
        if (ver[at + INTERMEDIATE] != 0) raise("intermediate read of key " + key);
        if (ver[at + WRITER] >= 0) edge(ver[at + WRITER], v, "wr");
        if (ver[at + CHILD] >= 0) edge(v, ver[at + CHILD], "rw");
        return s;
    }

    /** Node {@code v} read version {@code s}: an rw edge to its child when that comes. */
    private void reader(int v, int s) {
        int at = STRIDE * s;
        if (ver[at + CHILD] >= 0) return; // drawn already
        if (entries == readerNode.length) {
            readerNode = Arrays.copyOf(readerNode, entries * 2);
            nextReader = Arrays.copyOf(nextReader, entries * 2);
        }
        readerNode[entries] = v;
        nextReader[entries] = ver[at + READERS];
        ver[at + READERS] = entries++;
    }

    /** Node {@code v} wrote {@code key} after reading version {@code s} of it. */
    private void overwrite(int v, int s, long key) {
        int at = STRIDE * s;
        if (ver[at + CHILD] >= 0) {
            cycleWithoutEdges(); // each overwrote what the other read
            if (conflictsCount) raise("a lost update of key " + key);
            return;
        }
        ver[at + CHILD] = v;
        for (int e = ver[at + READERS]; e >= 0; e = nextReader[e]) edge(readerNode[e], v, "rw");
        ver[at + READERS] = -1; // later readers get their edge to the child directly
    }

    /** A new version's slot, no writer, child or reader yet. */
    private int slot() {
        if (STRIDE * slots == ver.length) ver = Arrays.copyOf(ver, ver.length * 2);
        int at = STRIDE * slots;
        ver[at + WRITER] = -1;
        ver[at + CHILD] = -1;
        ver[at + READERS] = -1;
        ver[at + INTERMEDIATE] = 0;
        return slots++;
    }

    /** The slot of {@code (key, value)}, read while it had no number, or MISSING. */
    private int unnumberedSlot(long key, long value) {
        int i = 2 * numbers.key(key);
        if (i < firstUnnumbered.length && firstUnnumbered[i + 1] != 0 && firstUnnumbered[i] == value) {
            return (int) firstUnnumbered[i + 1] - 1;
        }
        return unnumbered.size() == 0 ? LongPairIntMap.MISSING : unnumbered.get(key, value);
    }

    /** Makes {@code s} the slot of {@code (key, value)}, numbered {@code number} (-1: it has no number). */
    private void remember(long key, long value, int number, int s) {
        if (number < 0) {
            int i = 2 * numbers.key(key);
            if (i >= firstUnnumbered.length) {
                firstUnnumbered = Arrays.copyOf(firstUnnumbered, Math.max(i + 2, firstUnnumbered.length * 2));
            }
            if (firstUnnumbered[i + 1] == 0) {
                firstUnnumbered[i] = value;
                firstUnnumbered[i + 1] = s + 1L;
            } else if (firstUnnumbered[i] == value) {
                firstUnnumbered[i + 1] = s + 1L;
            } else {
                unnumbered.put(key, value, s);
            }
            return;
        }
        if (number >= slotOf.length) slotOf = Arrays.copyOf(slotOf, Math.max(number + 1, slotOf.length * 2));
        slotOf[number] = s + 1;
    }

    private int find(long key, int reads) {
        for (int i = 0; i < reads; i++) if (readKey[i] == key) return i;
        return -1;
    }

    private void grow() {
        readKey = Arrays.copyOf(readKey, readKey.length * 2);
        readSlot = Arrays.copyOf(readSlot, readSlot.length * 2);
        ownSlot = Arrays.copyOf(ownSlot, ownSlot.length * 2);
    }
}
