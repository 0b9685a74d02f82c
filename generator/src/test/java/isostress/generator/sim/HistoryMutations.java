package isostress.generator.sim;

import isostress.checker.history.History;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Random small changes to a history, to turn valid histories into invalid or borderline ones for differential
 * tests. Each method returns a modified copy, or {@code h} itself (the same instance) when the mutation does not
 * apply (no read to change, no two transactions to swap, ...). The result stays well-formed (see
 * {@link #wellFormedness}): written values stay unique per key, a process never runs two transactions at once, and
 * nothing follows an {@code info} transaction in its process. Deterministic given the random source.
 */
public final class HistoryMutations {
    /** The kinds of mutation, for {@link #apply} and reports. */
    public enum Kind { CHANGE_READ, SWAP_PROCESSES, REORDER_IN_SESSION, FLIP_OUTCOME, DROP_TXN }

    private static final int TRIES = 20;

    private HistoryMutations() {
    }

    /** A mutation of the given kind. */
    public static History apply(Kind kind, History h, SplittableRandom rnd) {
        switch (kind) {
            case CHANGE_READ: return changeRead(h, rnd);
            case SWAP_PROCESSES: return swapProcesses(h, rnd);
            case REORDER_IN_SESSION: return reorderInSession(h, rnd);
            case FLIP_OUTCOME: return flipOutcome(h, rnd);
            default: return dropTxn(h, rnd);
        }
    }

    /** One mutation of a random kind that applies; {@code h} itself when none does. */
    public static History any(History h, SplittableRandom rnd) {
        List<Kind> kinds = new ArrayList<>(List.of(Kind.values()));
        while (!kinds.isEmpty()) {
            Kind k = kinds.remove(rnd.nextInt(kinds.size()));
            History m = apply(k, h, rnd);
            if (m != h) return m;
        }
        return h;
    }

    /**
     * A register read returns another value: one written to the same key by some transaction, or the initial value
     * (null). A list read returns another list: an element dropped, two adjacent elements swapped, an element
     * appended to the key elsewhere added at the end, or a shorter prefix. Reads of {@code info} transactions
     * (unknown) are left alone.
     */
    public static History changeRead(History h, SplittableRandom rnd) {
        List<Txn> txns = txns(h);
        List<int[]> reads = new ArrayList<>(); // {txn, op}
        for (Txn t : txns) {
            if (t.outcome() == Outcome.INFO) continue;
            for (int o = 0; o < t.ops().size(); o++) {
                MicroOp m = t.ops().get(o);
                if (m instanceof MicroOp.Read || (m instanceof MicroOp.ListRead && ((MicroOp.ListRead) m).values() != null)) {
                    reads.add(new int[] {t.id(), o});
                }
            }
        }
        while (!reads.isEmpty()) {
            int[] r = reads.remove(rnd.nextInt(reads.size()));
            Txn t = txns.get(r[0]);
            MicroOp m = t.ops().get(r[1]);
            MicroOp changed = m instanceof MicroOp.Read ? otherRead((MicroOp.Read) m, txns, h, rnd)
                    : otherList((MicroOp.ListRead) m, txns, rnd);
            if (changed == null) continue;
            List<MicroOp> ops = new ArrayList<>(t.ops());
            ops.set(r[1], changed);
            txns.set(r[0], with(t, t.process(), t.outcome(), ops));
            return build(h, txns);
        }
        return h;
    }

    private static MicroOp otherRead(MicroOp.Read r, List<Txn> txns, History h, SplittableRandom rnd) {
        Set<Long> candidates = new LinkedHashSet<>();
        candidates.add(null);
        for (Txn u : txns) {
            for (MicroOp op : u.ops()) {
                if (op.key() != r.key()) continue;
                if (op instanceof MicroOp.Write) candidates.add(((MicroOp.Write) op).value());
                if (op instanceof MicroOp.Cas) candidates.add(((MicroOp.Cas) op).newValue());
            }
        }
        candidates.remove(r.value());
        if (r.value() == null) candidates.remove(h.initial().valueOf(r.key()));
        if (candidates.isEmpty()) return null;
        List<Long> l = new ArrayList<>(candidates);
        Long v = l.get(rnd.nextInt(l.size()));
        if (v == null) v = h.initial().valueOf(r.key());
        if (v == null ? r.value() == null : v.equals(r.value())) return null;
        return new MicroOp.Read(r.key(), v);
    }

    private static MicroOp otherList(MicroOp.ListRead r, List<Txn> txns, SplittableRandom rnd) {
        List<Long> vs = new ArrayList<>(r.values());
        List<Long> absent = new ArrayList<>();
        for (Txn u : txns) {
            for (MicroOp op : u.ops()) {
                if (op instanceof MicroOp.Append && op.key() == r.key() && !vs.contains(((MicroOp.Append) op).value())) {
                    absent.add(((MicroOp.Append) op).value());
                }
            }
        }
        List<Integer> options = new ArrayList<>();
        if (!vs.isEmpty()) options.add(0); // drop an element
        if (vs.size() >= 2) options.add(1); // swap adjacent elements
        if (!absent.isEmpty()) options.add(2); // add another key's-append at the end
        if (!vs.isEmpty()) options.add(3); // a shorter prefix
        if (options.isEmpty()) return null;
        switch (options.get(rnd.nextInt(options.size()))) {
            case 0:
                vs.remove(rnd.nextInt(vs.size()));
                break;
            case 1: {
                int i = rnd.nextInt(vs.size() - 1);
                Long a = vs.get(i);
                vs.set(i, vs.get(i + 1));
                vs.set(i + 1, a);
                break;
            }
            case 2:
                vs.add(absent.get(rnd.nextInt(absent.size())));
                break;
            default:
                vs = new ArrayList<>(vs.subList(0, rnd.nextInt(vs.size())));
        }
        return new MicroOp.ListRead(r.key(), vs);
    }

    /**
     * Two transactions of different processes exchange processes (each moves to the other's session), when both
     * processes stay well-formed afterwards.
     */
    public static History swapProcesses(History h, SplittableRandom rnd) {
        List<Txn> txns = txns(h);
        if (txns.size() < 2) return h;
        for (int attempt = 0; attempt < TRIES; attempt++) {
            int i = rnd.nextInt(txns.size()), j = rnd.nextInt(txns.size());
            Txn a = txns.get(i), b = txns.get(j);
            if (a.process() == b.process()) continue;
            List<Txn> copy = new ArrayList<>(txns);
            copy.set(i, with(a, b.process(), a.outcome(), a.ops()));
            copy.set(j, with(b, a.process(), b.outcome(), b.ops()));
            if (processProblems(copy).isEmpty()) return build(h, copy);
        }
        return h;
    }

    /**
     * Two committed or failed transactions of one process exchange places (operations and outcomes; the time slots
     * stay), so the session runs them in the other order.
     */
    public static History reorderInSession(History h, SplittableRandom rnd) {
        List<Txn> txns = txns(h);
        Map<Long, List<Integer>> byProcess = new HashMap<>();
        for (Txn t : txns) {
            if (t.outcome() != Outcome.INFO && !t.pending()) {
                byProcess.computeIfAbsent(t.process(), p -> new ArrayList<>()).add(t.id());
            }
        }
        List<List<Integer>> candidates = new ArrayList<>();
        for (List<Integer> l : byProcess.values()) if (l.size() >= 2) candidates.add(l);
        if (candidates.isEmpty()) return h;
        candidates.sort(Comparator.comparing(l -> l.get(0)));
        List<Integer> l = candidates.get(rnd.nextInt(candidates.size()));
        int x = rnd.nextInt(l.size()), y = rnd.nextInt(l.size() - 1);
        if (y >= x) y++;
        Txn a = txns.get(l.get(x)), b = txns.get(l.get(y));
        txns.set(a.id(), with(a, a.process(), b.outcome(), b.ops()));
        txns.set(b.id(), with(b, b.process(), a.outcome(), a.ops()));
        return build(h, txns);
    }

    /**
     * An outcome changes: ok becomes info (its reads become unknown, and the process's later transactions move to a
     * fresh process, as after a real info) or fail; info becomes ok (its unknown reads then claim the initial
     * value, unknown list reads the empty list); fail becomes ok (its reads as it saw them).
     */
    public static History flipOutcome(History h, SplittableRandom rnd) {
        List<Txn> txns = txns(h);
        List<Integer> candidates = new ArrayList<>();
        for (Txn t : txns) if (!t.pending()) candidates.add(t.id());
        if (candidates.isEmpty()) return h;
        Txn t = txns.get(candidates.get(rnd.nextInt(candidates.size())));
        switch (t.outcome()) {
            case OK:
                if (rnd.nextBoolean()) {
                    txns.set(t.id(), with(t, t.process(), Outcome.FAIL, t.ops()));
                } else {
                    List<MicroOp> ops = new ArrayList<>();
                    for (MicroOp m : t.ops()) {
                        if (m instanceof MicroOp.Read) ops.add(new MicroOp.Read(m.key(), null));
                        else if (m instanceof MicroOp.ListRead) ops.add(new MicroOp.ListRead(m.key(), null));
                        else ops.add(m);
                    }
                    txns.set(t.id(), with(t, t.process(), Outcome.INFO, ops));
                    long fresh = 0;
                    for (Txn u : txns) fresh = Math.max(fresh, u.process() + 1);
                    for (int i = 0; i < txns.size(); i++) {
                        Txn u = txns.get(i);
                        if (u.process() == t.process() && u.invokeIndex() > t.invokeIndex()) {
                            txns.set(i, with(u, fresh, u.outcome(), u.ops()));
                        }
                    }
                }
                break;
            case INFO: {
                List<MicroOp> ops = new ArrayList<>();
                for (MicroOp m : t.ops()) {
                    if (m instanceof MicroOp.ListRead && ((MicroOp.ListRead) m).values() == null) {
                        ops.add(new MicroOp.ListRead(m.key(), List.of()));
                    } else {
                        ops.add(m);
                    }
                }
                txns.set(t.id(), with(t, t.process(), Outcome.OK, ops));
                break;
            }
            default:
                txns.set(t.id(), with(t, t.process(), Outcome.OK, t.ops()));
        }
        return build(h, txns);
    }

    /** A random transaction disappears (reads of its writes then read values nobody wrote). */
    public static History dropTxn(History h, SplittableRandom rnd) {
        List<Txn> txns = txns(h);
        if (txns.isEmpty()) return h;
        txns.remove(rnd.nextInt(txns.size()));
        return build(h, txns);
    }

    /**
     * What makes {@code h} ill-formed, empty when nothing: a value written (or appended) twice to a key, a list read
     * listing an element twice, a transaction completing before its invocation, two transactions of one process
     * overlapping in real time, a transaction after an {@code info} (or pending) one in its process, transactions
     * not numbered in invocation order.
     */
    public static List<String> wellFormedness(History h) {
        List<String> problems = new ArrayList<>();
        Map<Long, Set<Long>> written = new HashMap<>();
        for (Txn t : h) {
            if (t.id() > 0 && h.invokeIndex(t.id() - 1) > t.invokeIndex()) {
                problems.add(t.label() + " invoked before " + "T" + (t.id() - 1));
            }
            if (!t.pending() && t.completeIndex() <= t.invokeIndex()) problems.add(t.label() + " completes early");
            for (MicroOp m : t.ops()) {
                Long v = null;
                if (m instanceof MicroOp.Write) v = ((MicroOp.Write) m).value();
                if (m instanceof MicroOp.Append) v = ((MicroOp.Append) m).value();
                if (m instanceof MicroOp.Cas) v = ((MicroOp.Cas) m).newValue();
                if (v != null && !written.computeIfAbsent(m.key(), k -> new HashSet<>()).add(v)) {
                    problems.add(t.label() + " writes " + v + " to key " + m.key() + " again");
                }
                if (m instanceof MicroOp.ListRead && ((MicroOp.ListRead) m).values() != null) {
                    List<Long> vs = ((MicroOp.ListRead) m).values();
                    if (new HashSet<>(vs).size() != vs.size()) problems.add(t.label() + " reads duplicates " + m);
                }
            }
        }
        problems.addAll(processProblems(h.txns()));
        return problems;
    }

    private static List<String> processProblems(List<Txn> txns) {
        List<String> problems = new ArrayList<>();
        Map<Long, List<Txn>> byProcess = new HashMap<>();
        for (Txn t : txns) byProcess.computeIfAbsent(t.process(), p -> new ArrayList<>()).add(t);
        for (List<Txn> l : byProcess.values()) {
            l.sort(Comparator.comparingLong(Txn::invokeIndex));
            for (int i = 1; i < l.size(); i++) {
                Txn prev = l.get(i - 1), next = l.get(i);
                if (prev.pending() || prev.outcome() == Outcome.INFO) {
                    problems.add(next.label() + " follows " + prev.label() + " (" + prev.outcome()
                            + ") in process " + prev.process());
                } else if (prev.completeIndex() >= next.invokeIndex()) {
                    problems.add(prev.label() + " and " + next.label() + " overlap in process " + prev.process());
                }
            }
        }
        return problems;
    }

    private static List<Txn> txns(History h) {
        return new ArrayList<>(h.txns());
    }

    private static Txn with(Txn t, long process, Outcome outcome, List<MicroOp> ops) {
        return new Txn(t.id(), process, outcome, ops, t.invokeIndex(), t.completeIndex(), t.invokeTime(),
                t.completeTime(), t.line(), t.node(), t.isolation());
    }

    private static History build(History h, List<Txn> txns) {
        History.Builder b = History.builder().source(h.source()).initial(h.initial()).realTime(h.realTime());
        for (var e : h.sideEvents()) b.sideEvent(e);
        for (Txn t : txns) b.add(t);
        return b.build();
    }
}
