package isostress.harness.run;

import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.Premise;
import isostress.checker.model.Result;
import isostress.checker.model.Step;

import java.util.ArrayList;
import java.util.List;

/**
 * The counterexample a run shows first (the summary's "first counterexample", report.html's first one): the first
 * violation found while running when the streaming check found one, since that is when the run first went wrong;
 * else the first of the end-of-run check's list. The end-of-run check lists at most {@code max-anomalies} per name,
 * often from late in the run, so the one found while running may not be among them.
 */
final class FirstCounterexample {
    private FirstCounterexample() {
    }

    /** The counterexample to show first, or null when there is none. */
    static Anomaly of(Result result, StreamingReport streaming) {
        Anomaly streamed = streamed(streaming);
        if (streamed != null) return streamed;
        return result == null || result.anomalies().isEmpty() ? null : result.anomalies().get(0);
    }

    /** The streaming check's counterexample, or null. */
    static Anomaly streamed(StreamingReport streaming) {
        return streaming == null || streaming.detection() == null ? null : streaming.detection().counterexample();
    }

    /**
     * {@code a}, found in a prefix whose transaction {@code t} is the whole history's {@code ids[t]}, with the whole
     * history's numbers: what history.jsonl and the end-of-run check call those transactions.
     */
    static Anomaly inWholeHistory(Anomaly a, int[] ids) {
        List<Txn> txns = new ArrayList<>(a.txns().size());
        for (Txn t : a.txns()) {
            txns.add(new Txn(ids[t.id()], t.process(), t.outcome(), t.ops(), t.invokeIndex(), t.completeIndex(),
                    t.invokeTime(), t.completeTime(), t.line(), t.node(), t.isolation()));
        }
        List<Premise> premises = new ArrayList<>(a.premises().size());
        for (Premise p : a.premises()) premises.add(new Premise(p.claim(), steps(p.steps(), ids)));
        return new Anomaly(a.type(), a.variant(), a.alias(), a.level(), txns, steps(a.steps(), ids), a.op(), a.key(),
                premises, a.argument(), a.keyNames());
    }

    private static List<Step> steps(List<Step> steps, int[] ids) {
        List<Step> out = new ArrayList<>(steps.size());
        for (Step s : steps) {
            out.add(new Step(ids[s.from()], ids[s.to()], s.kind(), s.key(), s.value(), s.nextValue(),
                    s.initialValue(), s.witness() >= 0 ? ids[s.witness()] : -1));
        }
        return out;
    }
}
