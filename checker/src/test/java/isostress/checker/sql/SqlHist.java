package isostress.checker.sql;

import isostress.checker.history.Outcome;
import isostress.checker.model.IsolationLevel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A small builder for hand-written SQL histories in tests: one line per statement. */
final class SqlHist {
    final List<SqlHistory.InitRow> init = new ArrayList<>();
    final List<SqlTxn> txns = new ArrayList<>();

    static Map<String, Object> row(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            Object v = kv[i + 1];
            m.put((String) kv[i], v instanceof Integer x ? (Object) (long) x : v);
        }
        return m;
    }

    SqlHist init(String table, String key, Map<String, Object> value) {
        init.add(new SqlHistory.InitRow(table, key, value));
        return this;
    }

    SqlHist txn(long id, int session, int index, String level, String outcome, SqlOp... ops) {
        txns.add(new SqlTxn(id, session, index, IsolationLevel.byName(level), Outcome.fromJepsen(outcome), null, null,
                List.of(ops)));
        return this;
    }

    SqlHist txn(long id, int session, int index, String level, SqlOp... ops) {
        return txn(id, session, index, level, "ok", ops);
    }

    SqlHistory build() {
        return new SqlHistory("test", Map.of(), List.copyOf(init), List.copyOf(txns));
    }

    static SqlOp.ReadRow r(String key, String writer, Map<String, Object> value) {
        return new SqlOp.ReadRow(key, writer, value);
    }

    static SqlOp sel(String table, Predicate where, SqlOp.ReadRow... rows) {
        return new SqlOp.Select(table, where, List.of(rows));
    }

    static SqlOp ins(String table, String w, String key, Map<String, Object> value) {
        return new SqlOp.Insert(table, w, List.of(new SqlOp.WriteRow(key, value)));
    }

    static SqlOp upd(String table, Predicate where, String w, SqlOp.ReadRow... rows) {
        return new SqlOp.Update(table, where, w, List.of(rows));
    }

    static SqlOp del(String table, Predicate where, String w, SqlOp.ReadRow... rows) {
        return new SqlOp.Delete(table, where, w, List.of(rows));
    }

    static Predicate eq(String col, Object v) {
        return new Predicate.Cmp(Predicate.Op.EQ, col, v instanceof Integer x ? (Object) (long) x : v);
    }

    static Predicate cmp(Predicate.Op op, String col, int v) {
        return new Predicate.Cmp(op, col, (long) v);
    }

    static Predicate and(Predicate... ps) {
        return new Predicate.And(Arrays.asList(ps));
    }

    static Predicate not(Predicate p) {
        return new Predicate.Not(p);
    }

    static final Predicate TRUE = new Predicate.True();
}
