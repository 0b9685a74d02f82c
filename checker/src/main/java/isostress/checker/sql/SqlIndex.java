package isostress.checker.sql;

import isostress.checker.history.Outcome;
import isostress.checker.model.Argument;
import isostress.checker.model.IsolationLevel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The int-indexed form of an {@link SqlHistory} the fast checker works on, and the checks that need no search.
 *
 * <p>Layout: node 0 is the paper's {@code init} (CAV 2025 §2: so-before everything, writes every key, † for a key no
 * init row names); nodes 1..n-1 are the committed transactions ordered by (session, index). {@code fail}
 * transactions are absent; an {@code info} transaction is present when a present transaction read one of its
 * versions (a fixpoint), or when the caller asks for it.
 *
 * <p>Each read event (SELECT, UPDATE, DELETE) has, per key of its table, a writer node ({@code wr}), or -1 when the
 * statement did not return the key, or is local (the transaction wrote the key earlier: no wr edge, and the statement
 * must have returned exactly its own latest value when that value matches WHERE, §2 "reads x locally").
 * <p>Checks done here: [1] local reads ("internal"); [2] reads of versions of aborted transactions; [3] reads of a
 * version another transaction overwrote itself ("intermediate read", only the po-last write of a key is observable);
 * [4] a returned version that does not satisfy WHERE, or whose columns differ from what its writer wrote.
 */
final class SqlIndex {
    /** A version present in the history: (key, write id) written by {@code node}; value null = † (absent). */
    record Ver(int node, String writeId, Map<String, Object> value, boolean fin) {}

    /** A read event: per key of its table, the writer node or -1; {@code wr} is edited by extensions. */
    static final class Read {
        final int node;
        final int opIndex;
        final SqlOp op;
        final int[] keys;
        final int[] baseWr;
        final int[] wr;
        final boolean[] local;
        /** Position in {@link SqlIndex#reads}. */
        int index;

        Read(int node, int opIndex, SqlOp op, int[] keys) {
            this.node = node;
            this.opIndex = opIndex;
            this.op = op;
            this.keys = keys;
            this.baseWr = new int[keys.length];
            this.wr = new int[keys.length];
            this.local = new boolean[keys.length];
        }

        Predicate where() {
            return op.where();
        }
    }

    final SqlHistory history;
    final int n;
    final SqlTxn[] txn;
    final IsolationLevel[] level;
    final int[][] sessions;
    final int[] sessionOf;
    /** soPred[t]: nodes so-before t (init is so-before every other node). */
    final long[][] soPred;
    final List<String> keyNames = new ArrayList<>();
    final Map<String, Integer> keyId = new HashMap<>();
    final List<Map<Integer, Ver>> writes = new ArrayList<>();
    final int[][] writersOf;
    final List<Read> reads = new ArrayList<>();
    final List<List<Read>> readsOf = new ArrayList<>();
    /** wwShare[t]: nodes other than t that write some key t writes (SI's Conflict axiom). */
    final long[][] wwShare;
    final boolean anySi;
    final List<SqlViolation> violations = new ArrayList<>();
    final Map<String, Ver> versions = new HashMap<>();

    /**
     * @param extraInfo ids of {@code info} transactions to treat as committed even if nobody read them
     * @param override  level for every reader, or null for each transaction's own level
     */
    SqlIndex(SqlHistory h, Set<Long> extraInfo, IsolationLevel override) {
        this.history = h;
        Map<String, SqlTxn> versionTxn = new HashMap<>();
        for (SqlTxn t : h.txns()) for (SqlOp op : t.ops()) for (String k : writtenKeys(op)) versionTxn.put(vkey(k, op.writeId()), t);
        Set<SqlTxn> in = included(h, extraInfo, versionTxn);
        List<SqlTxn> order = new ArrayList<>(in);
        order.sort(Comparator.comparingInt(SqlTxn::session).thenComparingInt(SqlTxn::index));
        n = order.size() + 1;
        txn = new SqlTxn[n];
        level = new IsolationLevel[n];
        sessionOf = new int[n];
        sessionOf[0] = -1;
        Map<Integer, List<Integer>> bySession = new LinkedHashMap<>();
        for (int i = 1; i < n; i++) {
            txn[i] = order.get(i - 1);
            level[i] = override != null ? override : txn[i].level();
            bySession.computeIfAbsent(txn[i].session(), s -> new ArrayList<>()).add(i);
        }
        sessions = new int[bySession.size()][];
        int s = 0;
        for (List<Integer> l : bySession.values()) {
            sessions[s] = l.stream().mapToInt(Integer::intValue).toArray();
            for (int v : sessions[s]) sessionOf[v] = s;
            s++;
        }
        soPred = Bits.matrix(n);
        for (int[] ses : sessions) {
            for (int i = 0; i < ses.length; i++) {
                Bits.set(soPred[ses[i]], 0);
                for (int j = 0; j < i; j++) Bits.set(soPred[ses[i]], ses[j]);
            }
        }
        boolean si = false;
        for (int i = 1; i < n; i++) si |= level[i] == IsolationLevel.SNAPSHOT_ISOLATION;
        anySi = si;

        Map<String, Map<String, Object>> initVal = new HashMap<>();
        for (SqlHistory.InitRow r : h.init()) {
            key(r.key());
            initVal.put(r.key(), r.value());
        }
        Map<String, List<Integer>> tableKeys = new LinkedHashMap<>();
        for (SqlHistory.InitRow r : h.init()) tableKeys.computeIfAbsent(r.table(), x -> new ArrayList<>()).add(keyId.get(r.key()));
        for (SqlTxn t : h.txns()) {
            for (SqlOp op : t.ops()) {
                for (String k : touchedKeys(op)) {
                    boolean fresh = !keyId.containsKey(k);
                    int id = key(k);
                    if (fresh) tableKeys.computeIfAbsent(op.table(), x -> new ArrayList<>()).add(id);
                }
                tableKeys.computeIfAbsent(op.table(), x -> new ArrayList<>());
            }
        }
        for (int i = 0; i < n; i++) writes.add(new HashMap<>());
        for (int k = 0; k < keyNames.size(); k++) {
            Ver v = new Ver(0, SqlHistory.INIT, initVal.get(keyNames.get(k)), true);
            writes.get(0).put(k, v);
            versions.put(vkey(keyNames.get(k), SqlHistory.INIT), v);
        }
        for (int i = 1; i < n; i++) {
            Map<Integer, Ver> last = writes.get(i);
            for (SqlOp op : txn[i].ops()) {
                for (Map.Entry<String, Map<String, Object>> e : written(op).entrySet()) {
                    Ver v = new Ver(i, op.writeId(), e.getValue(), false);
                    last.put(keyId.get(e.getKey()), v);
                }
            }
            for (Map.Entry<Integer, Ver> e : last.entrySet()) {
                Ver v = e.getValue();
                e.setValue(new Ver(v.node(), v.writeId(), v.value(), true));
            }
            for (SqlOp op : txn[i].ops()) {
                for (Map.Entry<String, Map<String, Object>> e : written(op).entrySet()) {
                    Ver fin = last.get(keyId.get(e.getKey()));
                    boolean isFinal = fin.writeId().equals(op.writeId());
                    versions.put(vkey(e.getKey(), op.writeId()), new Ver(i, op.writeId(), e.getValue(), isFinal));
                }
            }
        }
        writersOf = new int[keyNames.size()][];
        List<List<Integer>> wo = new ArrayList<>();
        for (int k = 0; k < keyNames.size(); k++) wo.add(new ArrayList<>());
        for (int i = 0; i < n; i++) for (int k : writes.get(i).keySet()) wo.get(k).add(i);
        for (int k = 0; k < keyNames.size(); k++) writersOf[k] = wo.get(k).stream().mapToInt(Integer::intValue).sorted().toArray();
        wwShare = Bits.matrix(n);
        for (int i = 1; i < n; i++) {
            for (int k : writes.get(i).keySet()) for (int w : writersOf[k]) if (w != i && w != 0) Bits.set(wwShare[i], w);
        }

        for (int i = 0; i < n; i++) readsOf.add(new ArrayList<>());
        for (int i = 1; i < n; i++) buildReads(i, tableKeys, versionTxn);
    }

    private void buildReads(int node, Map<String, List<Integer>> tableKeys, Map<String, SqlTxn> versionTxn) {
        SqlTxn t = txn[node];
        Map<Integer, Ver> own = new HashMap<>();
        for (int oi = 0; oi < t.ops().size(); oi++) {
            SqlOp op = t.ops().get(oi);
            if (!(op instanceof SqlOp.Insert)) {
                int[] keys = tableKeys.get(op.table()).stream().mapToInt(Integer::intValue).toArray();
                Read r = new Read(node, oi, op, keys);
                Map<String, SqlOp.ReadRow> returned = new HashMap<>();
                for (SqlOp.ReadRow row : readRows(op)) returned.put(row.key(), row);
                for (int j = 0; j < keys.length; j++) {
                    r.wr[j] = -1;
                    String key = keyNames.get(keys[j]);
                    SqlOp.ReadRow row = returned.get(key);
                    Ver mine = own.get(keys[j]);
                    if (mine != null) {
                        r.local[j] = true;
                        boolean shouldReturn = op.where().test(mine.value());
                        boolean ok = shouldReturn ? row != null && row.writer().equals(mine.writeId()) : row == null;
                        if (!ok) violations.add(internal(node, oi, key, mine, row, shouldReturn));
                        continue;
                    }
                    if (row == null) continue;
                    Ver v = versions.get(vkey(key, row.writer()));
                    if (v == null) {
                        SqlTxn w = versionTxn.get(vkey(key, row.writer()));
                        violations.add(simple(node, oi, w, key, row.writer(), new Argument.AbortedRead(
                                t.id(), key, row.writer(), w.id(), w.outcome() == Outcome.FAIL)));
                        continue;
                    }
                    if (v.node() == node) {
                        violations.add(simple(node, oi, null, key, row.writer(),
                                new Argument.ReadBeforeOwnWrite(t.id(), key, row.writer())));
                        continue;
                    }
                    if (!v.fin()) {
                        violations.add(simple(node, oi, txn[v.node()], key, row.writer(),
                                new Argument.IntermediateRead(t.id(), key, row.writer(), txn[v.node()].id())));
                        continue;
                    }
                    if (!op.where().test(v.value())) {
                        violations.add(simple(node, oi, v.node() == 0 ? null : txn[v.node()], key, row.writer(),
                                new Argument.PredicateMismatch(read(node, op), key, row.writer(),
                                        Predicate.row(v.value()))));
                        continue;
                    }
                    if (op instanceof SqlOp.Select && row.value() != null && !sameRow(row.value(), v.value())) {
                        violations.add(simple(node, oi, v.node() == 0 ? null : txn[v.node()], key, row.writer(),
                                new Argument.ValueMismatch(t.id(), key, row.writer(), Predicate.row(row.value()),
                                        Predicate.row(v.value()))));
                        continue;
                    }
                    r.wr[j] = v.node();
                }
                System.arraycopy(r.wr, 0, r.baseWr, 0, keys.length);
                r.index = reads.size();
                reads.add(r);
                readsOf.get(node).add(r);
            }
            for (Map.Entry<String, Map<String, Object>> e : written(op).entrySet()) {
                own.put(keyId.get(e.getKey()), new Ver(node, op.writeId(), e.getValue(), false));
            }
        }
    }

    private static boolean sameRow(Map<String, Object> a, Map<String, Object> b) {
        if (b == null || a.size() != b.size()) return false;
        for (Map.Entry<String, Object> e : a.entrySet()) {
            Object x = e.getValue(), y = b.get(e.getKey());
            if (x instanceof Number p && y instanceof Number q) {
                if (p.doubleValue() != q.doubleValue()) return false;
            } else if (!Objects.equals(x, y)) {
                return false;
            }
        }
        return true;
    }

    private SqlViolation internal(int node, int oi, String key, Ver mine, SqlOp.ReadRow row, boolean shouldReturn) {
        SqlOp op = txn[node].ops().get(oi);
        Argument.Finding f = new Argument.OwnWriteMissed(read(node, op), key, mine.writeId(),
                Predicate.row(mine.value()), shouldReturn, row == null ? null : row.writer());
        return new SqlViolation(new Argument(List.of(facts(txn[node])), f, List.of(), op.where().sql(), key,
                mine.writeId()));
    }

    private SqlViolation simple(int node, int oi, SqlTxn other, String key, String writer, Argument.Finding f) {
        SqlOp op = txn[node].ops().get(oi);
        List<Argument.SqlTxnFacts> let = new ArrayList<>(List.of(facts(txn[node])));
        if (other != null && other != txn[node]) let.add(facts(other));
        return new SqlViolation(new Argument(let, f, List.of(), op.where() == null ? null : op.where().sql(), key,
                writer));
    }

    private static Set<SqlTxn> included(SqlHistory h, Set<Long> extraInfo, Map<String, SqlTxn> versionTxn) {
        Set<SqlTxn> in = new HashSet<>();
        List<SqlTxn> todo = new ArrayList<>();
        for (SqlTxn t : h.txns()) {
            if (t.outcome() == Outcome.OK || (t.outcome() == Outcome.INFO && extraInfo.contains(t.id()))) {
                in.add(t);
                todo.add(t);
            }
        }
        while (!todo.isEmpty()) {
            SqlTxn t = todo.remove(todo.size() - 1);
            for (SqlOp op : t.ops()) {
                for (SqlOp.ReadRow r : readRows(op)) {
                    SqlTxn w = versionTxn.get(vkey(r.key(), r.writer()));
                    if (w != null && w.outcome() == Outcome.INFO && in.add(w)) todo.add(w);
                }
            }
        }
        return in;
    }

    /** Info transactions nobody present read, that write something: only they could change the answer. */
    static List<Long> unobservedInfoWriters(SqlHistory h, SqlIndex base) {
        Set<SqlTxn> present = new HashSet<>();
        for (int i = 1; i < base.n; i++) present.add(base.txn[i]);
        List<Long> out = new ArrayList<>();
        for (SqlTxn t : h.txns()) {
            if (t.outcome() != Outcome.INFO || present.contains(t)) continue;
            boolean writes = false;
            for (SqlOp op : t.ops()) writes |= !writtenKeys(op).isEmpty();
            if (writes) out.add(t.id());
        }
        return out;
    }

    private int key(String k) {
        Integer id = keyId.get(k);
        if (id != null) return id;
        keyId.put(k, keyNames.size());
        keyNames.add(k);
        return keyNames.size() - 1;
    }

    Ver finalWrite(int node, int key) {
        return writes.get(node).get(key);
    }

    boolean writes(int node, int key) {
        return writes.get(node).containsKey(key);
    }

    static String vkey(String key, String writeId) {
        return key + '\u0000' + writeId;
    }

    static List<SqlOp.ReadRow> readRows(SqlOp op) {
        if (op instanceof SqlOp.Select s) return s.rows();
        if (op instanceof SqlOp.Update u) return u.rows();
        if (op instanceof SqlOp.Delete d) return d.rows();
        return List.of();
    }

    /** Key → value (null = †) that a statement writes, in order. */
    static Map<String, Map<String, Object>> written(SqlOp op) {
        Map<String, Map<String, Object>> m = new LinkedHashMap<>();
        if (op instanceof SqlOp.Insert ins) for (SqlOp.WriteRow r : ins.rows()) m.put(r.key(), r.value());
        if (op instanceof SqlOp.Update u) for (SqlOp.ReadRow r : u.rows()) m.put(r.key(), r.value());
        if (op instanceof SqlOp.Delete d) for (SqlOp.ReadRow r : d.rows()) m.put(r.key(), null);
        return m;
    }

    static Set<String> writtenKeys(SqlOp op) {
        return written(op).keySet();
    }

    private static Set<String> touchedKeys(SqlOp op) {
        Set<String> s = new HashSet<>(writtenKeys(op));
        for (SqlOp.ReadRow r : readRows(op)) s.add(r.key());
        return s;
    }

    /** {@code T5 = [ser, session 1] SELECT ...; INSERT ...}. */
    /** {@code t} as a counterexample lists it: its level, session, outcome and statements with their rows. */
    static Argument.SqlTxnFacts facts(SqlTxn t) {
        List<String> statements = new ArrayList<>(t.ops().size());
        for (SqlOp op : t.ops()) statements.add(op.render());
        return new Argument.SqlTxnFacts(t.id(), t.level(), t.session(), t.outcome(), statements);
    }

    /** Node {@code node}'s transaction id, or {@link Argument#INIT} for the initial state (node 0). */
    long id(int node) {
        return node == 0 ? Argument.INIT : txn[node].id();
    }

    /** The node of transaction {@code id} (0 for {@link Argument#INIT}); a linear search, for counterexamples only. */
    int node(long id) {
        for (int v = 1; v < n; v++) if (txn[v].id() == id) return v;
        return 0;
    }

    /** Statement {@code op} of node {@code node}, a predicate read, at the level it is checked at. */
    Argument.Read read(int node, SqlOp op) {
        return new Argument.Read(id(node), level[node], op.f().toUpperCase(java.util.Locale.ROOT), op.table(),
                op.where().sql());
    }

    /** The version of {@code key} node {@code t} committed, as a counterexample names it. */
    Argument.Version version(int t, int key) {
        Ver v = finalWrite(t, key);
        return new Argument.Version(id(t), t == 0 ? null : v.writeId(), Predicate.row(v.value()));
    }

    String label(int node) {
        return node == 0 ? "init" : txn[node].label();
    }
}
