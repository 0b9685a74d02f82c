package isostress.checker.stream;

import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

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
 */
public final class ListScreen implements Screen {
    private final OnlineOrder g = new OnlineOrder();
    /** Transaction id to node, -1: not in. */
    private int[] node = new int[1024];
    /** (key, element) to the node of its appender (committed appenders in the prefix). */
    private final LongPairIntMap appender = new LongPairIntMap(1024);
    /** (key, element) to its position in the longest read of the key, for elements it shows. */
    private final LongPairIntMap position = new LongPairIntMap(1024);
    /** (key, element) of aborted transactions' appends. */
    private final LongPairIntMap aborted = new LongPairIntMap(64);
    private final Map<Long, KeyState> keys = new HashMap<>();
    private final Map<Long, TreeMap<Long, Integer>> sessions = new HashMap<>();
    private final boolean cyclesCount;
    private String flag;
    private boolean cycle;

    /** What is known of one key. */
    private static final class KeyState {
        long[] longest = new long[4];
        int len;
        /** Appends not shown by the longest read: element to appender node. */
        final Map<Long, Integer> unshown = new LinkedHashMap<>();
        /** Readers of the longest read (see {@link #read}). */
        final List<Integer> readers = new ArrayList<>(2);
        /** Per appender node, its last element appended to this key. */
        final Map<Integer, Long> finalElement = new HashMap<>();
    }

    /** @param cyclesCount whether a cycle is worth a whole check (serializability is asked for), or only anomalies */
    public ListScreen(boolean cyclesCount) {
        this.cyclesCount = cyclesCount;
        java.util.Arrays.fill(node, -1);
    }

    /** Why the prefix deserves a whole check now (a cycle or a non-cycle anomaly), or null. Cleared by {@link #reset}. */
    @Override
    public String flag() {
        return flag;
    }

    /** Clears the flag; a cycle found stays found (the graph keeps out its closing edge). */
    @Override
    public void reset() {
        flag = null;
    }

    /** True once the graph had a cycle. */
    @Override
    public boolean cycle() {
        return cycle;
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
     * aborted one), in the order they come in.
     */
    @Override
    public void add(Txn t) {
        if (t.outcome() == Outcome.FAIL) {
            for (MicroOp m : t.ops()) if (m instanceof MicroOp.Append a) aborted.put(a.key(), a.value(), 1);
            return;
        }
        int v = g.node();
        grow(t.id());
        node[t.id()] = v;
        session(t, v);
        List<MicroOp.Append> appends = new ArrayList<>();
        for (MicroOp m : t.ops()) {
            if (m instanceof MicroOp.Append a) {
                appends.add(a);
                if (appender.put(a.key(), a.value(), v) != LongPairIntMap.MISSING) {
                    raise("element " + a.value() + " appended twice to key " + a.key());
                }
                key(a.key()).finalElement.put(v, a.value());
            }
        }
        // Each key's external view: the first read's list, less the transaction's own appends before it, which a
        // read after them must end with (else it is an internal anomaly, for the checker to name).
        Set<Long> read = new HashSet<>();
        Map<Long, List<Long>> own = new HashMap<>();
        for (MicroOp m : t.ops()) {
            if (m instanceof MicroOp.Append a) {
                own.computeIfAbsent(a.key(), x -> new ArrayList<>()).add(a.value());
                continue;
            }
            MicroOp.ListRead r = (MicroOp.ListRead) m;
            if (r.values() == null || read.contains(r.key())) continue;
            List<Long> mine = own.getOrDefault(r.key(), List.of());
            List<Long> values = r.values();
            int ext = values.size() - mine.size();
            if (ext < 0 || !values.subList(ext, values.size()).equals(mine)) {
                raise("internal read of key " + r.key());
                read.add(r.key());
                continue;
            }
            read.add(r.key());
            read(v, r.key(), values.subList(0, ext));
        }
        for (MicroOp.Append a : appends) {
            KeyState k = key(a.key());
            if (position.get(a.key(), a.value()) != LongPairIntMap.MISSING) continue; // shown already (own read)
            if (k.unshown.putIfAbsent(a.value(), v) != null) continue;
            int last = k.len == 0 ? -1 : appender.get(a.key(), k.longest[k.len - 1]);
            if (last >= 0) edge(last, v, "ww");
            for (int r : k.readers) edge(r, v, "rw");
        }
    }

    /**
     * Node {@code v} read {@code values} from {@code key}, its own appends before the read taken off. A reader of the longest list is before every append it does not show but its
     * own: it gets an edge to each, now and as they come, until a longer read shows the next one.
     */
    private void read(int v, long key, List<Long> values) {
        KeyState k = key(key);
        Set<Long> seen = new HashSet<>();
        for (Long e : values) {
            if (!seen.add(e)) raise("duplicate element " + e + " in a read of key " + key);
            if (aborted.get(key, e) != LongPairIntMap.MISSING) raise("aborted read of element " + e + ", key " + key);
        }
        int common = Math.min(values.size(), k.len);
        for (int i = 0; i < common; i++) {
            if (k.longest[i] != values.get(i)) {
                raise("incompatible orders of key " + key);
                return;
            }
        }
        if (values.size() > k.len) lengthen(key, k, values);
        if (!values.isEmpty()) {
            long last = values.get(values.size() - 1);
            int w = appender.get(key, last);
            if (w == LongPairIntMap.MISSING) return; // an aborted element: raised already
            Long fin = k.finalElement.get(w);
            if (fin != null && fin != last) raise("intermediate read of key " + key);
            edge(w, v, "wr");
        }
        if (values.size() < k.len) {
            int next = appender.get(key, k.longest[values.size()]);
            if (next != LongPairIntMap.MISSING) edge(v, next, "rw");
        } else {
            for (int u : k.unshown.values()) edge(v, u, "rw");
            k.readers.add(v);
        }
    }

    /** The longest read of {@code key} becomes {@code values}, which extends it. */
    private void lengthen(long key, KeyState k, List<Long> values) {
        if (k.longest.length < values.size()) k.longest = java.util.Arrays.copyOf(k.longest, values.size() * 2);
        int prev = k.len == 0 ? -1 : appender.get(key, k.longest[k.len - 1]);
        int next = appender.get(key, values.get(k.len));
        if (next != LongPairIntMap.MISSING) for (int r : k.readers) edge(r, next, "rw");
        k.readers.clear();
        for (int i = k.len; i < values.size(); i++) {
            long e = values.get(i);
            k.longest[i] = e;
            position.put(key, e, i);
            k.unshown.remove(e);
            int w = appender.get(key, e);
            if (w == LongPairIntMap.MISSING) continue; // aborted: raised already
            if (prev >= 0) edge(prev, w, "ww");
            prev = w;
        }
        k.len = values.size();
        for (int u : k.unshown.values()) {
            if (u == prev) raise("intermediate read of key " + key); // its appends are split by the read
            else if (prev >= 0) edge(prev, u, "ww");
        }
    }

    private void session(Txn t, int v) {
        TreeMap<Long, Integer> s = sessions.computeIfAbsent(t.process(), p -> new TreeMap<>());
        Map.Entry<Long, Integer> before = s.floorEntry(t.invokeIndex()), after = s.ceilingEntry(t.invokeIndex());
        s.put(t.invokeIndex(), v);
        if (before != null) edge(before.getValue(), v, "so");
        if (after != null) edge(v, after.getValue(), "so");
    }

    private KeyState key(long key) {
        return keys.computeIfAbsent(key, x -> new KeyState());
    }

    private void edge(int x, int y, String kind) {
        if (!g.add(x, y)) {
            cycle = true;
            if (cyclesCount) raise("a dependency cycle closed by a " + kind + " edge");
        }
    }

    private void raise(String why) {
        if (flag == null) flag = why;
    }

    private void grow(int id) {
        if (id < node.length) return;
        int old = node.length;
        node = java.util.Arrays.copyOf(node, Math.max(old * 2, id + 1));
        java.util.Arrays.fill(node, old, node.length, -1);
    }
}
