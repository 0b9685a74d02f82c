package isostress.checker.reference;

import isostress.checker.history.History;
import isostress.checker.history.Outcome;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A deliberately naive linearizability reference for small single-register histories ({@link History#registerOps()}),
 * for the differential test of {@code lin.WglSearch}. It shares no code with it and follows Herlihy &amp; Wing's
 * definition (TOPLAS 1990) literally: for each key, try every total order of its operations that respects real time
 * (an op that completed before another was invoked comes first), and accept if one replays legally on a register
 * that starts nil, under Knossos's cas-register model (read returns the value; write sets it; cas [old new] sets
 * new iff the value is old). A {@code fail} op took no effect and is left out; an {@code info} op (or one that never
 * completed) is tried both as taking effect, anywhere after its invocation, and as never happening. No memo, no
 * pruning: exponential, for histories of about ten ops per key.
 */
public final class RegisterBruteForce {
    private RegisterBruteForce() {
    }

    /** True when every key's operations have a linearization. */
    public static boolean linearizable(History h) {
        Map<Long, List<Integer>> byKey = new LinkedHashMap<>();
        for (int t = 0; t < h.size(); t++) {
            if (h.outcome(t) == Outcome.FAIL) continue;
            byKey.computeIfAbsent(h.opKey(h.firstOp(t)), k -> new ArrayList<>()).add(t);
        }
        for (Map.Entry<Long, List<Integer>> e : byKey.entrySet()) {
            List<Integer> ops = e.getValue();
            if (!order(h, ops, new boolean[ops.size()], h.initial().valueOf(e.getKey()))) return false;
        }
        return true;
    }

    /** Tries every next op: one no other remaining completed op must precede (it completed before this was invoked). */
    private static boolean order(History h, List<Integer> ops, boolean[] done, Long value) {
        boolean mustPlace = false;
        for (int i = 0; i < ops.size(); i++) {
            if (!done[i] && h.outcome(ops.get(i)) == Outcome.OK) mustPlace = true;
        }
        if (!mustPlace) return true; // only info ops left: each may never have happened
        for (int i = 0; i < ops.size(); i++) {
            if (done[i] || !minimal(h, ops, done, i)) continue;
            int t = ops.get(i);
            int o = h.firstOp(t);
            boolean ok = h.outcome(t) == Outcome.OK;
            done[i] = true;
            boolean found = false;
            switch (h.opKind(o)) {
                case History.READ: {
                    Long read = h.opValueNull(o) ? null : h.opValue(o);
                    // An info read says nothing; an ok read must see the value.
                    found = (!ok || Objects.equals(read, value)) && order(h, ops, done, value);
                    break;
                }
                case History.WRITE:
                    found = order(h, ops, done, h.opValue(o)) || (!ok && order(h, ops, done, value));
                    break;
                case History.CAS: {
                    Long old = h.opValueNull(o) ? null : h.opValue(o);
                    if (Objects.equals(old, value)) found = order(h, ops, done, h.casNew(o));
                    if (!found && !ok) found = order(h, ops, done, value);
                    break;
                }
                default:
                    throw new IllegalArgumentException("not a register op: " + h.opKind(o));
            }
            done[i] = false;
            if (found) return true;
        }
        return false;
    }

    private static boolean minimal(History h, List<Integer> ops, boolean[] done, int i) {
        long call = h.invokeIndex(ops.get(i));
        for (int j = 0; j < ops.size(); j++) {
            if (j == i || done[j]) continue;
            int u = ops.get(j);
            if (h.completeIndex(u) != History.PENDING && h.outcome(u) == Outcome.OK && h.completeIndex(u) < call) {
                return false;
            }
        }
        return true;
    }
}
