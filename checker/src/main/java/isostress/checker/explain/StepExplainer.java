package isostress.checker.explain;

import isostress.checker.history.MicroOp;
import isostress.checker.history.Txn;
import isostress.checker.model.Step;

import java.util.Map;

/**
 * Says in words why one transaction precedes another, from the data of a {@link Step} (after Elle's
 * {@code DataExplainer}: explaining is data in, sentence out; rendering the whole cycle is {@link TextRenderer}'s
 * job).
 */
final class StepExplainer {
    private final Map<Integer, Txn> txns;
    private final java.util.function.Function<Long, String> keyName;

    /** @param txns the anomaly's transactions by id (for processes and event indices) */
    StepExplainer(Map<Integer, Txn> txns) {
        this(txns, Object::toString);
    }

    /** @param keyName how keys are spelled in the input ({@code Anomaly#keyName}) */
    StepExplainer(Map<Integer, Txn> txns, java.util.function.Function<Long, String> keyName) {
        this.txns = txns;
        this.keyName = keyName;
    }

    /** "T2 read key 5 = 7, written by T1", and so on for each kind. */
    String explain(Step s) {
        String why = sentence(s);
        // The version order of ww and rw is the commit log's, not one the reads show: say where it is in the log.
        return s.order() == null ? why : why + " in the database's commit order (" + s.order() + ")";
    }

    private String sentence(Step s) {
        String a = "T" + s.from(), b = "T" + s.to();
        boolean list = s.key() != null && (touchesList(s.from(), s.key()) || touchesList(s.to(), s.key()));
        switch (s.kind()) {
            case WR:
                if (list) {
                    return b + "'s read of key " + keyName.apply(s.key()) + " shows " + s.value() + ", appended by " + a;
                }
                return b + " read key " + keyName.apply(s.key()) + " = " + value(s) + ", written by " + a;
            case WW:
                if (list) {
                    return b + " appended " + s.nextValue() + " to key " + keyName.apply(s.key()) + " after " + a + "'s "
                            + (s.value() == null ? "append" : s.value());
                }
                if (readThenWrote(s.to(), s.key(), s.value())) {
                    return b + " read key " + keyName.apply(s.key()) + " = " + value(s) + " from " + a + " and overwrote it with "
                            + s.nextValue();
                }
                return b + " overwrote key " + keyName.apply(s.key()) + " = " + value(s) + ", written by " + a + ", with "
                        + s.nextValue();
            case RW:
                if (list) {
                    return a + " read key " + keyName.apply(s.key()) + " = " + listValue(s) + ", which " + b + " extended with "
                            + s.nextValue();
                }
                return a + " read key " + keyName.apply(s.key()) + " = " + value(s) + ", which " + b + " overwrote with "
                        + s.nextValue();
            case SO: {
                Txn t = txns.get(s.from());
                return a + " and " + b + " ran in the same session" + (t != null ? " (process " + t.process() + ")" : "")
                        + ", " + a + " first";
            }
            case RT: {
                Txn x = txns.get(s.from()), y = txns.get(s.to());
                if (x != null && y != null) {
                    return a + " completed (event " + x.completeIndex() + ") before " + b + " was invoked (event "
                            + y.invokeIndex() + ")";
                }
                return a + " completed before " + b + " was invoked";
            }
            case CO:
                return "T" + s.witness() + " observed " + a + " yet read key " + keyName.apply(s.key()) + " = " + value(s) + " from "
                        + b + ", and " + a + " also wrote key " + keyName.apply(s.key()) + ", so " + a + " must commit before " + b;
            default:
                throw new IllegalStateException(s.kind().toString());
        }
    }

    /** True when transaction t appends to or reads a list at {@code key}. */
    private boolean touchesList(int t, long key) {
        Txn x = txns.get(t);
        if (x == null) return false;
        for (MicroOp m : x.ops()) {
            if (m.key() == key && (m instanceof MicroOp.Append || m instanceof MicroOp.ListRead)) return true;
        }
        return false;
    }

    /** True when transaction t read {@code value} of key before writing the key (read-modify-write). */
    private boolean readThenWrote(int t, long key, Long value) {
        Txn x = txns.get(t);
        if (x == null) return false;
        for (MicroOp m : x.ops()) {
            if (m.key() != key) continue;
            if (m instanceof MicroOp.Read) return java.util.Objects.equals(((MicroOp.Read) m).value(), value);
            if (m instanceof MicroOp.Cas) return java.util.Objects.equals(((MicroOp.Cas) m).expected(), value);
            return false;
        }
        return false;
    }

    private static String listValue(Step s) {
        if (s.initialValue() || s.value() == null) return "[] (the initial empty list)";
        return "[... " + s.value() + "]";
    }

    /** The step's value, saying when it is the initial value. */
    static String value(Step s) {
        if (s.initialValue()) return s.value() == null ? "nil (the initial value)" : s.value() + " (the initial value)";
        return String.valueOf(s.value());
    }
}
