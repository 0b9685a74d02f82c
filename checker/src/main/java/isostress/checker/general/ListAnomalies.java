package isostress.checker.general;

import isostress.checker.history.History;
import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.CycleVariant;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.MtcAnomaly;
import isostress.checker.model.Step;

import java.util.ArrayList;
import java.util.List;

/** The non-cycle anomalies {@link ListAppendIndex} reports, as {@link Anomaly} records naming the read op. */
final class ListAnomalies {
    private ListAnomalies() {
    }

    static Anomaly of(History h, AnomalyType type, int t, int op, List<Integer> others, List<Step> steps) {
        return of(h, type, t, op, others, steps, null);
    }

    static Anomaly of(History h, AnomalyType type, int t, int op, List<Integer> others, List<Step> steps,
                      Long element) {
        List<Txn> txns = new ArrayList<>();
        txns.add(h.txn(t));
        for (int x : others) if (x != t) txns.add(h.txn(x));
        MtcAnomaly alias = type == AnomalyType.G1A ? MtcAnomaly.ABORTED_READ
                : type == AnomalyType.G1B ? MtcAnomaly.INTERMEDIATE_READ
                : type == AnomalyType.THIN_AIR_READ ? MtcAnomaly.THIN_AIR_READ
                : type == AnomalyType.FUTURE_READ ? MtcAnomaly.FUTURE_READ : null;
        List<Step> s = steps;
        if (element != null && steps.isEmpty()) {
            s = List.of(new Step(t, t, EdgeKind.WR, h.opKey(op), element, null, false, -1));
        }
        return new Anomaly(type, CycleVariant.NONE, alias, IsolationLevel.READ_COMMITTED, txns, s, h.op(op),
                h.opKey(op));
    }
}
