package isostress.checker.explain;

import isostress.checker.history.MicroOp;
import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.Step;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One sentence a person can follow, for each anomaly. */
final class Explainer {
    private Explainer() {
    }

    /** The anomaly's transactions by id. */
    static Map<Integer, Txn> txnsById(Anomaly a) {
        Map<Integer, Txn> m = new LinkedHashMap<>();
        for (Txn t : a.txns()) m.put(t.id(), t);
        return m;
    }

    static String sentence(Anomaly a) {
        if (a.argument() != null) {
            return ArgumentText.kind(a.argument().finding()) + ": " + ArgumentText.message(a.argument());
        }
        Txn t = a.txns().isEmpty() ? null : a.txns().get(0);
        String reader = t == null ? "?" : t.label();
        MicroOp op = a.op();
        String read = op == null ? "" : "key " + a.keyName(op.key()) + " = " + readValue(op);
        if (op instanceof MicroOp.ListRead) {
            String listSentence = listSentence(a, reader, op);
            if (listSentence != null) return listSentence;
        }
        switch (a.type()) {
            case INCOMPATIBLE_ORDER:
                return reader + " read key " + (op == null ? "?" : a.keyName(op.key())) + " = " + (op == null ? "?" : readValue(op))
                        + ", which no single append order explains together with the other reads of the key.";
            case DUPLICATE_ELEMENTS:
                return reader + " read " + read + ", which holds an element twice although each is appended once.";
            case NONLINEARIZABLE:
                return reader + " (" + TextRenderer.ops(t.ops(), a::keyName) + ", " + t.outcome().jepsenName()
                        + ") cannot be linearized: no legal order of the register's operations places it between "
                        + "its invocation and its completion.";
            case DIRTY_UPDATE: {
                Step s = a.steps().get(0);
                return "T" + s.to() + " appended " + s.nextValue() + " to key " + a.keyName(s.key()) + " after T" + s.from()
                        + "'s append of " + s.value() + ", and T" + s.from() + " aborted: a committed write built on "
                        + "an aborted state.";
            }
            case THIN_AIR_READ:
                return reader + " read " + read + ", a value no transaction wrote.";
            case G1A:
                return reader + " read " + read + ", written by " + a.txns().get(1).label()
                        + ", which aborted: an aborted write was observed.";
            case G1B:
                return reader + " read " + read + ", an intermediate value that " + a.txns().get(1).label()
                        + " overwrote itself before committing.";
            case FUTURE_READ:
                return reader + " read " + read + " before writing that very value itself.";
            case INTERNAL:
                return internal(a, t);
            case LOST_UPDATE: {
                Step s = a.steps().get(0);
                Txn first = a.txns().get(0);
                String who = first.id() != s.from() && first.id() != s.to() ? ", written by " + first.label() : "";
                return "T" + s.from() + " and T" + s.to() + " both read key " + s.key() + " = " + StepExplainer.value(s)
                        + who + ", and both wrote it (" + a.steps().get(1).nextValue() + " and " + s.nextValue()
                        + "): whichever committed second overwrote a value it never saw, so one update was lost.";
            }
            case LONG_FORK:
                return longFork(a) + cycle(a);
            default:
                return cycle(a);
        }
    }

    /**
     * "T1 and T2 wrote keys x and y; T3 saw T1's write but not T2's, T4 saw T2's but not T1's: ..." (the cycle is
     * W1 -wr-> R1 -rw-> W2 -wr-> R2 -rw-> W1 in some rotation; {@link isostress.checker.model.LongFork}).
     */
    private static String longFork(Anomaly a) {
        List<Step> s = a.steps();
        int i = 0;
        while (i < s.size() && !(s.get(i).kind() == isostress.checker.model.EdgeKind.WR
                && s.get((i + 1) % s.size()).kind() == isostress.checker.model.EdgeKind.RW)) i++;
        if (i == s.size()) return "";
        Step w1r1 = s.get(i), w2r2 = s.get((i + 2) % s.size());
        return "Long fork: T" + w1r1.from() + " wrote key " + a.keyName(w1r1.key()) + " and T" + w2r2.from()
                + " wrote key " + a.keyName(w2r2.key()) + "; T" + w1r1.to() + " saw T" + w1r1.from() + "'s write but "
                + "not T" + w2r2.from() + "'s, T" + w2r2.to() + " saw T" + w2r2.from() + "'s but not T" + w1r1.from()
                + "'s, so the two readers saw the writes in opposite orders, which no single order of commits allows "
                + "(snapshot isolation forbids it, parallel snapshot isolation allows it). ";
    }

    /** Sentences for anomalies of list reads (Elle's list-append), or null for the generic ones. */
    private static String listSentence(Anomaly a, String reader, MicroOp op) {
        String read = "key " + a.keyName(op.key()) + " = " + readValue(op);
        Long element = a.steps().isEmpty() ? null : a.steps().get(0).value();
        switch (a.type()) {
            case INCOMPATIBLE_ORDER:
                if (!a.steps().isEmpty() && a.steps().get(0).order() != null) { // a read against the commit log
                    Step s = a.steps().get(0);
                    return reader + " read " + read + ", but in the database's commit order (" + s.order() + ") T"
                            + s.to() + "'s append of " + s.nextValue() + " comes " + (s.initialValue() ? "first"
                            : "right after " + s.value()) + ": the read shows an order the database did not commit.";
                }
                if (!a.steps().isEmpty() && a.steps().get(0).from() == a.steps().get(0).to()) {
                    return reader + " read " + read + ", in which T" + a.steps().get(0).from() + "'s appends to the "
                            + "key (from " + element + ") do not appear together and in the order it made them.";
                }
                return null;
            case THIN_AIR_READ:
                return reader + " read " + read + ", whose element " + element + " no transaction appended.";
            case FUTURE_READ:
                return reader + " read " + read + ", whose element " + element + " it appends only later.";
            case G1A:
                return reader + " read " + read + ", whose element " + element + " was appended by "
                        + a.txns().get(1).label() + ", which aborted: an aborted write was observed.";
            case G1B:
                return reader + " read " + read + ", ending in " + element + ", an intermediate state: "
                        + a.txns().get(1).label() + " appended more to the key in the same transaction.";
            case INTERNAL:
                if (a.alias() == null) {
                    return reader + " read " + read + ", which does not show what the transaction itself read and "
                            + "appended before.";
                }
                return null;
            default:
                return null;
        }
    }

    private static String internal(Anomaly a, Txn t) {
        MicroOp op = a.op();
        switch (a.alias()) {
            case NON_REPEATABLE_READS: {
                String first = null;
                for (MicroOp m : t.ops()) {
                    if (m.key() == op.key() && (m instanceof MicroOp.Read || m instanceof MicroOp.ListRead)) {
                        first = readValue(m);
                        break;
                    }
                }
                return t.label() + " read key " + op.key() + " twice and got " + first + ", then "
                        + readValue(op) + ".";
            }
            case NOT_MY_LAST_WRITE:
                return t.label() + " wrote key " + op.key() + " more than once and then read " + readValue(op)
                        + ", one of its own earlier writes, not its last (" + lastWrite(t, op) + ").";
            default:
                return t.label() + " wrote key " + op.key() + " = " + lastWrite(t, op) + " and then read "
                        + readValue(op) + " instead of its own write.";
        }
    }

    private static String lastWrite(Txn t, MicroOp read) {
        String last = "?";
        for (MicroOp m : t.ops()) {
            if (m == read || m.equals(read)) break;
            if (m.key() == read.key() && m instanceof MicroOp.Write) last = String.valueOf(((MicroOp.Write) m).value());
            if (m.key() == read.key() && m instanceof MicroOp.Cas) last = String.valueOf(((MicroOp.Cas) m).newValue());
        }
        return last;
    }

    private static String readValue(MicroOp op) {
        if (op instanceof MicroOp.Read) {
            Long v = ((MicroOp.Read) op).value();
            return v == null ? "nil" : v.toString();
        }
        if (op instanceof MicroOp.Cas) {
            Long v = ((MicroOp.Cas) op).expected();
            return v == null ? "nil" : v.toString();
        }
        if (op instanceof MicroOp.ListRead) {
            java.util.List<Long> vs = ((MicroOp.ListRead) op).values();
            return vs == null ? "nil" : vs.toString().replace(",", "");
        }
        return op.toString();
    }

    /** "T1 precedes T2 because ...; ...; so T1 precedes itself: a contradiction." */
    private static String cycle(Anomaly a) {
        StepExplainer ex = new StepExplainer(txnsById(a), a::keyName);
        StringBuilder sb = new StringBuilder(a.displayName()).append(": ");
        List<Step> steps = a.steps();
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            if (i > 0) sb.append("; ");
            sb.append("T").append(s.from()).append(" < T").append(s.to()).append(" because ").append(ex.explain(s));
        }
        int first = steps.get(0).from();
        sb.append(". So T").append(first).append(" < T").append(first).append(": a contradiction, no ")
          .append(a.level()).append(" execution allows it.");
        return sb.toString();
    }
}
