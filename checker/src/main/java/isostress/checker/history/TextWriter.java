package isostress.checker.history;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.TreeSet;

/**
 * Writes the {@code r(key,value,session,txn)} text format so that MTC, PolySI and IsoVista can re-check a history.
 *
 * <p>That format has no outcomes, no real time and no null: it holds committed transactions only, so this writes
 * {@code ok} transactions and the {@code info} transactions whose writes someone read (the others may not have
 * committed and are left out; failed ones never committed). Initial values become an explicit initial transaction
 * in session 0 (txn 0) unless every key starts at 0, which the format implies. A null read (initial value absent)
 * is written as 0, which must then be written by no transaction. Transaction numbers are the history's ids plus 1,
 * and sessions are processes plus 1: session 0 is the initial transaction's by convention.
 */
final class TextWriter implements HistoryWriter {

    @Override
    public void write(History h, OutputStream out) throws IOException {
        LongPairIntMap readValues = new LongPairIntMap(Math.max(16, h.opCount()));
        TreeSet<Long> keys = new TreeSet<>();
        for (int o = 0; o < h.opCount(); o++) {
            byte k = h.opKind(o);
            if (k != History.READ && k != History.WRITE) {
                throw new IllegalArgumentException("the text format holds reads and writes only; the history has "
                        + h.op(o).function() + " operations");
            }
            if (k == History.READ && !h.opValueNull(o)) readValues.put(h.opKey(o), h.opValue(o), 1);
            if (k == History.WRITE && h.opValue(o) == 0 && h.initial().isAbsent()) {
                throw new IllegalArgumentException("a write of 0 to key " + h.opKey(o)
                        + ": the text format would read it as the initial value");
            }
            keys.add(h.opKey(o));
        }
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        InitialState init = h.initial();
        boolean implicitZero = init.values().isEmpty() && (init.defaultValue() == null || init.defaultValue() == 0);
        if (!implicitZero) {
            for (long k : keys) {
                Long v = init.valueOf(k);
                w.append("w(").append(Long.toString(k)).append(',').append(v == null ? "0" : v.toString())
                 .append(",0,0)\n");
            }
        }
        StringBuilder sb = new StringBuilder(64);
        for (int t = 0; t < h.size(); t++) {
            if (!committed(h, t, readValues)) continue;
            String suffix = "," + (h.process(t) + 1) + "," + (t + 1) + ")\n";
            for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                sb.setLength(0);
                boolean read = h.opKind(o) == History.READ;
                sb.append(read ? "r(" : "w(").append(h.opKey(o)).append(',')
                  .append(read && h.opValueNull(o) ? 0 : h.opValue(o)).append(suffix);
                w.append(sb);
            }
        }
        w.flush();
    }

    private static boolean committed(History h, int t, LongPairIntMap readValues) {
        switch (h.outcome(t)) {
            case OK: return true;
            case FAIL: return false;
            default:
                for (int o = h.firstOp(t); o < h.endOp(t); o++) {
                    if (h.opKind(o) == History.WRITE && readValues.get(h.opKey(o), h.opValue(o)) >= 0) return true;
                }
                return false;
        }
    }
}
