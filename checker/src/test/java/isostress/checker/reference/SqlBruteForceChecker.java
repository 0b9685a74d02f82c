package isostress.checker.reference;

import isostress.checker.history.Outcome;
import isostress.checker.model.IsolationLevel;
import isostress.checker.sql.Predicate;
import isostress.checker.sql.SqlHistory;
import isostress.checker.sql.SqlOp;
import isostress.checker.sql.SqlTxn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A deliberately naive reference for tiny SQL histories (Bouajjani, Enea, Román-Calvo, CAV 2025, Defs. 1-7), for
 * differential tests of {@code isostress.checker.sql.SqlChecker}. It shares no code with it and follows the
 * definitions literally:
 *
 * <ul>
 *   <li>Every subset of the {@code info} transactions is tried as committed; {@code fail} ones never are.</li>
 *   <li>Returned rows are wr edges; they must name the final version of another committed transaction (or init) and
 *       satisfy WHERE. A key the transaction wrote earlier is a local read: the statement returns exactly its own
 *       latest value if that matches WHERE.</li>
 *   <li>Every commit order (a permutation, init first, containing so) is tried; for it, every full witness: each key
 *       a read did not return is read from some co-earlier writer (init's value or † included) whose value does not
 *       satisfy WHERE (Def. 4).</li>
 *   <li>Each read checks its own transaction's level's axioms, Eq. 1 with the visibility relations of the notes'
 *       table: RC, RA, PC, SI (Prefix and Conflict), SER, over the full witness.</li>
 * </ul>
 * Exponential: for about six transactions. Returns null when {@code maxWork} runs out.
 */
public final class SqlBruteForceChecker {
    private static final String INIT = "init";

    private final SqlHistory h;
    private final IsolationLevel override;
    private long work;
    private final long maxWork;

    private record Version(int txn, Map<String, Object> value, boolean last) {}

    /** A read statement of transaction {@code txn} at position {@code pos}; per key: fixed writer, local, or free. */
    private record ReadStmt(int txn, int pos, Predicate where, List<String> keys, Map<String, Integer> fixed) {}

    private SqlBruteForceChecker(SqlHistory h, IsolationLevel override, long maxWork) {
        this.h = h;
        this.override = override;
        this.maxWork = maxWork;
    }

    /** True (consistent), false (inconsistent) or null (gave up after maxWork steps). */
    public static Boolean check(SqlHistory h, IsolationLevel override, long maxWork) {
        return new SqlBruteForceChecker(h, override, maxWork).run();
    }

    private Boolean run() {
        List<SqlTxn> info = new ArrayList<>();
        for (SqlTxn t : h.txns()) if (t.outcome() == Outcome.INFO) info.add(t);
        boolean gaveUp = false;
        for (int mask = 0; mask < (1 << info.size()); mask++) {
            List<SqlTxn> committed = new ArrayList<>();
            for (SqlTxn t : h.txns()) {
                if (t.outcome() == Outcome.OK || (t.outcome() == Outcome.INFO && (mask & (1 << info.indexOf(t))) != 0)) committed.add(t);
            }
            Boolean r = consistent(committed);
            if (r == null) gaveUp = true;
            else if (r) return true;
        }
        return gaveUp ? null : false;
    }

    // ---- one choice of committed transactions ----
    private List<SqlTxn> txns;
    private Map<String, Version> versions;
    private Map<String, String> tableOf;
    private List<Map<String, Map<String, Object>>> finalWrites;
    private List<ReadStmt> reads;

    private Boolean consistent(List<SqlTxn> committed) {
        txns = new ArrayList<>();
        txns.add(null); // 0 = init
        txns.addAll(committed);
        tableOf = new LinkedHashMap<>();
        for (SqlHistory.InitRow r : h.init()) tableOf.put(r.key(), r.table());
        for (SqlTxn t : h.txns()) for (SqlOp op : t.ops()) for (String k : keysOf(op)) tableOf.putIfAbsent(k, op.table());
        versions = new HashMap<>();
        finalWrites = new ArrayList<>();
        Map<String, Map<String, Object>> init = new HashMap<>();
        for (String k : tableOf.keySet()) init.put(k, null);
        for (SqlHistory.InitRow r : h.init()) init.put(r.key(), r.value());
        finalWrites.add(init);
        for (String k : tableOf.keySet()) versions.put(k + "/" + INIT, new Version(0, init.get(k), true));
        for (int i = 1; i < txns.size(); i++) {
            Map<String, Map<String, Object>> last = new HashMap<>();
            Map<String, String> lastId = new HashMap<>();
            for (SqlOp op : txns.get(i).ops()) {
                for (Map.Entry<String, Map<String, Object>> e : writesOf(op).entrySet()) {
                    last.put(e.getKey(), e.getValue());
                    lastId.put(e.getKey(), op.writeId());
                }
            }
            finalWrites.add(last);
            for (SqlOp op : txns.get(i).ops()) {
                for (Map.Entry<String, Map<String, Object>> e : writesOf(op).entrySet()) {
                    versions.put(e.getKey() + "/" + op.writeId(), new Version(i, e.getValue(), lastId.get(e.getKey()).equals(op.writeId())));
                }
            }
        }
        reads = new ArrayList<>();
        for (int i = 1; i < txns.size(); i++) {
            Map<String, Map<String, Object>> mine = new HashMap<>();
            Set<String> mineKeys = new java.util.HashSet<>();
            List<SqlOp> ops = txns.get(i).ops();
            for (int p = 0; p < ops.size(); p++) {
                SqlOp op = ops.get(p);
                if (!(op instanceof SqlOp.Insert)) {
                    Map<String, String> returned = new HashMap<>();
                    Map<String, Map<String, Object>> returnedVal = new HashMap<>();
                    for (SqlOp.ReadRow r : rowsOf(op)) {
                        returned.put(r.key(), r.writer());
                        returnedVal.put(r.key(), r.value());
                    }
                    List<String> keys = new ArrayList<>();
                    Map<String, Integer> fixed = new HashMap<>();
                    for (Map.Entry<String, String> e : tableOf.entrySet()) {
                        if (!e.getValue().equals(op.table())) continue;
                        String k = e.getKey();
                        if (mineKeys.contains(k)) {
                            boolean match = op.where().test(mine.get(k));
                            if (match != returned.containsKey(k)) return false;
                            if (match && !returned.get(k).equals(ownId(ops, p, k))) return false;
                            continue;
                        }
                        keys.add(k);
                        if (!returned.containsKey(k)) continue;
                        Version v = versions.get(k + "/" + returned.get(k));
                        if (v == null || v.txn() == i || !v.last() || !op.where().test(v.value())) return false;
                        if (op instanceof SqlOp.Select && !sameValue(returnedVal.get(k), v.value())) return false;
                        fixed.put(k, v.txn());
                    }
                    reads.add(new ReadStmt(i, p, op.where(), keys, fixed));
                }
                for (Map.Entry<String, Map<String, Object>> e : writesOf(op).entrySet()) {
                    mine.put(e.getKey(), e.getValue());
                    mineKeys.add(e.getKey());
                }
            }
        }
        int n = txns.size();
        int[] order = new int[n];
        boolean[] used = new boolean[n];
        order[0] = 0;
        used[0] = true;
        return permute(order, used, 1);
    }

    private static String ownId(List<SqlOp> ops, int before, String key) {
        String id = null;
        for (int p = 0; p < before; p++) if (writesOf(ops.get(p)).containsKey(key)) id = ops.get(p).writeId();
        return id;
    }

    private Boolean permute(int[] order, boolean[] used, int depth) {
        int n = order.length;
        if (depth == n) return witnesses(order);
        boolean gaveUp = false;
        for (int t = 1; t < n; t++) {
            if (used[t]) continue;
            boolean ok = true;
            for (int u = 1; u < n && ok; u++) if (!used[u] && u != t && so(u, t)) ok = false;
            if (!ok) continue;
            used[t] = true;
            order[depth] = t;
            Boolean r = permute(order, used, depth + 1);
            used[t] = false;
            if (r == null) gaveUp = true;
            else if (r) return true;
        }
        return gaveUp ? null : false;
    }

    private boolean so(int a, int b) {
        if (a == 0) return b != 0;
        if (b == 0) return false;
        SqlTxn x = txns.get(a), y = txns.get(b);
        return x.session() == y.session() && x.index() < y.index();
    }

    /** Every full witness for this commit order; true when one satisfies every axiom. */
    private Boolean witnesses(int[] order) {
        int n = order.length;
        int[] pos = new int[n];
        for (int i = 0; i < n; i++) pos[order[i]] = i;
        List<Map<String, Integer>> wr = new ArrayList<>();
        for (ReadStmt r : reads) {
            for (Map.Entry<String, Integer> e : r.fixed().entrySet()) if (pos[e.getValue()] > pos[r.txn()]) return false;
            wr.add(new HashMap<>(r.fixed()));
        }
        List<int[]> free = new ArrayList<>();
        for (int ri = 0; ri < reads.size(); ri++) {
            ReadStmt r = reads.get(ri);
            for (int ki = 0; ki < r.keys().size(); ki++) if (!r.fixed().containsKey(r.keys().get(ki))) free.add(new int[]{ri, ki});
        }
        return assign(free, 0, wr, pos);
    }

    private Boolean assign(List<int[]> free, int i, List<Map<String, Integer>> wr, int[] pos) {
        if (++work > maxWork) return null;
        if (i == free.size()) return axioms(wr, pos);
        ReadStmt r = reads.get(free.get(i)[0]);
        String k = r.keys().get(free.get(i)[1]);
        boolean gaveUp = false;
        for (int w = 0; w < txns.size(); w++) {
            if (w == r.txn() || !finalWrites.get(w).containsKey(k) || pos[w] > pos[r.txn()]) continue;
            if (r.where().test(finalWrites.get(w).get(k))) continue;
            wr.get(free.get(i)[0]).put(k, w);
            Boolean b = assign(free, i + 1, wr, pos);
            wr.get(free.get(i)[0]).remove(k);
            if (b == null) gaveUp = true;
            else if (b) return true;
        }
        return gaveUp ? null : false;
    }

    private boolean axioms(List<Map<String, Integer>> wr, int[] pos) {
        for (int ri = 0; ri < reads.size(); ri++) {
            ReadStmt r = reads.get(ri);
            int t = r.txn();
            IsolationLevel lv = override != null ? override : txns.get(t).level();
            for (Map.Entry<String, Integer> e : wr.get(ri).entrySet()) {
                String x = e.getKey();
                int t1 = e.getValue();
                for (int t2 = 0; t2 < txns.size(); t2++) {
                    if (t2 == t1 || !finalWrites.get(t2).containsKey(x)) continue;
                    if (vis(lv, t2, ri, wr, pos) && pos[t2] > pos[t1]) return false;
                }
            }
        }
        return true;
    }

    /** (a, t) ∈ wr for some read of t and some key; with {@code beforePos}, only reads po-before that position. */
    private boolean readsFrom(int a, int t, List<Map<String, Integer>> wr, int beforePos) {
        for (int ri = 0; ri < reads.size(); ri++) {
            ReadStmt r = reads.get(ri);
            if (r.txn() != t || r.pos() >= beforePos) continue;
            if (wr.get(ri).containsValue(a)) return true;
        }
        return false;
    }

    private boolean vis(IsolationLevel lv, int t2, int ri, List<Map<String, Integer>> wr, int[] pos) {
        ReadStmt r = reads.get(ri);
        int t = r.txn();
        switch (lv) {
            case READ_COMMITTED:
                return so(t2, t) || readsFrom(t2, t, wr, r.pos());
            case READ_ATOMIC:
                return so(t2, t) || readsFrom(t2, t, wr, Integer.MAX_VALUE);
            case SERIALIZABLE:
                return pos[t2] < pos[t];
            case PREFIX:
                return prefix(t2, t, wr, pos);
            case SNAPSHOT_ISOLATION:
                if (prefix(t2, t, wr, pos)) return true;
                for (int t4 = 0; t4 < txns.size(); t4++) {
                    if ((t4 == t2 || pos[t2] < pos[t4]) && pos[t4] < pos[t] && shareWrite(t4, t)) return true;
                }
                return false;
            default:
                throw new IllegalArgumentException("unsupported level " + lv);
        }
    }

    private boolean prefix(int t2, int t, List<Map<String, Integer>> wr, int[] pos) {
        for (int t4 = 0; t4 < txns.size(); t4++) {
            if ((t4 == t2 || pos[t2] < pos[t4]) && (so(t4, t) || readsFrom(t4, t, wr, Integer.MAX_VALUE))) return true;
        }
        return false;
    }

    private boolean shareWrite(int a, int b) {
        if (a == b) return false;
        for (String k : finalWrites.get(a).keySet()) if (finalWrites.get(b).containsKey(k)) return true;
        return false;
    }

    private static boolean sameValue(Map<String, Object> a, Map<String, Object> b) {
        if (a == null || b == null) return a == b;
        if (!a.keySet().equals(b.keySet())) return false;
        for (String c : a.keySet()) {
            Object x = a.get(c), y = b.get(c);
            if (x instanceof Number p && y instanceof Number q ? p.doubleValue() != q.doubleValue() : !Objects.equals(x, y)) return false;
        }
        return true;
    }

    private static List<SqlOp.ReadRow> rowsOf(SqlOp op) {
        if (op instanceof SqlOp.Select s) return s.rows();
        if (op instanceof SqlOp.Update u) return u.rows();
        if (op instanceof SqlOp.Delete d) return d.rows();
        return List.of();
    }

    private static Map<String, Map<String, Object>> writesOf(SqlOp op) {
        Map<String, Map<String, Object>> m = new LinkedHashMap<>();
        if (op instanceof SqlOp.Insert ins) for (SqlOp.WriteRow r : ins.rows()) m.put(r.key(), r.value());
        if (op instanceof SqlOp.Update u) for (SqlOp.ReadRow r : u.rows()) m.put(r.key(), r.value());
        if (op instanceof SqlOp.Delete d) for (SqlOp.ReadRow r : d.rows()) m.put(r.key(), null);
        return m;
    }

    private static Set<String> keysOf(SqlOp op) {
        Set<String> s = new LinkedHashSet<>(writesOf(op).keySet());
        for (SqlOp.ReadRow r : rowsOf(op)) s.add(r.key());
        return s;
    }
}
