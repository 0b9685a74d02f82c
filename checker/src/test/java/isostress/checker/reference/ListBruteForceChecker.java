package isostress.checker.reference;

import isostress.checker.history.History;
import isostress.checker.history.Outcome;
import isostress.checker.model.IsolationLevel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A deliberately naive reference for small list-append histories, for differential tests of the list-append
 * checker. It shares no code with it and follows operational definitions literally (Cerone, Bernardi &amp;
 * Gotsman, CONCUR 2015, where a list read returns the visible appends in commit order):
 *
 * <ul>
 *   <li>Every subset of the {@code info} transactions is tried as committed; failed transactions never take
 *       effect.</li>
 *   <li>Every commit order of the committed transactions that respects session order is enumerated.</li>
 *   <li>SER: the transactions run one after another in that order; every known read must equal the list at that
 *       point (with the transaction's own earlier appends at the end). SSER: the same, for orders that also respect
 *       real time (T1 completed before T2 was invoked).</li>
 *   <li>PC: each transaction reads one snapshot: a prefix of the commit order ending before it, and containing its
 *       session's earlier transactions; reads return the snapshot's lists plus its own appends. SI: PC, and no
 *       transaction that commits after the snapshot and before it appends to a key it appends to.</li>
 *   <li>RC, RA, CC: the list is stored (Elle's model): each key's committed appends form one list in commit order,
 *       and a read returns one of its versions, a prefix (then the reader's own appends), written by transactions
 *       committed before the reader. Biswas &amp; Enea's axioms then read "T2 precedes the version read" for "T2
 *       commits before the writer read from": the prefix must contain the key's appends by: RC, the writers of what
 *       the transaction's earlier reads returned; RA, its session's earlier transactions and the writers of anything
 *       it read; CC, its causal past, the closure of session order and of "wrote an element the other read".</li>
 * </ul>
 * A read of nil in an ok or fail transaction is the empty list (Jepsen's notation); in an info one it is unknown.
 * PSI: {@link PsiBruteForce}, by abstract executions.
 * Exponential: meant for histories of about seven transactions.
 */
public final class ListBruteForceChecker {
    /**
     * The levels this reference decides by commit orders; {@link #check} also answers PSI (by {@link PsiBruteForce}),
     * which the list checker may leave unknown where the append order is open, so it is compared on its own.
     */
    public static final List<IsolationLevel> LEVELS = List.of(IsolationLevel.READ_COMMITTED,
            IsolationLevel.READ_ATOMIC, IsolationLevel.CAUSAL, IsolationLevel.PREFIX,
            IsolationLevel.SNAPSHOT_ISOLATION, IsolationLevel.SERIALIZABLE, IsolationLevel.STRICT_SERIALIZABLE);

    private final History h;
    private final Map<Long, List<Integer>> versionOrder;
    /** Pairs of transactions the given append order places (history ids, {@link FixedOrder}). */
    private final boolean[][] fixed;

    private ListBruteForceChecker(History h, Map<Long, List<Integer>> versionOrder) {
        this.h = h;
        this.versionOrder = versionOrder;
        this.fixed = FixedOrder.precedes(h.size(), versionOrder);
    }

    /** Whether {@code h} is valid at each of {@link #LEVELS}. */
    public static Map<IsolationLevel, Boolean> check(History h) {
        return new ListBruteForceChecker(h, null).run();
    }

    /**
     * Whether {@code h} is valid at each of {@link #LEVELS} and PSI with each key's append order given (per key, its
     * appenders in order, as a commit log shows them): only commit orders, and PSI arbitrations, that place each
     * key's committed appenders in that order count.
     */
    public static Map<IsolationLevel, Boolean> check(History h, Map<Long, List<Integer>> versionOrder) {
        return new ListBruteForceChecker(h, versionOrder).run();
    }

    private Map<IsolationLevel, Boolean> run() {
        Map<IsolationLevel, Boolean> valid = new EnumMap<>(IsolationLevel.class);
        for (IsolationLevel l : LEVELS) valid.put(l, false);
        // PSI by abstract executions (Cerone, Bernardi & Gotsman, CONCUR 2015), its own enumeration.
        valid.put(IsolationLevel.PARALLEL_SNAPSHOT_ISOLATION, PsiBruteForce.valid(h, versionOrder));
        List<Integer> infos = new ArrayList<>();
        for (int t = 0; t < h.size(); t++) if (h.outcome(t) == Outcome.INFO) infos.add(t);
        for (int mask = 0; mask < (1 << infos.size()); mask++) {
            List<Integer> committed = new ArrayList<>();
            for (int t = 0; t < h.size(); t++) {
                if (h.outcome(t) == Outcome.OK) committed.add(t);
                else if (h.outcome(t) == Outcome.INFO && (mask & (1 << infos.indexOf(t))) != 0) committed.add(t);
            }
            int[] order = new int[committed.size()];
            boolean[] used = new boolean[committed.size()];
            committedNow = new boolean[h.size()];
            for (int t : committed) committedNow[t] = true;
            pasts = causalPasts(committed);
            permute(committed, order, used, 0, valid);
            if (!valid.containsValue(false)) break;
        }
        return valid;
    }

    private void permute(List<Integer> txns, int[] order, boolean[] used, int depth,
                         Map<IsolationLevel, Boolean> valid) {
        if (depth == order.length) {
            judge(order, valid);
            return;
        }
        for (int i = 0; i < txns.size(); i++) {
            if (used[i]) continue;
            int t = txns.get(i);
            // Session order: every earlier committed transaction of t's process must be placed already.
            boolean ok = true;
            for (int j = 0; j < txns.size() && ok; j++) {
                int u = txns.get(j);
                if (!used[j] && u != t && (h.process(u) == h.process(t) && u < t || fixed[u][t])) ok = false;
            }
            if (!ok) continue;
            used[i] = true;
            order[depth] = t;
            permute(txns, order, used, depth + 1, valid);
            used[i] = false;
        }
    }

    private boolean[] committedNow;
    private Map<Integer, java.util.Set<Integer>> pasts;

    private void judge(int[] order, Map<IsolationLevel, Boolean> valid) {
        for (IsolationLevel l : new IsolationLevel[] {IsolationLevel.READ_COMMITTED, IsolationLevel.READ_ATOMIC,
                IsolationLevel.CAUSAL}) {
            if (!valid.get(l) && visibleSets(order, l)) valid.put(l, true);
        }
        boolean ser = serial(order);
        if (ser) {
            valid.put(IsolationLevel.SERIALIZABLE, true);
            if (h.realTime() && respectsRealTime(order)) valid.put(IsolationLevel.STRICT_SERIALIZABLE, true);
        }
        if (!valid.get(IsolationLevel.PREFIX) || !valid.get(IsolationLevel.SNAPSHOT_ISOLATION)) {
            boolean pc = true, si = true;
            for (int i = 0; i < order.length && (pc || si); i++) {
                boolean anyPc = false, anySi = false;
                int lo = 0;
                for (int j = 0; j < i; j++) if (h.process(order[j]) == h.process(order[i])) lo = j + 1;
                for (int snap = lo; snap <= i; snap++) {
                    if (!readsFromSnapshot(order, i, snap)) continue;
                    anyPc = true;
                    if (noConflict(order, i, snap)) anySi = true;
                }
                pc &= anyPc;
                si &= anySi;
            }
            if (pc) valid.put(IsolationLevel.PREFIX, true);
            if (si) valid.put(IsolationLevel.SNAPSHOT_ISOLATION, true);
        }
    }

    /** RC, RA, CC for this commit order: every read shows exactly the appends of an allowed set of writers. */
    private boolean visibleSets(int[] order, IsolationLevel level) {
        int[] at = new int[h.size()];
        java.util.Arrays.fill(at, -1);
        for (int i = 0; i < order.length; i++) at[order[i]] = i;
        for (int t : order) {
            java.util.Set<Integer> allObserved = new java.util.HashSet<>();
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                long[] view = view(t, o);
                if (view == null) continue;
                for (long e : view) {
                    int w = appender(h.opKey(o), e);
                    if (w < 0) return false;
                    allObserved.add(w);
                }
            }
            java.util.Set<Integer> earlier = new java.util.HashSet<>();
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                long[] view = view(t, o);
                if (view == null) {
                    if (isRead(t, o)) return false; // a known read that does not end with the transaction's appends
                    continue;
                }
                long k = h.opKey(o);
                java.util.Set<Integer> required = new java.util.HashSet<>();
                if (level == IsolationLevel.READ_COMMITTED) {
                    required.addAll(earlier);
                } else if (level == IsolationLevel.READ_ATOMIC) {
                    required.addAll(allObserved);
                    for (int u : order) if (u < t && h.process(u) == h.process(t)) required.add(u);
                } else {
                    required.addAll(pasts.get(t));
                }
                // W: the writers of what the read shows, a prefix of the key's appenders in commit order, each
                // committed before t, and the list their appends in order.
                java.util.Set<Integer> w = new java.util.HashSet<>();
                for (long e : view) w.add(appender(k, e));
                for (int u : w) if (u == t || at[u] < 0 || at[u] > at[t]) return false;
                for (int u : required) {
                    if (u != t && !w.contains(u) && appendsTo(u, k)) return false;
                }
                List<Long> expect = new ArrayList<>();
                int inPrefix = 0;
                for (int u : order) {
                    if (inPrefix == w.size()) break;
                    if (u == t || !appendsTo(u, k)) continue;
                    if (!w.contains(u)) return false; // a gap: not a prefix of the stored list
                    inPrefix++;
                    for (long e : appendsOf(u, k)) expect.add(e);
                }
                if (expect.size() != view.length) return false;
                for (int i = 0; i < view.length; i++) if (expect.get(i) != view[i]) return false;
                earlier.addAll(w);
            }
        }
        return true;
    }

    private boolean isRead(int t, int o) {
        byte kind = h.opKind(o);
        if (kind == History.LIST_READ) return !h.opValueNull(o);
        return kind == History.READ && h.opValueNull(o) && h.outcome(t) != Outcome.INFO;
    }

    /** What known read o of t showed of the committed list (without t's own appends), or null. */
    private long[] view(int t, int o) {
        if (!isRead(t, o)) return null;
        long[] list = h.opKind(o) == History.LIST_READ ? h.listValues(o) : new long[0];
        List<Long> own = new ArrayList<>();
        for (int q = h.firstOp(t); q < o; q++) {
            if (h.opKind(q) == History.APPEND && h.opKey(q) == h.opKey(o)) own.add(h.opValue(q));
        }
        if (list.length < own.size()) return null;
        for (int i = 0; i < own.size(); i++) if (list[list.length - own.size() + i] != own.get(i)) return null;
        return java.util.Arrays.copyOf(list, list.length - own.size());
    }

    /** The committed transaction that appended e to k, or -1. */
    private int appender(long k, long e) {
        for (int u = 0; u < h.size(); u++) {
            if (!committedNow[u]) continue;
            for (int o = h.firstOp(u); o < h.endOp(u); o++) {
                if (h.opKind(o) == History.APPEND && h.opKey(o) == k && h.opValue(o) == e) return u;
            }
        }
        return -1;
    }

    private boolean appendsTo(int u, long k) {
        return !appendsOf(u, k).isEmpty();
    }

    private List<Long> appendsOf(int u, long k) {
        List<Long> out = new ArrayList<>();
        for (int o = h.firstOp(u); o < h.endOp(u); o++) {
            if (h.opKind(o) == History.APPEND && h.opKey(o) == k) out.add(h.opValue(o));
        }
        return out;
    }

    /** Each committed transaction's causal past: the closure of session order and of reading another's element. */
    private Map<Integer, java.util.Set<Integer>> causalPasts(List<Integer> committed) {
        Map<Integer, java.util.Set<Integer>> direct = new HashMap<>();
        for (int t : committed) {
            java.util.Set<Integer> d = new java.util.HashSet<>();
            for (int u : committed) if (u < t && h.process(u) == h.process(t)) d.add(u);
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                long[] view = view(t, o);
                if (view == null) continue;
                for (long e : view) {
                    int w = appender(h.opKey(o), e);
                    if (w >= 0 && w != t) d.add(w);
                }
            }
            direct.put(t, d);
        }
        Map<Integer, java.util.Set<Integer>> past = new HashMap<>();
        for (int t : committed) {
            java.util.Set<Integer> seen = new java.util.HashSet<>();
            java.util.ArrayDeque<Integer> work = new java.util.ArrayDeque<>(direct.get(t));
            while (!work.isEmpty()) {
                int u = work.pop();
                if (u == t || !seen.add(u)) continue;
                work.addAll(direct.getOrDefault(u, java.util.Set.of()));
            }
            past.put(t, seen);
        }
        return past;
    }

    private boolean serial(int[] order) {
        Map<Long, List<Long>> state = new HashMap<>();
        for (int t : order) {
            if (!runs(t, state)) return false;
            apply(t, state);
        }
        return true;
    }

    /** Transaction order[i] reading the snapshot of the first {@code snap} transactions. */
    private boolean readsFromSnapshot(int[] order, int i, int snap) {
        Map<Long, List<Long>> state = new HashMap<>();
        for (int j = 0; j < snap; j++) apply(order[j], state);
        return runs(order[i], state);
    }

    private boolean noConflict(int[] order, int i, int snap) {
        for (int j = snap; j < i; j++) {
            for (long k : appendedKeys(order[j])) if (appendedKeys(order[i]).contains(k)) return false;
        }
        return true;
    }

    private List<Long> appendedKeys(int t) {
        List<Long> out = new ArrayList<>();
        for (int o = h.firstOp(t); o < h.endOp(t); o++) {
            if (h.opKind(o) == History.APPEND && !out.contains(h.opKey(o))) out.add(h.opKey(o));
        }
        return out;
    }

    /** Whether t's known reads match {@code state} with its own appends; does not change the state. */
    private boolean runs(int t, Map<Long, List<Long>> state) {
        Map<Long, List<Long>> own = new HashMap<>();
        boolean info = h.outcome(t) == Outcome.INFO;
        for (int o = h.firstOp(t); o < h.endOp(t); o++) {
            long k = h.opKey(o);
            byte kind = h.opKind(o);
            if (kind == History.APPEND) {
                own.computeIfAbsent(k, x -> new ArrayList<>()).add(h.opValue(o));
                continue;
            }
            long[] seen;
            if (kind == History.LIST_READ && !h.opValueNull(o)) seen = h.listValues(o);
            else if ((kind == History.READ || kind == History.LIST_READ) && h.opValueNull(o) && !info) seen = new long[0];
            else continue;
            List<Long> expect = new ArrayList<>(state.getOrDefault(k, List.of()));
            expect.addAll(own.getOrDefault(k, List.of()));
            long[] e = new long[expect.size()];
            for (int i = 0; i < e.length; i++) e[i] = expect.get(i);
            if (!Arrays.equals(e, seen)) return false;
        }
        return true;
    }

    private void apply(int t, Map<Long, List<Long>> state) {
        for (int o = h.firstOp(t); o < h.endOp(t); o++) {
            if (h.opKind(o) != History.APPEND) continue;
            state.computeIfAbsent(h.opKey(o), x -> new ArrayList<>()).add(h.opValue(o));
        }
    }

    private boolean respectsRealTime(int[] order) {
        for (int i = 0; i < order.length; i++) {
            for (int j = 0; j < i; j++) {
                int a = order[i], b = order[j]; // b placed before a
                if (h.outcome(a) == Outcome.OK && h.completeIndex(a) < h.invokeIndex(b)) return false;
            }
        }
        return true;
    }
}
