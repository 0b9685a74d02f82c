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
 * </ul>
 * A read of nil in an ok or fail transaction is the empty list (Jepsen's notation); in an info one it is unknown.
 * Exponential: meant for histories of about seven transactions. RC, RA and CC are not covered.
 */
public final class ListBruteForceChecker {
    /** The levels this reference decides. */
    public static final List<IsolationLevel> LEVELS = List.of(IsolationLevel.PREFIX,
            IsolationLevel.SNAPSHOT_ISOLATION, IsolationLevel.SERIALIZABLE, IsolationLevel.STRICT_SERIALIZABLE);

    private final History h;

    private ListBruteForceChecker(History h) {
        this.h = h;
    }

    /** Whether {@code h} is valid at each of {@link #LEVELS}. */
    public static Map<IsolationLevel, Boolean> check(History h) {
        return new ListBruteForceChecker(h).run();
    }

    private Map<IsolationLevel, Boolean> run() {
        Map<IsolationLevel, Boolean> valid = new EnumMap<>(IsolationLevel.class);
        for (IsolationLevel l : LEVELS) valid.put(l, false);
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
                if (!used[j] && u != t && h.process(u) == h.process(t) && u < t) ok = false;
            }
            if (!ok) continue;
            used[i] = true;
            order[depth] = t;
            permute(txns, order, used, depth + 1, valid);
            used[i] = false;
        }
    }

    private void judge(int[] order, Map<IsolationLevel, Boolean> valid) {
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
