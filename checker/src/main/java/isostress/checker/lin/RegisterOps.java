package isostress.checker.lin;

import isostress.checker.history.History;
import isostress.checker.history.Outcome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operations of one register (one key of a {@link History#registerOps()} history), compiled for the
 * linearizability search: each op's kind, its values interned to small ints (0 is nil, the initial value), and its
 * call and return positions in real-time order.
 *
 * <p>Which ops take part, after Knossos's {@code cas-register} model and its treatment of outcomes: a {@code fail}
 * op took no effect and is left out; an {@code info} (or never completed) read constrains nothing and is left out; an
 * {@code info} write or cas may or may not have taken effect, at any time after its call, so it stays with its
 * return at the end of time and {@link #info} set (the search tries it both applied and not).
 */
final class RegisterOps {
    static final byte READ = 0, WRITE = 1, CAS = 2;
    static final long END_OF_TIME = Long.MAX_VALUE;

    final long key;
    final int[] txn;      // history transaction id of each op
    final byte[] kind;
    final int[] a, b;     // read: value read; write: value written; cas: a = old, b = new (interned)
    final boolean[] info;
    final long[] call, ret;
    final long[] values;  // interned id -> value (index 0, nil, unused)
    final int initial;    // interned initial value: nil unless the history's header gives one

    private RegisterOps(long key, List<Integer> txns, byte[] kind, int[] a, int[] b, boolean[] info, long[] call,
                        long[] ret, long[] values, int initial) {
        this.key = key;
        this.txn = txns.stream().mapToInt(Integer::intValue).toArray();
        this.kind = kind;
        this.a = a;
        this.b = b;
        this.info = info;
        this.call = call;
        this.ret = ret;
        this.values = values;
        this.initial = initial;
    }

    int size() {
        return txn.length;
    }

    /** The ops of each key in first-appearance order (P-compositionality: each key is checked alone). */
    static List<RegisterOps> byKey(History h) {
        Map<Long, List<Integer>> txnsByKey = new LinkedHashMap<>();
        for (int t = 0; t < h.size(); t++) {
            if (h.endOp(t) - h.firstOp(t) != 1) {
                throw new IllegalArgumentException("transaction " + t + " is not a single register op");
            }
            int o = h.firstOp(t);
            Outcome out = h.outcome(t);
            if (out == Outcome.FAIL) continue;
            if (out == Outcome.INFO && h.opKind(o) == History.READ) continue;
            txnsByKey.computeIfAbsent(h.opKey(o), k -> new ArrayList<>()).add(t);
        }
        List<RegisterOps> out = new ArrayList<>();
        for (Map.Entry<Long, List<Integer>> e : txnsByKey.entrySet()) out.add(compile(h, e.getKey(), e.getValue()));
        return out;
    }

    private static RegisterOps compile(History h, long key, List<Integer> txns) {
        int n = txns.size();
        byte[] kind = new byte[n];
        int[] a = new int[n], b = new int[n];
        boolean[] info = new boolean[n];
        long[] call = new long[n], ret = new long[n];
        Map<Long, Integer> ids = new HashMap<>();
        List<Long> values = new ArrayList<>();
        values.add(0L);
        Long init = h.initial().valueOf(key);
        int initial = init == null ? 0 : intern(init, ids, values);
        for (int i = 0; i < n; i++) {
            int t = txns.get(i);
            int o = h.firstOp(t);
            info[i] = h.outcome(t) != Outcome.OK;
            call[i] = h.invokeIndex(t);
            ret[i] = info[i] ? END_OF_TIME : h.completeIndex(t);
            switch (h.opKind(o)) {
                case History.READ:
                    kind[i] = READ;
                    a[i] = h.opValueNull(o) ? 0 : intern(h.opValue(o), ids, values);
                    break;
                case History.WRITE:
                    kind[i] = WRITE;
                    a[i] = intern(h.opValue(o), ids, values);
                    break;
                case History.CAS:
                    kind[i] = CAS;
                    a[i] = h.opValueNull(o) ? 0 : intern(h.opValue(o), ids, values);
                    b[i] = intern(h.casNew(o), ids, values);
                    break;
                default:
                    throw new IllegalArgumentException("op kind " + h.opKind(o) + " is not a register op");
            }
        }
        return new RegisterOps(key, txns, kind, a, b, info, call, ret,
                values.stream().mapToLong(Long::longValue).toArray(), initial);
    }

    private static int intern(long v, Map<Long, Integer> ids, List<Long> values) {
        return ids.computeIfAbsent(v, x -> {
            values.add(x);
            return values.size() - 1;
        });
    }

    /** The register's value for interned id {@code s}, or null for nil. */
    Long value(int s) {
        return s == 0 ? null : values[s];
    }

    /**
     * The states op {@code i} may leave behind from state {@code s}, written into {@code out}; returns how many (0 when
     * the op cannot happen in {@code s}: an ok read of another value, an ok cas whose old value differs).
     */
    int next(int i, int s, int[] out) {
        switch (kind[i]) {
            case READ:
                if (a[i] != s) return 0;
                out[0] = s;
                return 1;
            case WRITE:
                out[0] = a[i];
                if (!info[i] || a[i] == s) return 1;
                out[1] = s; // an info write may not have happened
                return 2;
            default:
                if (a[i] != s) {
                    if (!info[i]) return 0;
                    out[0] = s; // an info cas that did not apply
                    return 1;
                }
                out[0] = b[i];
                if (!info[i] || b[i] == s) return 1;
                out[1] = s;
                return 2;
        }
    }
}
