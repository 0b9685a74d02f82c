package isostress.checker.reference;

import isostress.checker.history.History;
import isostress.checker.history.Outcome;
import isostress.checker.model.IsolationLevel;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A deliberately naive reference checker for small register histories, for differential tests of the fast checkers
 * (an independent reference for the differential tests). It shares no code with them and follows the definitions literally:
 *
 * <ul>
 *   <li>Every subset of the {@code info} transactions is tried as committed (an unknown outcome may be either).</li>
 *   <li>Reads are validated one by one: a read after the transaction's own write of the key must return that write
 *       (Int); any other read must return the key's initial value or the final write of another committed
 *       transaction, which is then its writer (wr).</li>
 *   <li>RC, RA, CC, PC, SI and SER: Biswas &amp; Enea, OOPSLA 2019, §2.2 Table 1, by enumerating every commit order
 *       (a total order containing so ∪ wr) and testing each axiom instance "T3 reads x from T1, T2 ≠ T1 writes x,
 *       φ(T2, T3) ⇒ T2 commits before T1". Session order is transitive.</li>
 *   <li>SSER: SER with a commit order that also contains real-time order (T1 completed before T2 was invoked; an
 *       {@code info} transaction never completed).</li>
 *   <li>PSI: abstract executions of Cerone, Bernardi &amp; Gotsman (CONCUR 2015), in {@link PsiBruteForce}.</li>
 *   <li>LIN: for each key separately, an order of the transactions touching it that respects real time and register
 *       semantics (each transaction a single operation on the key: its first read, then its last write).</li>
 * </ul>
 *
 * Exponential: meant for histories of about eight transactions.
 */
public final class BruteForceChecker {
    private static final int INIT = -1;
    private static final IsolationLevel[] AXIOMATIC = {IsolationLevel.READ_COMMITTED, IsolationLevel.READ_ATOMIC,
            IsolationLevel.CAUSAL, IsolationLevel.PREFIX, IsolationLevel.SNAPSHOT_ISOLATION,
            IsolationLevel.SERIALIZABLE, IsolationLevel.STRICT_SERIALIZABLE};

    private final History h;
    private final Map<Long, List<Integer>> versionOrder;

    private BruteForceChecker(History h, Map<Long, List<Integer>> versionOrder) {
        this.h = h;
        this.versionOrder = versionOrder;
    }

    /** Whether {@code h} is valid at each level (all eight). */
    public static Map<IsolationLevel, Boolean> check(History h) {
        return new BruteForceChecker(h, null).run();
    }

    /**
     * Whether {@code h} is valid at each level with the version order given (per key, its writers in order, as a
     * commit log shows them): only commit orders that place each key's committed writers in that order count, and
     * for PSI only such arbitrations ({@link FixedOrder}). Linearizability is answered as without the order.
     */
    public static Map<IsolationLevel, Boolean> check(History h, Map<Long, List<Integer>> versionOrder) {
        return new BruteForceChecker(h, versionOrder).run();
    }

    private Map<IsolationLevel, Boolean> run() {
        Map<IsolationLevel, Boolean> valid = new EnumMap<>(IsolationLevel.class);
        for (IsolationLevel l : IsolationLevel.values()) valid.put(l, false);
        List<Integer> infos = new ArrayList<>();
        for (int t = 0; t < h.size(); t++) if (h.outcome(t) == Outcome.INFO) infos.add(t);
        for (int mask = 0; mask < (1 << infos.size()); mask++) {
            boolean[] committed = new boolean[h.size()];
            for (int t = 0; t < h.size(); t++) committed[t] = h.outcome(t) == Outcome.OK;
            for (int i = 0; i < infos.size(); i++) if ((mask & (1 << i)) != 0) committed[infos.get(i)] = true;
            Model m = Model.build(h, committed);
            if (m == null) continue; // some read cannot be explained with this set committed
            m.fixVersionOrder(FixedOrder.precedes(h.size(), versionOrder));
            Set<IsolationLevel> found = m.satisfiedAxiomaticLevels();
            for (IsolationLevel l : found) valid.put(l, true);
            if (h.realTime() && m.linearizable()) valid.put(IsolationLevel.LINEARIZABLE, true);
        }
        valid.put(IsolationLevel.PARALLEL_SNAPSHOT_ISOLATION, PsiBruteForce.valid(h, versionOrder)); // abstract executions
        return valid;
    }

    /** The committed transactions of one choice, with their reads resolved. */
    private static final class Model {
        final History h;
        final int[] txns; // committed transactions, in id order
        final int n;
        final long[] process;
        // Per committed txn: external reads in program order (key, writer txn index or INIT), final writes.
        final List<long[]>[] reads; // {key, writer index (INIT = -1)}
        final List<Long>[] writeKeys;
        final Map<Long, Long>[] finalWrite;
        final List<long[]>[] readValues; // {key, value, known(1/0)} external reads, for LIN
        final boolean[][] so;
        final boolean[][] wr;
        final boolean[][] rt;
        /** Pairs the given version order places (writer u of a key before writer t), as indices; all false without. */
        boolean[][] fixed;

        @SuppressWarnings("unchecked")
        private Model(History h, int[] txns) {
            this.h = h;
            this.txns = txns;
            this.n = txns.length;
            process = new long[n];
            reads = new List[n];
            writeKeys = new List[n];
            finalWrite = new Map[n];
            readValues = new List[n];
            so = new boolean[n][n];
            wr = new boolean[n][n];
            rt = new boolean[n][n];
        }

        /** Null when some read of a committed transaction has no explanation. */
        static Model build(History h, boolean[] committed) {
            int count = 0;
            for (boolean c : committed) if (c) count++;
            int[] txns = new int[count];
            int[] indexOf = new int[h.size()];
            java.util.Arrays.fill(indexOf, -2);
            for (int t = 0, i = 0; t < h.size(); t++) {
                if (committed[t]) {
                    indexOf[t] = i;
                    txns[i++] = t;
                }
            }
            Model m = new Model(h, txns);
            for (int i = 0; i < m.n; i++) {
                int t = txns[i];
                m.process[i] = h.process(t);
                m.reads[i] = new ArrayList<>();
                m.writeKeys[i] = new ArrayList<>();
                m.finalWrite[i] = new HashMap<>();
                m.readValues[i] = new ArrayList<>();
                for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                    long key = h.opKey(o);
                    byte kind = h.opKind(o);
                    if (kind == History.WRITE) m.finalWrite[i].put(key, h.opValue(o));
                    if (kind == History.CAS) m.finalWrite[i].put(key, h.casNew(o));
                }
                m.writeKeys[i].addAll(m.finalWrite[i].keySet());
            }
            // Resolve reads.
            for (int i = 0; i < m.n; i++) {
                int t = txns[i];
                Map<Long, Long> own = new HashMap<>();
                for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                    long key = h.opKey(o);
                    byte kind = h.opKind(o);
                    if (kind == History.READ || kind == History.CAS) {
                        boolean nul = h.opValueNull(o);
                        boolean unknown = nul && h.outcome(t) == Outcome.INFO && kind == History.READ;
                        if (unknown) {
                            // An info completion's null read was not recorded (Jepsen copies the invocation).
                            if (!own.containsKey(key)) m.readValues[i].add(new long[] {key, 0, 0});
                        } else if (own.containsKey(key)) {
                            if (kind == History.READ && (nul || own.get(key) != h.opValue(o))) return null; // Int
                        } else {
                            Long v = nul ? null : h.opValue(o);
                            int w = writerOf(h, m, key, v, i);
                            if (w == -2) return null;
                            m.reads[i].add(new long[] {key, w});
                            m.readValues[i].add(new long[] {key, nul ? Long.MIN_VALUE : h.opValue(o), 1});
                            if (w >= 0) m.wr[w][i] = true;
                        }
                    }
                    if (kind == History.WRITE) own.put(key, h.opValue(o));
                    if (kind == History.CAS) own.put(key, h.casNew(o));
                }
            }
            for (int i = 0; i < m.n; i++) {
                for (int j = 0; j < m.n; j++) {
                    if (i == j) continue;
                    int a = txns[i], b = txns[j];
                    if (m.process[i] == m.process[j] && a < b) m.so[i][j] = true;
                    long ac = h.outcome(a) == Outcome.OK ? h.completeIndex(a) : Long.MAX_VALUE;
                    if (ac < h.invokeIndex(b)) m.rt[i][j] = true;
                }
            }
            return m;
        }

        /** Index of the committed transaction whose final write of key is v; INIT; or -2 if none. */
        private static int writerOf(History h, Model m, long key, Long v, int self) {
            if (h.initial().isInitial(key, v)) return INIT;
            if (v == null) return -2;
            for (int j = 0; j < m.n; j++) {
                if (j == self) continue;
                Long w = m.finalWrite[j].get(key);
                if (w != null && w.longValue() == v) return j;
            }
            return -2;
        }

        /** Keeps to commit orders consistent with {@code precedes} (history ids, {@link FixedOrder}). */
        void fixVersionOrder(boolean[][] precedes) {
            fixed = new boolean[n][n];
            for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) fixed[i][j] = precedes[txns[i]][txns[j]];
        }

        Set<IsolationLevel> satisfiedAxiomaticLevels() {
            Set<IsolationLevel> ok = EnumSet.noneOf(IsolationLevel.class);
            boolean[][] causal = closure(or(so, wr));
            int[] order = new int[n];
            boolean[] used = new boolean[n];
            enumerate(0, order, used, causal, ok);
            return ok;
        }

        private void enumerate(int depth, int[] order, boolean[] used, boolean[][] causal, Set<IsolationLevel> ok) {
            if (ok.size() == AXIOMATIC.length) return;
            if (depth == n) {
                int[] pos = new int[n];
                for (int i = 0; i < n; i++) pos[order[i]] = i;
                for (IsolationLevel l : AXIOMATIC) if (!ok.contains(l) && holds(l, pos, causal)) ok.add(l);
                return;
            }
            for (int c = 0; c < n; c++) {
                if (used[c]) continue;
                boolean ready = true;
                for (int p = 0; p < n && ready; p++) {
                    if (!used[p] && (so[p][c] || wr[p][c] || fixed != null && fixed[p][c])) ready = false;
                }
                if (!ready) continue;
                used[c] = true;
                order[depth] = c;
                enumerate(depth + 1, order, used, causal, ok);
                used[c] = false;
            }
        }

        /** Whether commit order {@code pos} satisfies level l's axioms. */
        private boolean holds(IsolationLevel l, int[] pos, boolean[][] causal) {
            if (l == IsolationLevel.STRICT_SERIALIZABLE) {
                for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) if (rt[i][j] && pos[i] > pos[j]) return false;
            }
            for (int t3 = 0; t3 < n; t3++) {
                List<long[]> rs = reads[t3];
                for (int a = 0; a < rs.size(); a++) {
                    long x = rs.get(a)[0];
                    int t1 = (int) rs.get(a)[1];
                    for (int t2 = 0; t2 < n; t2++) {
                        if (t2 == t1 || !finalWrite[t2].containsKey(x)) continue;
                        if (!phi(l, t2, t3, a, pos, causal)) continue;
                        if (t1 == INIT || pos[t2] > pos[t1]) return false;
                    }
                }
            }
            return true;
        }

        private boolean phi(IsolationLevel l, int t2, int t3, int alpha, int[] pos, boolean[][] causal) {
            switch (l) {
                case READ_COMMITTED:
                    for (int b = 0; b < alpha; b++) if (reads[t3].get(b)[1] == t2) return true;
                    return false;
                case READ_ATOMIC:
                    return wr[t2][t3] || so[t2][t3];
                case CAUSAL:
                    return causal[t2][t3];
                case PREFIX:
                    return prefix(t2, t3, pos);
                case SNAPSHOT_ISOLATION:
                    return prefix(t2, t3, pos) || conflict(t2, t3, pos);
                default:
                    return pos[t2] < pos[t3];
            }
        }

        /** ∃t4: t2 co* t4 ∧ t4 (wr ∪ so) t3. */
        private boolean prefix(int t2, int t3, int[] pos) {
            for (int t4 = 0; t4 < n; t4++) {
                if ((t4 == t2 || pos[t2] < pos[t4]) && (wr[t4][t3] || so[t4][t3])) return true;
            }
            return false;
        }

        /** ∃t4, y: t3 writes y ∧ t4 writes y ∧ t2 co* t4 ∧ t4 co t3. */
        private boolean conflict(int t2, int t3, int[] pos) {
            for (int t4 = 0; t4 < n; t4++) {
                if (t4 == t3 || !(t4 == t2 || pos[t2] < pos[t4]) || pos[t4] > pos[t3]) continue;
                for (long y : writeKeys[t3]) if (finalWrite[t4].containsKey(y)) return true;
            }
            return false;
        }

        /** Per key: an order respecting real time and register semantics. */
        boolean linearizable() {
            Set<Long> keys = new java.util.TreeSet<>();
            for (int i = 0; i < n; i++) {
                for (long[] r : readValues[i]) keys.add(r[0]);
                keys.addAll(writeKeys[i]);
            }
            for (long key : keys) {
                List<Integer> ops = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    boolean touches = finalWrite[i].containsKey(key);
                    for (long[] r : readValues[i]) if (r[0] == key) touches = true;
                    if (touches) ops.add(i);
                }
                Long init = h.initial().valueOf(key);
                if (!linearize(key, ops, new boolean[ops.size()], 0, init == null ? Long.MIN_VALUE : init)) {
                    return false;
                }
            }
            return true;
        }

        private boolean linearize(long key, List<Integer> ops, boolean[] done, int count, long current) {
            if (count == ops.size()) return true;
            for (int a = 0; a < ops.size(); a++) {
                if (done[a]) continue;
                int i = ops.get(a);
                boolean minimal = true;
                for (int b = 0; b < ops.size() && minimal; b++) if (!done[b] && b != a && rt[ops.get(b)][i]) minimal = false;
                if (!minimal) continue;
                boolean readsOk = true;
                for (long[] r : readValues[i]) {
                    if (r[0] == key && r[2] == 1 && r[1] != current) readsOk = false;
                }
                if (!readsOk) continue;
                Long w = finalWrite[i].get(key);
                done[a] = true;
                if (linearize(key, ops, done, count + 1, w != null ? w : current)) return true;
                done[a] = false;
            }
            return false;
        }

        private boolean[][] or(boolean[][] a, boolean[][] b) {
            boolean[][] c = new boolean[n][n];
            for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) c[i][j] = a[i][j] || b[i][j];
            return c;
        }

        private boolean[][] closure(boolean[][] a) {
            boolean[][] c = new boolean[n][];
            for (int i = 0; i < n; i++) c[i] = a[i].clone();
            for (int k = 0; k < n; k++) {
                for (int i = 0; i < n; i++) {
                    if (!c[i][k]) continue;
                    for (int j = 0; j < n; j++) if (c[k][j]) c[i][j] = true;
                }
            }
            return c;
        }
    }
}
