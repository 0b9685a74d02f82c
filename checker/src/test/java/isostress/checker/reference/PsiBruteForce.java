package isostress.checker.reference;

import isostress.checker.history.History;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A deliberately naive reference for parallel snapshot isolation on tiny register or list-append histories, by
 * abstract executions as Cerone, Bernardi and Gotsman define them (CONCUR 2015, §3-4): a total arbitration order ar,
 * a visibility vis ⊆ ar, and PSI = INT ∧ EXT ∧ SESSION ∧ TRANSVIS ∧ NOCONFLICT:
 * <ul>
 *   <li>SESSION: session order ⊆ vis; TRANSVIS: vis is transitive; NOCONFLICT: of two transactions writing a
 *       common key, one is visible to the other (so the ar-earlier to the later);</li>
 *   <li>EXT: a read of x before the transaction's own write of x returns the ar-last visible write of x (register),
 *       or the visible appends to x in ar order (list), or the initial value when none is visible; INT: a read after
 *       the transaction's own write returns that write (registers) or the visible list plus its own appends.</li>
 * </ul>
 * It shares no code with the checkers. Every subset of the {@code info} transactions is tried as committed, every
 * ar respecting session order is enumerated, and for each the smallest candidate vis is tried: the transitive
 * closure of session order, of writer -> reader for every value a read shows, and of the NOCONFLICT pairs ordered by
 * ar. Any vis satisfying the axioms contains it, and a larger vis only makes more writes visible, which can only break
 * EXT (a read shows exactly the visible writes), so this vis decides the ar. Exponential: about seven transactions.
 */
public final class PsiBruteForce {
    private final History h;
    private int n;
    private int[] txns;
    private List<List<MicroOp>> ops;
    private boolean[][] so, needed;
    private boolean[][] conflict;

    /** Pairs of writers the given version order places (history ids, {@link FixedOrder}). */
    private final boolean[][] fixed;

    private PsiBruteForce(History h, Map<Long, List<Integer>> versionOrder) {
        this.h = h;
        this.fixed = FixedOrder.precedes(h.size(), versionOrder);
    }

    /** Whether {@code h} is PSI. */
    public static boolean valid(History h) {
        return new PsiBruteForce(h, null).run();
    }

    /**
     * Whether {@code h} is PSI with each key's version order given (per key, its writers in order): only arbitrations
     * placing each key's committed writers in that order count (ar restricted to a key's writers is its version
     * order).
     */
    public static boolean valid(History h, Map<Long, List<Integer>> versionOrder) {
        return new PsiBruteForce(h, versionOrder).run();
    }

    private boolean run() {
        List<Integer> infos = new ArrayList<>();
        for (int t = 0; t < h.size(); t++) if (h.outcome(t) == Outcome.INFO) infos.add(t);
        for (int mask = 0; mask < (1 << infos.size()); mask++) {
            List<Integer> committed = new ArrayList<>();
            for (int t = 0; t < h.size(); t++) {
                if (h.outcome(t) == Outcome.OK || h.outcome(t) == Outcome.INFO
                        && (mask & (1 << infos.indexOf(t))) != 0) committed.add(t);
            }
            if (setUp(committed) && permute(new int[n], new boolean[n], 0)) return true;
        }
        return false;
    }

    /** False when some read shows a value no committed transaction wrote (with this choice of info ones). */
    private boolean setUp(List<Integer> committed) {
        n = committed.size();
        txns = new int[n];
        ops = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            txns[i] = committed.get(i);
            ops.add(h.txn(txns[i]).ops());
        }
        so = new boolean[n][n];
        needed = new boolean[n][n];
        conflict = new boolean[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i == j) continue;
                so[i][j] = h.process(txns[i]) == h.process(txns[j]) && txns[i] < txns[j];
                for (long k : writtenKeys(i)) if (writtenKeys(j).contains(k)) conflict[i][j] = true;
            }
        }
        for (int j = 0; j < n; j++) {
            Map<Long, Boolean> own = new HashMap<>();
            for (MicroOp m : ops.get(j)) {
                boolean listNil = m instanceof MicroOp.Read r0 && r0.value() == null && listKey(m.key());
                if (!listNil && !own.containsKey(m.key()) && (m instanceof MicroOp.Read || m instanceof MicroOp.Cas)) {
                    Long v = m instanceof MicroOp.Read r ? r.value() : ((MicroOp.Cas) m).expected();
                    if (!(v == null && unknown(j, m)) && !h.initial().isInitial(m.key(), v)) {
                        int w = v == null ? -1 : registerWriter(m.key(), v, j);
                        if (w < 0) return false;
                        needed[w][j] = true;
                    }
                }
                if (m instanceof MicroOp.ListRead r && r.values() != null) {
                    for (Long e : r.values()) {
                        int w = appender(m.key(), e);
                        if (w < 0) return false;
                        if (w != j) needed[w][j] = true;
                    }
                }
                if (m.writes()) own.put(m.key(), true);
            }
        }
        return true;
    }

    /** True when some transaction appends to k. */
    private boolean listKey(long k) {
        for (List<MicroOp> os : ops) for (MicroOp m : os) if (m instanceof MicroOp.Append && m.key() == k) return true;
        return false;
    }

    /** An info transaction's null read was not recorded (Jepsen copies the invocation). */
    private boolean unknown(int i, MicroOp m) {
        return h.outcome(txns[i]) == Outcome.INFO && m instanceof MicroOp.Read;
    }

    private List<Long> writtenKeys(int i) {
        List<Long> out = new ArrayList<>();
        for (MicroOp m : ops.get(i)) if (m.writes() && !out.contains(m.key())) out.add(m.key());
        return out;
    }

    /** The committed transaction other than {@code self} whose final write of key is v, or -1. */
    private int registerWriter(long key, long v, int self) {
        for (int j = 0; j < n; j++) {
            if (j == self) continue;
            Long last = finalWrite(j, key);
            if (last != null && last == v) return j;
        }
        return -1;
    }

    private Long finalWrite(int j, long key) {
        Long last = null;
        for (MicroOp m : ops.get(j)) {
            if (m.key() != key) continue;
            if (m instanceof MicroOp.Write w) last = w.value();
            if (m instanceof MicroOp.Cas c) last = c.newValue();
        }
        return last;
    }

    private int appender(long key, long e) {
        for (int j = 0; j < n; j++) {
            for (MicroOp m : ops.get(j)) if (m instanceof MicroOp.Append a && a.key() == key && a.value() == e) return j;
        }
        return -1;
    }

    /** Enumerates ar, keeping session order and writer-before-reader. */
    private boolean permute(int[] order, boolean[] used, int depth) {
        if (depth == n) return holds(order);
        for (int c = 0; c < n; c++) {
            if (used[c]) continue;
            boolean ready = true;
            for (int p = 0; p < n && ready; p++) {
                if (!used[p] && (so[p][c] || needed[p][c] || fixed[txns[p]][txns[c]])) ready = false;
            }
            if (!ready) continue;
            used[c] = true;
            order[depth] = c;
            if (permute(order, used, depth + 1)) return true;
            used[c] = false;
        }
        return false;
    }

    private boolean holds(int[] order) {
        int[] pos = new int[n];
        for (int i = 0; i < n; i++) pos[order[i]] = i;
        boolean[][] vis = new boolean[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                vis[i][j] = so[i][j] || needed[i][j] || conflict[i][j] && pos[i] < pos[j];
            }
        }
        for (int k = 0; k < n; k++) {
            for (int i = 0; i < n; i++) {
                if (!vis[i][k]) continue;
                for (int j = 0; j < n; j++) if (vis[k][j]) vis[i][j] = true;
            }
        }
        for (int t = 0; t < n; t++) if (!readsHold(t, vis, order)) return false;
        return true;
    }

    /** INT and EXT for every read of transaction t. */
    private boolean readsHold(int t, boolean[][] vis, int[] order) {
        Map<Long, Long> ownValue = new HashMap<>();
        Map<Long, List<Long>> ownAppends = new HashMap<>();
        for (MicroOp m : ops.get(t)) {
            long k = m.key();
            if (m instanceof MicroOp.Read r && r.value() == null && listKey(k)) {
                if (unknown(t, m)) continue;
                m = new MicroOp.ListRead(k, List.of()); // Jepsen's nil: the empty list
            }
            if (m instanceof MicroOp.Read r) {
                if (r.value() == null && unknown(t, m)) continue;
                Long expected = ownValue.containsKey(k) ? ownValue.get(k) : visibleValue(t, k, vis, order);
                if (!Objects.equals(expected, r.value())) return false;
            } else if (m instanceof MicroOp.Cas c) {
                Long current = ownValue.containsKey(k) ? ownValue.get(k) : visibleValue(t, k, vis, order);
                if (!Objects.equals(current, c.expected())) return false;
                ownValue.put(k, c.newValue());
            } else if (m instanceof MicroOp.Write w) {
                ownValue.put(k, w.value());
            } else if (m instanceof MicroOp.Append a) {
                ownAppends.computeIfAbsent(k, x -> new ArrayList<>()).add(a.value());
            } else if (m instanceof MicroOp.ListRead r && r.values() != null) {
                List<Long> expected = new ArrayList<>();
                for (int i : order) {
                    if (!vis[i][t]) continue;
                    for (MicroOp o : ops.get(i)) if (o instanceof MicroOp.Append a && a.key() == k) expected.add(a.value());
                }
                expected.addAll(ownAppends.getOrDefault(k, List.of()));
                if (!expected.equals(r.values())) return false;
            }
        }
        return true;
    }

    /** The final write of k by the ar-last transaction visible to t that writes it, else k's initial value. */
    private Long visibleValue(int t, long k, boolean[][] vis, int[] order) {
        Long v = h.initial().valueOf(k);
        for (int i : order) {
            if (!vis[i][t]) continue;
            Long w = finalWrite(i, k);
            if (w != null) v = w;
        }
        return v;
    }
}
