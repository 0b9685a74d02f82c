package isostress.checker.lin;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Small random single-register histories in Jepsen's EDN, from a simulated atomic register (so they are
 * linearizable by construction), and mutations of them (which often are not).
 *
 * <p>The simulation: each process has at most one op in flight. A step picks a process: an idle one invokes a
 * random read, write or cas (values 0..3); an op in flight first takes effect atomically on the register (its
 * linearization point, at a random later step), then completes: ok with what it saw, fail for a cas whose old
 * value did not match (no effect), or, now and then, info (a crash, before or after taking effect; the process
 * continues under a new id, as Jepsen's do). Some ops are left pending at the end.
 */
final class RandomRegisterHistories {
    private RandomRegisterHistories() {
    }

    /** One event line's parts, so mutations can edit them. */
    static final class Event {
        long process;
        String type, f, value;

        Event(long process, String type, String f, String value) {
            this.process = process;
            this.type = type;
            this.f = f;
            this.value = value;
        }
    }

    private static final class InFlight {
        long process;
        String f;
        Long key;
        Long arg, arg2;
        boolean applied, matched;
        Long seen;
    }

    /** A linearizable history of about {@code maxOps} ops over up to 4 processes (keys :a, :b when independent). */
    static List<Event> simulate(Random r, int maxOps, boolean independent) {
        int procs = 1 + r.nextInt(4);
        int keys = independent ? 1 + r.nextInt(2) : 1;
        Long[] reg = new Long[keys];
        InFlight[] slot = new InFlight[procs];
        long[] pid = new long[procs];
        for (int p = 0; p < procs; p++) pid[p] = p;
        List<Event> out = new ArrayList<>();
        int started = 0;
        while (true) {
            boolean busy = false;
            for (InFlight s : slot) busy |= s != null;
            if (started >= maxOps && !busy) break;
            if (started >= maxOps && r.nextInt(8) == 0) break; // leave what is in flight pending
            int p = r.nextInt(procs);
            InFlight op = slot[p];
            if (op == null) {
                if (started >= maxOps) continue;
                op = new InFlight();
                op.process = pid[p];
                op.key = independent ? (long) r.nextInt(keys) : null;
                int k = r.nextInt(3);
                op.f = k == 0 ? "read" : k == 1 ? "write" : "cas";
                if (op.f.equals("write")) op.arg = (long) r.nextInt(4);
                if (op.f.equals("cas")) {
                    op.arg = r.nextInt(5) == 0 ? null : (long) r.nextInt(4);
                    op.arg2 = (long) r.nextInt(4);
                }
                out.add(new Event(op.process, "invoke", op.f, value(op, false)));
                slot[p] = op;
                started++;
            } else if (!op.applied && r.nextBoolean()) {
                int k = op.key == null ? 0 : (int) (long) op.key;
                op.applied = true;
                switch (op.f) {
                    case "read": op.seen = reg[k]; break;
                    case "write": reg[k] = op.arg; break;
                    default:
                        op.matched = java.util.Objects.equals(reg[k], op.arg);
                        if (op.matched) reg[k] = op.arg2;
                }
            } else if (r.nextInt(10) == 0) {
                // A crash: outcome unknown, whether or not the op took effect.
                out.add(new Event(op.process, "info", op.f, value(op, false)));
                slot[p] = null;
                pid[p] += procs;
            } else if (op.applied) {
                String type = op.f.equals("cas") && !op.matched ? "fail" : "ok";
                out.add(new Event(op.process, type, op.f, value(op, true)));
                slot[p] = null;
            }
        }
        return out;
    }

    private static String value(InFlight op, boolean done) {
        String v;
        switch (op.f) {
            case "read": v = done ? str(op.seen) : "nil"; break;
            case "write": v = str(op.arg); break;
            default: v = "[" + str(op.arg) + " " + str(op.arg2) + "]";
        }
        return op.key == null ? v : "[" + (op.key == 0 ? ":a" : ":b") + " " + v + "]";
    }

    private static String str(Long v) {
        return v == null ? "nil" : v.toString();
    }

    /**
     * One random edit: a completed read returns another value, a cas's ok and fail are swapped, or two adjacent
     * events of different processes trade places (changing real-time order). Returns false when nothing applied.
     */
    static boolean mutate(Random r, List<Event> h) {
        for (int attempt = 0; attempt < 20; attempt++) {
            int i = r.nextInt(h.size());
            Event e = h.get(i);
            int kind = r.nextInt(3);
            if (kind == 0 && e.f.equals("read") && e.type.equals("ok")) {
                String nv = r.nextInt(5) == 0 ? "nil" : Integer.toString(r.nextInt(5));
                e.value = e.value.startsWith("[") ? e.value.substring(0, 4) + nv + "]" : nv;
                return true;
            }
            if (kind == 1 && e.f.equals("cas") && (e.type.equals("ok") || e.type.equals("fail"))) {
                e.type = e.type.equals("ok") ? "fail" : "ok";
                return true;
            }
            if (kind == 2 && i + 1 < h.size() && h.get(i + 1).process != e.process) {
                h.set(i, h.get(i + 1));
                h.set(i + 1, e);
                return true;
            }
        }
        return false;
    }

    static String edn(List<Event> h) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < h.size(); i++) {
            Event e = h.get(i);
            sb.append("{:index ").append(i).append(", :type :").append(e.type).append(", :process ").append(e.process)
              .append(", :f :").append(e.f).append(", :value ").append(e.value).append("}\n");
        }
        return sb.toString();
    }
}
