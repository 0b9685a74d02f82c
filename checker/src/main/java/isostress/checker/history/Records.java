package isostress.checker.history;

import java.util.ArrayList;
import java.util.List;

/** Converts between a {@link History}'s columns and the {@link Txn} and {@link MicroOp} records (which allocate). */
final class Records {
    private Records() {
    }

    static MicroOp op(History h, int op) {
        long k = h.opKey(op);
        Long value = h.opValueNull(op) ? null : h.opValue(op);
        switch (h.opKind(op)) {
            case History.READ: return new MicroOp.Read(k, value);
            case History.WRITE: return new MicroOp.Write(k, h.opValue(op));
            case History.APPEND: return new MicroOp.Append(k, h.opValue(op));
            case History.LIST_READ: {
                long[] vs = h.listValues(op);
                List<Long> l = null;
                if (vs != null) {
                    l = new ArrayList<>(vs.length);
                    for (long v : vs) l.add(v);
                }
                return new MicroOp.ListRead(k, l);
            }
            case History.CAS: return new MicroOp.Cas(k, value, h.casNew(op));
            default: throw new IllegalStateException("op kind " + h.opKind(op));
        }
    }

    static Txn txn(History h, int t) {
        List<MicroOp> ops = new ArrayList<>(h.endOp(t) - h.firstOp(t));
        for (int o = h.firstOp(t); o < h.endOp(t); o++) ops.add(op(h, o));
        return new Txn(t, h.process(t), h.outcome(t), ops, h.invokeIndex(t), h.completeIndex(t), h.invokeTime(t),
                h.completeTime(t), h.line(t), h.node(t), h.isolation(t));
    }

    static void add(History.Builder b, MicroOp m) {
        if (m instanceof MicroOp.Read) {
            b.read(m.key(), ((MicroOp.Read) m).value());
        } else if (m instanceof MicroOp.Write) {
            b.write(m.key(), ((MicroOp.Write) m).value());
        } else if (m instanceof MicroOp.Append) {
            b.append(m.key(), ((MicroOp.Append) m).value());
        } else if (m instanceof MicroOp.Cas) {
            MicroOp.Cas c = (MicroOp.Cas) m;
            b.cas(c.key(), c.expected(), c.newValue());
        } else {
            List<Long> vs = ((MicroOp.ListRead) m).values();
            if (vs == null) {
                b.listRead(m.key(), null, 0);
            } else {
                long[] a = new long[vs.size()];
                for (int i = 0; i < a.length; i++) a[i] = vs.get(i);
                b.listRead(m.key(), a, a.length);
            }
        }
    }
}
