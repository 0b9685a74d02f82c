package isostress.checker.mini;

import isostress.checker.index.RegisterIndex;
import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.CycleVariant;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.MtcAnomaly;
import isostress.checker.model.Step;

import java.util.ArrayList;
import java.util.List;

/**
 * The Divergence pattern (MTC Def. 10, Lemma 1; CheckSI line 2): two committed transactions read the same version
 * of a key and both wrote the key. Whichever committed second overwrote a version it never saw, so one update is
 * lost; no SI (hence no SER) execution allows it. Found in O(n) from the version forest: a version with two or more
 * children.
 */
final class LostUpdates {
    private LostUpdates() {
    }

    /** Reports every divergent version; returns how many there are. */
    static int report(MiniContext ctx) {
        RegisterIndex m = ctx.m();
        int count = 0;
        for (int v = 0; v < m.versionCount; v++) {
            if (!m.divergent(v)) continue;
            count++;
            int c1 = m.children[m.childStart[v]], c2 = m.children[m.childStart[v] + 1];
            int t1 = m.accTxn[c1], t2 = m.accTxn[c2];
            long key = m.keyOf[m.versionKey(v)];
            Long value = m.versionValue(v);
            boolean init = v >= m.accCount;
            List<Step> steps = List.of(
                    new Step(t1, t2, EdgeKind.RW, key, value, m.accWrite(c2), init, -1),
                    new Step(t2, t1, EdgeKind.RW, key, value, m.accWrite(c1), init, -1));
            List<Txn> txns = new ArrayList<>();
            if (m.versionTxn(v) >= 0) txns.add(m.h.txn(m.versionTxn(v)));
            for (int j = m.childStart[v]; j < m.childStart[v + 1]; j++) txns.add(m.h.txn(m.accTxn[m.children[j]]));
            ctx.anomalies().add(new Anomaly(AnomalyType.LOST_UPDATE, CycleVariant.NONE, MtcAnomaly.LOST_UPDATE,
                    MtcAnomaly.LOST_UPDATE.level(), txns, steps, null, key));
        }
        return count;
    }
}
