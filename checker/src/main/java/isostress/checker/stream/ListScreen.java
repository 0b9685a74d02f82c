package isostress.checker.stream;

import isostress.checker.history.KeyValueNumbers;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The incremental part of the streaming check of a list-append history: the serializability dependency graph of the
 * prefix, grown as transactions come into it, with a cycle found the moment its last edge arrives
 * ({@link OnlineOrder}). A screen: it says when the whole check of the prefix is worth running, and never decides a
 * verdict itself (the caller confirms with the ordinary checker, which names the anomaly).
 *
 * <p>Why list-append can be kept incrementally while rw-register cannot: each element is appended once and a list read
 * shows the order of every append before it, so each key's version order is its longest read, and every other read
 * must be a prefix of it (Elle, Kingsbury &amp; Alvaro, VLDB 2020, §4: "recoverability" and "traceability"). The
 * edges of Adya's serialization graph follow (Elle §3-4): ww between consecutive appenders of the longest read, wr
 * from the appender of a read's last element, rw from a reader of a shorter list to the appender of the element after
 * it. A longer read only lengthens the order, so every edge stays true as the prefix grows: the graph only gains edges,
 * which a dynamic topological order maintains. Appends that no read shows yet follow the longest read in an order the
 * history leaves open; rather than a polygraph, each of them gets an edge from the last appender of the longest read
 * and from each reader of it, which every serial order has (they saw the list without it), and their order among
 * themselves stays open. Edges go straight between transactions, with no node standing for "after this list": such
 * a node would be old when a reader arrives, and an edge from a new transaction to an old node makes the dynamic
 * order search everything in between. rw-register with blind writes has no such order: it is
 * searched for (Biswas &amp; Enea §3; PolySI §4), and a new write can re-open what the search fixed.
 *
 * <p>Session order joins each transaction to its session's nearest neighbours already in. What the screen does not
 * see: real time (strict serializability adds it), cycles allowed by weaker levels, and the anomalies that are not
 * cycles except aborted and duplicate elements, incompatible orders and intermediate reads, which it flags. The caller
 * therefore also checks the whole prefix from time to time, and the end-of-run check decides.
 *
 * <p>Laid out for the check while running, which must keep up with 100,000 transactions a second: in a JFR profile of
 * a million-transaction replay with hash maps (a {@code HashMap} of per-key state, a {@code TreeMap} per session, a
 * (key, element) map each for appenders, positions and aborted appends), the maps took half of the checking thread:
 * (key, element) lookups 31% of its samples, the completed prefix's included (a cache miss each, several per element
 * read), session {@code TreeMap}s 12%, the per-key {@code HashMap} 8%. Keys are now numbered as they come, and each
 * key's state is a few arrays ({@link ListKey}): its longest read beside each element's appender, so a read is
 * compared with it and finds its appenders in the same array; the appends no read shows yet, a short list searched in
 * the order they came. Keys and appended (key, element) pairs are numbered by the completed prefix's
 * {@link KeyValueNumbers}, which the prefix fills anyway and hands over with each transaction (the prefix and the screen
 * each hashed every append and numbered every key on their own before: of the checking thread's samples, the
 * screen's key numbering took 9.5% and its appender map 6%); each element's appender is kept in an array by that
 * number, to tell elements appended twice and to find the appender of an element the short list does not hold (an
 * aborted or duplicate one). Sessions: {@link SessionNeighbours}; the graph: {@link OnlineOrder}.
 */
public final class ListScreen extends ScreenGraph implements Screen {
    /** Numbers keys (which index {@link #keys}) and appended (key, element) pairs: the prefix's, or the screen's own. */
    private final KeyValueNumbers numbers;
    /** Whether {@link #numbers} is a prefix's, which numbers each transaction's appends before handing it over. */
    private final boolean shared;
    private ListKey[] keys = new ListKey[1024];
    /**
     * Per appended pair's number, its last committed appender's mark ({@link ListKey#mark}) plus one; 0: none (not
     * appended, or by aborted transactions only).
     */
    private int[] appender = new int[1024];
    /** Scratch of {@link #add(Txn)}: the numbers of a transaction's appends. */
    private int[] ownVersions = new int[16];
    /** (key, element) of aborted transactions' appends. */
    private final LongPairIntMap aborted = new LongPairIntMap(64);
    /**
     * Scratch of {@link #add}, per operation of the transaction: its key, whether it is its transaction's last append
     * to the key, whether its element was appended before.
     */
    private ListKey[] opKey = new ListKey[16];
    private boolean[] opLast = new boolean[16], opTwice = new boolean[16];
    /** Scratch: the read being looked at, unboxed once. */
    private long[] values = new long[16];
    /** Whether a read of the transaction being added showed an element that was not an unshown append. */
    private boolean strayed;

    /**
     * A screen that numbers keys and appends itself ({@link #add(Txn)}).
     *
     * @param cyclesCount whether a cycle is worth a whole check (serializability is asked for), or only anomalies
     */
    public ListScreen(boolean cyclesCount) {
        super(cyclesCount);
        this.numbers = new KeyValueNumbers();
        this.shared = false;
    }

    /**
     * A screen fed by a completed prefix that numbers keys and appends in {@code prefixNumbers} and hands each
     * transaction over with the numbers of its appends ({@link #add(Txn, int[])}).
     */
    public ListScreen(boolean cyclesCount, KeyValueNumbers prefixNumbers) {
        super(cyclesCount);
        this.numbers = prefixNumbers;
        this.shared = true;
    }

    public int nodes() {
        return g.nodes();
    }

    @Override
    public boolean accepts(Txn t) {
        return lists(t);
    }

    /** True when the screen can read {@code t}: list operations only. */
    public static boolean lists(Txn t) {
        for (MicroOp m : t.ops()) if (!(m instanceof MicroOp.Append || m instanceof MicroOp.ListRead)) return false;
        return true;
    }

    /**
     * Takes a transaction that came into the prefix (every element it read is appended by one already in, or by an
     * aborted one), in the order they come in, numbering its appends (a screen with numbers of its own only).
     */
    @Override
    public void add(Txn t) {
        if (shared) throw new IllegalStateException("this screen shares a prefix's numbers: add(txn, versions)");
        ownVersions = numbers.writes(t.ops(), ownVersions);
        add(t, ownVersions);
    }

    /**
     * Takes a transaction that came into the prefix (every element it read is appended by one already in, or by an
     * aborted one), in the order they come in, with the number ({@link KeyValueNumbers#write}) of each of its appends.
     */
    @Override
    public void add(Txn t, int[] versions) {
        List<MicroOp> ops = t.ops();
        if (t.outcome() == Outcome.FAIL) {
            for (MicroOp m : ops) {
                if (!(m instanceof MicroOp.Append a)) continue;
                aborted.put(a.key(), a.value(), 1);
                key(a.key()).aborted++;
            }
            return;
        }
        int v = g.node();
        session(t, v);
        int n = ops.size();
        if (opKey.length < n) {
            opKey = new ListKey[n * 2];
            opLast = new boolean[n * 2];
            opTwice = new boolean[n * 2];
        }
        for (int i = 0; i < n; i++) opKey[i] = key(ops.get(i).key());
        // Which append is the transaction's last to its key: a read ending at another of its appends is intermediate.
        for (int i = n - 1; i >= 0; i--) {
            if (!(ops.get(i) instanceof MicroOp.Append)) continue;
            opLast[i] = opKey[i].finalSeenBy != v;
            opKey[i].finalSeenBy = v;
        }
        for (int i = 0; i < n; i++) {
            if (!(ops.get(i) instanceof MicroOp.Append a)) continue;
            int e = versions[i];
            if (e >= appender.length) appender = Arrays.copyOf(appender, Math.max(e + 1, appender.length * 2));
            opTwice[i] = appender[e] != 0; // a committed transaction appended it before
            appender[e] = ListKey.mark(v, opLast[i]) + 1;
            if (opTwice[i]) raise("element " + a.value() + " appended twice to key " + a.key());
        }
        // Each key's external view: the first read's list, less the transaction's own appends before it, which a
        // read after them must end with (else it is an internal anomaly, for the checker to name).
        strayed = false;
        for (int i = 0; i < n; i++) {
            if (!(ops.get(i) instanceof MicroOp.ListRead r)) continue;
            ListKey k = opKey[i];
            if (r.values() == null || k.readBy == v) continue;
            k.readBy = v;
            List<Long> list = r.values();
            int ext = list.size() - ownAppends(ops, i, r.key());
            if (ext < 0 || !endsWithOwn(list, ext, ops, i, r.key())) {
                raise("internal read of key " + r.key());
                continue;
            }
            read(v, r.key(), k, list, ext);
        }
        for (int i = 0; i < n; i++) {
            if (!(ops.get(i) instanceof MicroOp.Append a)) continue;
            ListKey k = opKey[i];
            // Shown already: only an element appended twice, or after an aborted append of it, or read by its
            // appender before appending it; other appends skip the search.
            if ((opTwice[i] || strayed || k.aborted > 0) && shows(k, a.value())) continue;
            if (opTwice[i] && k.isUnshown(a.value())) continue;
            int last = k.lastNode();
            if (last >= 0) edge(last, v, "ww");
            for (int j = 0; j < k.readersLen; j++) edge(k.readers[j], v, "rw");
            k.addUnshown(a.value(), ListKey.mark(v, opLast[i]));
        }
    }

    /**
     * Node {@code v} read the first {@code s} elements of {@code list} from {@code key}, the rest being its own
     * appends before the read. A reader of the longest list is before every append it does not show but its own: it
     * gets an edge to each, now and as they come, until a longer read shows the next one.
     */
    private void read(int v, long key, ListKey k, List<Long> list, int s) {
        if (values.length < s) values = new long[Math.max(s, values.length * 2)];
        long[] vals = values;
        for (int i = 0; i < s; i++) vals[i] = list.get(i);
        if (k.aborted > 0) {
            for (int i = 0; i < s; i++) {
                if (aborted.get(key, vals[i]) == LongPairIntMap.MISSING) continue;
                raise("aborted read of element " + vals[i] + ", key " + key);
                break;
            }
        }
        int common = Math.min(s, k.len);
        for (int i = 0; i < common; i++) {
            if (k.element(i) != vals[i]) {
                duplicates(key, vals, s);
                raise("incompatible orders of key " + key);
                return;
            }
        }
        if (k.duplicateAt < common) raise("duplicate element " + k.element(k.duplicateAt) + " in a read of key " + key);
        if (s > k.len) lengthen(key, k, vals, s);
        if (s > 0) {
            int m = k.markAt(s - 1);
            int w = ListKey.node(m);
            if (w == ListKey.NONE) return; // an aborted element: raised already
            if (!ListKey.last(m)) raise("intermediate read of key " + key);
            edge(w, v, "wr");
        }
        if (s < k.len) {
            int next = ListKey.node(k.markAt(s));
            if (next != ListKey.NONE) edge(v, next, "rw");
        } else {
            for (int j = 0; j < k.unshownLen; j++) edge(v, k.unshownNode(j), "rw");
            k.addReader(v);
        }
    }

    /** The longest read of {@code key} becomes the first {@code s} of {@code vals}, which extend it. */
    private void lengthen(long key, ListKey k, long[] vals, int s) {
        k.ensureShown(s);
        int prev = k.lastNode();
        int first = appenderOf(key, k, vals, k.len);
        int next = ListKey.node(first);
        if (next != ListKey.NONE) for (int j = 0; j < k.readersLen; j++) edge(k.readers[j], next, "rw");
        k.readersLen = 0;
        for (int i = k.len; i < s; i++) {
            int m = i == k.len ? first : appenderOf(key, k, vals, i);
            k.setShown(i, vals[i], m);
            int w = ListKey.node(m);
            if (w == ListKey.NONE) continue; // aborted: raised already
            if (prev >= 0) edge(prev, w, "ww");
            prev = w;
        }
        k.lengthened(s);
        k.compact();
        for (int j = 0; j < k.unshownLen; j++) {
            int u = k.unshownNode(j);
            if (u == prev) raise("intermediate read of key " + key); // its appends are split by the read
            else if (prev >= 0) edge(prev, u, "ww");
        }
    }

    /**
     * The mark of the appender of {@code vals[i]}, which a lengthening read shows for the first time: an unshown
     * append, taken off that list; otherwise (an aborted or duplicate element, or one its reader appends after) from
     * the map of appenders, {@link ListKey#NONE} when it has none.
     */
    private int appenderOf(long key, ListKey k, long[] vals, int i) {
        long m = k.take(vals[i]);
        if (m != Long.MIN_VALUE) return (int) m;
        strayed = true;
        for (int j = 0; j < i; j++) {
            if (vals[j] != vals[i]) continue;
            raise("duplicate element " + vals[i] + " in a read of key " + key);
            k.duplicateAt = Math.min(k.duplicateAt, i);
            break;
        }
        int e = numbers.version(key, vals[i]);
        return e == KeyValueNumbers.MISSING || e >= appender.length ? ListKey.NONE : appender[e] - 1;
    }

    /** Raises the first element {@code vals} holds twice (a read that is not a prefix of the longest one). */
    private void duplicates(long key, long[] vals, int s) {
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < s; i++) {
            if (seen.add(vals[i])) continue;
            raise("duplicate element " + vals[i] + " in a read of key " + key);
            return;
        }
    }

    /**
     * How many appends to {@code key} come before operation {@code i} of {@code ops}. Looked for among the
     * transaction's few operations, which are at hand, rather than kept per key: a per-key list is one more cold
     * cache line per append.
     */
    private static int ownAppends(List<MicroOp> ops, int i, long key) {
        int c = 0;
        for (int j = 0; j < i; j++) if (ops.get(j) instanceof MicroOp.Append a && a.key() == key) c++;
        return c;
    }

    /** Whether {@code list} ends, from {@code ext} on, with the appends to {@code key} before operation {@code i}. */
    private static boolean endsWithOwn(List<Long> list, int ext, List<MicroOp> ops, int i, long key) {
        int at = ext;
        for (int j = 0; j < i; j++) {
            if (ops.get(j) instanceof MicroOp.Append a && a.key() == key && list.get(at++) != a.value()) return false;
        }
        return true;
    }

    /** True when the longest read of {@code k} shows {@code element}. O(its length): for the rare cases only. */
    private static boolean shows(ListKey k, long element) {
        for (int i = 0; i < k.len; i++) if (k.element(i) == element) return true;
        return false;
    }

    private ListKey key(long key) {
        int i = numbers.key(key);
        if (i >= keys.length) keys = Arrays.copyOf(keys, Math.max(i + 1, keys.length * 2));
        ListKey k = keys[i];
        return k != null ? k : (keys[i] = new ListKey());
    }
}
