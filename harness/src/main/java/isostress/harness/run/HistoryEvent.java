package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;

import java.util.Arrays;
import java.util.List;

/** One event for {@link HistoryRecorder}, in a reused slot of a batch: filled by a session, written by the writer. */
final class HistoryEvent {
    static final byte INVOKE = 0, COMPLETE = 1, SIDE = 2;
    byte kind;
    long index, time, process;
    Outcome outcome;
    List<MicroOp> ops;
    String error, node, sideProcess, type, f;
    JsonNode tree;

    static HistoryEvent[] slots(int n) {
        HistoryEvent[] a = new HistoryEvent[n];
        for (int i = 0; i < n; i++) a[i] = new HistoryEvent();
        return a;
    }

    static HistoryEvent[] grow(HistoryEvent[] a) {
        HistoryEvent[] b = Arrays.copyOf(a, a.length * 2);
        for (int i = a.length; i < b.length; i++) b[i] = new HistoryEvent();
        return b;
    }

    /** Drops the references, so a written batch keeps no transaction alive. */
    void clear() {
        outcome = null;
        ops = null;
        error = node = sideProcess = type = f = null;
        tree = null;
    }
}
