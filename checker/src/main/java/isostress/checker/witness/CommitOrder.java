package isostress.checker.witness;

import isostress.checker.history.History;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.Outcome;
import isostress.checker.model.VersionOrder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each key's version order from the log: the writes of committed transactions to the key, in the order of the log
 * that holds them. Only writes the history made take part (a log write no transaction made is an unrecorded-write
 * finding already), and not those of transactions the history says failed (a failed-but-committed finding: the
 * checkers leave failed transactions out). With several nodes logging a key (replicas, a Galera cluster) the node
 * with the most of its writes gives the order; when another node holds two of its writes in the opposite order, the
 * logs disagree and the key gets no order (said in {@link VersionOrder#disagreements()}): which one the database
 * meant is not for the checker to invent. One pass over the log.
 */
final class CommitOrder {
    private CommitOrder() {
    }

    static VersionOrder of(History h, Witness w, Map<Long, Long> keyIds, LongPairIntMap writer, int[] opTxn) {
        Map<Long, Map<Integer, List<VersionOrder.Write>>> byKey = new LinkedHashMap<>();
        for (int L = 0; L < w.size(); L++) {
            for (int i = w.firstWrite(L); i < w.endWrite(L); i++) {
                long key = WitnessJoin.historyKey(keyIds, w, i);
                int op = writer.get(key, w.value(i));
                if (op == LongPairIntMap.MISSING || h.outcome(opTxn[op]) == Outcome.FAIL) continue;
                byKey.computeIfAbsent(key, k -> new HashMap<>(2))
                        .computeIfAbsent(w.nodeIndex(L), n -> new ArrayList<>())
                        .add(new VersionOrder.Write(w.value(i), w.node(L), w.pos(L)));
            }
        }
        Map<Long, List<VersionOrder.Write>> keys = new HashMap<>();
        Map<Long, String> disagreements = new HashMap<>();
        for (Map.Entry<Long, Map<Integer, List<VersionOrder.Write>>> e : byKey.entrySet()) {
            List<VersionOrder.Write> best = null;
            for (List<VersionOrder.Write> l : e.getValue().values()) if (best == null || l.size() > best.size()) best = l;
            String why = null;
            for (List<VersionOrder.Write> other : e.getValue().values()) {
                if (other != best && why == null) why = disagreement(h.keyName(e.getKey()), best, other);
            }
            if (why != null) disagreements.put(e.getKey(), why);
            else keys.put(e.getKey(), best);
        }
        return new VersionOrder(keys, disagreements);
    }

    /** Why two nodes' orders of one key's writes disagree, or null when the writes both hold are in the same order. */
    private static String disagreement(String key, List<VersionOrder.Write> a, List<VersionOrder.Write> b) {
        Map<Long, Integer> at = new HashMap<>();
        for (int i = 0; i < a.size(); i++) at.put(a.get(i).value(), i);
        int lastIndex = -1;
        VersionOrder.Write last = null;
        for (VersionOrder.Write x : b) {
            Integer i = at.get(x.value());
            if (i == null) continue;
            if (i < lastIndex) {
                VersionOrder.Write ax = a.get(i), al = a.get(lastIndex);
                return "key " + key + ": " + al.node() + " logs " + ax.value() + " before " + al.value() + " (pos "
                        + ax.pos() + ", pos " + al.pos() + "), " + x.node() + " logs " + last.value() + " before "
                        + x.value() + " (pos " + last.pos() + ", pos " + x.pos() + ")";
            }
            lastIndex = i;
            last = x;
        }
        return null;
    }
}
