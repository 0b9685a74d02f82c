package isostress.checker.explain;

import isostress.checker.history.MicroOp;
import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.Argument;
import isostress.checker.model.Premise;
import isostress.checker.model.Step;
import isostress.checker.model.WitnessFinding;
import isostress.checker.model.WitnessTxn;

import java.util.List;

/**
 * Renders an anomaly as text, in the manner of Elle's proofs: the transactions ("Let: T1 = ..."), then each edge with
 * its justification, then the sentence that closes the argument.
 */
public final class TextRenderer {
    private TextRenderer() {
    }

    public static String render(Anomaly a) {
        return render(a, true);
    }

    /** @param realTime whether the history has real-time order (event indices are shown only then) */
    public static String render(Anomaly a, boolean realTime) {
        StringBuilder sb = new StringBuilder();
        sb.append(a.displayName()).append(" — violates ").append(a.violates()).append('\n');
        if (a.argument() != null) return argument(sb, a.argument());
        sb.append("Let:\n");
        for (Txn t : a.txns()) sb.append("  ").append(describe(t, realTime, a::keyName)).append('\n');
        if (!a.commitLog().isEmpty()) {
            sb.append("In the database's commit log:\n");
            for (Txn t : a.txns()) {
                List<WitnessTxn> log = a.commitLog().get(t.id());
                if (log == null) continue;
                sb.append("  T").append(t.id()).append(": ");
                for (int i = 0; i < log.size(); i++) sb.append(i == 0 ? "" : "; ").append(log.get(i).label());
                sb.append('\n');
            }
        }
        List<Step> steps = a.steps();
        if (!steps.isEmpty() && a.type().cycle()) {
            StepExplainer ex = new StepExplainer(Explainer.txnsById(a), a::keyName);
            sb.append("Then:\n");
            for (Step s : steps) {
                sb.append("  T").append(s.from()).append(" -").append(s.kind().shortName()).append("-> T")
                  .append(s.to()).append(": ").append(ex.explain(s)).append('\n');
            }
        }
        if (!a.premises().isEmpty()) {
            StepExplainer ex = new StepExplainer(Explainer.txnsById(a), a::keyName);
            for (Premise p : a.premises()) {
                String claim = Character.toUpperCase(p.claim().charAt(0)) + p.claim().substring(1);
                sb.append(claim).append(p.steps().isEmpty() ? ".\n" : ":\n");
                for (Step s : p.steps()) {
                    sb.append("    T").append(s.from()).append(" -").append(s.kind().shortName()).append("-> T")
                      .append(s.to()).append(": ").append(ex.explain(s)).append('\n');
                }
            }
        }
        sb.append(Explainer.sentence(a)).append('\n');
        return sb.toString();
    }

    /**
     * A disagreement between the history and the database's commit log: the transaction, what the history says, the
     * log transactions that hold its writes (with their node, position and line), and the sentence that sums it up.
     *
     * @param realTime whether the history has real-time order (event indices are shown only then)
     */
    public static String render(WitnessFinding f, boolean realTime) {
        StringBuilder sb = new StringBuilder();
        sb.append(f.name()).append(" — the history disagrees with the database's commit log\n");
        if (f.txn() != null) {
            sb.append("Let:\n  ").append(describe(f.txn(), realTime, id -> f.keyName(id))).append('\n');
        }
        sb.append("The history: ").append(WitnessText.history(f)).append('\n');
        if (f.log().isEmpty()) {
            sb.append("The log: no log transaction holds any of its writes.\n");
        } else {
            sb.append("The log:\n");
            for (WitnessTxn l : f.log()) sb.append("  ").append(WitnessText.logLine(f, l)).append('\n');
        }
        sb.append(WitnessText.sentence(f)).append('\n');
        return sb.toString();
    }

    /** An SQL counterexample: what went wrong, the transactions with their statements, then the argument. */
    private static String argument(StringBuilder sb, Argument g) {
        sb.append(ArgumentText.kind(g.finding())).append(": ").append(ArgumentText.message(g)).append('\n');
        List<String> let = ArgumentText.let(g);
        if (!let.isEmpty()) {
            sb.append("Let:\n");
            for (String l : let) sb.append("  ").append(l).append('\n');
        }
        sb.append("However:\n");
        for (String s : ArgumentText.however(g)) sb.append("  ").append(s).append('\n');
        return sb.toString();
    }

    /** "T12 = {r 5 nil, w 5 7} (process 3, ok, events 40..47, line 41)". */
    public static String describe(Txn t) {
        return describe(t, true);
    }

    public static String describe(Txn t, boolean realTime) {
        return describe(t, realTime, Object::toString);
    }

    /** @param keyName how keys are spelled ({@link Anomaly#keyName}) */
    public static String describe(Txn t, boolean realTime, java.util.function.Function<Long, String> keyName) {
        StringBuilder sb = new StringBuilder();
        sb.append(t.label()).append(" = {").append(ops(t.ops(), keyName)).append("} (process ").append(t.process())
          .append(", ").append(t.outcome().jepsenName());
        if (realTime && t.invokeIndex() >= 0) {
            sb.append(", events ").append(t.invokeIndex()).append("..")
              .append(t.pending() ? "pending" : String.valueOf(t.completeIndex()));
        }
        if (t.line() > 0) sb.append(", line ").append(t.line());
        if (t.node() != null) sb.append(", node ").append(t.node());
        return sb.append(')').toString();
    }

    /** "r 5 nil, w 5 7". */
    public static String ops(List<MicroOp> ops) {
        return ops(ops, Object::toString);
    }

    /** @param keyName how keys are spelled ({@link Anomaly#keyName}) */
    public static String ops(List<MicroOp> ops, java.util.function.Function<Long, String> keyName) {
        StringBuilder sb = new StringBuilder();
        for (MicroOp m : ops) {
            if (sb.length() > 0) sb.append(", ");
            if (m instanceof MicroOp.Read) {
                Long v = ((MicroOp.Read) m).value();
                sb.append("r ").append(keyName.apply(m.key())).append(' ').append(v == null ? "nil" : v);
            } else if (m instanceof MicroOp.Write) {
                sb.append("w ").append(keyName.apply(m.key())).append(' ').append(((MicroOp.Write) m).value());
            } else if (m instanceof MicroOp.Append) {
                sb.append("append ").append(keyName.apply(m.key())).append(' ').append(((MicroOp.Append) m).value());
            } else if (m instanceof MicroOp.ListRead) {
                List<Long> vs = ((MicroOp.ListRead) m).values();
                sb.append("r ").append(keyName.apply(m.key())).append(' ').append(vs == null ? "nil" : vs.toString().replace(",", ""));
            } else if (m instanceof MicroOp.Delete) {
                sb.append("delete ").append(keyName.apply(m.key()));
            } else {
                MicroOp.Cas c = (MicroOp.Cas) m;
                sb.append("cas ").append(keyName.apply(m.key())).append(' ').append(c.expected() == null ? "nil" : c.expected())
                  .append(' ').append(c.newValue());
            }
        }
        return sb.toString();
    }
}
