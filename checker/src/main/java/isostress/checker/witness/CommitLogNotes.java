package isostress.checker.witness;

import isostress.checker.history.History;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.Result;
import isostress.checker.model.WitnessTxn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts the database's commit log beside each counterexample: for every transaction of an anomaly that wrote, the log
 * transactions holding its writes, one per node, with their positions ({@link Anomaly#commitLog()}). A reader then
 * sees the cycle's commits in the database's own order, on each node: on a primary with hot standbys, for example,
 * the order in which a standby made them visible (its replay of the WAL), against what a reader on the primary saw.
 *
 * <p>One pass over the log's writes, looking each up among the anomalies' writes only (a few dozen), so it costs a
 * fraction of the join.
 */
public final class CommitLogNotes {
    private CommitLogNotes() {
    }

    /**
     * {@code r} with its anomalies' commit-log transactions, and its lost writes' explanations citing the log
     * ({@link LostWriteCitation}); {@code h} is the history {@code r} was checked on.
     */
    public static Result annotate(Result r, History h, Witness w) {
        r = LostWriteCitation.cite(r, h, w);
        if (r.anomalies().isEmpty() || w.size() == 0) return r;
        // (key, value) of the anomalies' transactions' writes -> the transaction (its index in h).
        LongPairIntMap writer = new LongPairIntMap(64);
        for (Anomaly a : r.anomalies()) {
            for (Txn t : a.txns()) {
                if (t.id() < 0 || t.id() >= h.size()) continue;
                for (int op = h.firstOp(t.id()); op < h.endOp(t.id()); op++) {
                    byte k = h.opKind(op);
                    if (k == History.WRITE || k == History.APPEND) writer.putIfAbsent(h.opKey(op), h.opValue(op), t.id());
                    else if (k == History.CAS) writer.putIfAbsent(h.opKey(op), h.casNew(op), t.id());
                }
            }
        }
        if (writer.size() == 0) return r;
        Map<Long, Long> keyIds = WitnessJoin.keyIds(h, w);
        Map<Integer, List<WitnessTxn>> logOf = new HashMap<>();
        for (int L = 0; L < w.size(); L++) {
            int last = -1;
            for (int i = w.firstWrite(L); i < w.endWrite(L); i++) {
                if (w.isDelete(i)) continue; // no value: no writer of the history
                int t = writer.get(WitnessJoin.historyKey(keyIds, w, i), w.value(i));
                if (t == LongPairIntMap.MISSING || t == last) continue;
                List<WitnessTxn> l = logOf.computeIfAbsent(t, x -> new ArrayList<>());
                if (l.isEmpty() || l.get(l.size() - 1).line() != w.line(L)) l.add(WitnessJoin.logTxn(w, keyIds, L));
                last = t;
            }
        }
        if (logOf.isEmpty()) return r;
        List<Anomaly> annotated = new ArrayList<>(r.anomalies().size());
        for (Anomaly a : r.anomalies()) {
            Map<Integer, List<WitnessTxn>> mine = new HashMap<>();
            for (Txn t : a.txns()) {
                List<WitnessTxn> l = logOf.get(t.id());
                if (l != null) mine.put(t.id(), l);
            }
            annotated.add(mine.isEmpty() ? a : a.withCommitLog(mine));
        }
        return r.withAnomalies(annotated);
    }
}
