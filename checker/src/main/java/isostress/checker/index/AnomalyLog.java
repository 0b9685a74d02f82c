package isostress.checker.index;

import isostress.checker.history.History;
import isostress.checker.history.Txn;
import isostress.checker.model.Anomaly;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.CycleVariant;
import isostress.checker.model.EdgeKind;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.MtcAnomaly;
import isostress.checker.model.Step;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Collects anomalies as data, at most a configured number per name (the rest are counted), and remembers which
 * levels they prove violated.
 */
public final class AnomalyLog {
    private final History h;
    private final int perType;
    private final List<Anomaly> listed = new ArrayList<>();
    private final Map<String, Integer> counts = new HashMap<>();
    private final Set<IsolationLevel> nonCycleViolated = EnumSet.noneOf(IsolationLevel.class);
    private final Map<String, Integer> seenCycles = new HashMap<>();
    private int omitted;
    /** While a check runs on approval ({@link #hold()}), what it adds waits here instead of being listed. */
    private List<Anomaly> held;

    public AnomalyLog(History h, int perType) {
        this.h = h;
        this.perType = perType;
    }

    /** The listed anomalies, most telling first: weakest violated level, fewest extra orders, fewest txns. */
    public List<Anomaly> listed() {
        List<Anomaly> out = new ArrayList<>(listed);
        out.sort(java.util.Comparator.comparing(Anomaly::level).thenComparing(Anomaly::variant)
                .thenComparingInt(a -> a.txns().size()));
        return out;
    }

    public int omitted() {
        return omitted;
    }

    public Map<String, Integer> counts() {
        return new java.util.TreeMap<>(counts);
    }

    /** The weakest level proven violated by a non-cycle anomaly (read of garbage, intra-transaction), or null. */
    public IsolationLevel nonCycleLevel() {
        List<IsolationLevel> w = IsolationLevel.weakest(nonCycleViolated);
        return w.isEmpty() ? null : w.get(0);
    }

    /**
     * From now on, what is added is held back until {@link #release(List)} lists it or it is dropped: a level checked
     * out of turn, whose anomalies count only if that level turns out to be the one to report.
     */
    public void hold() {
        if (held != null) throw new IllegalStateException("already holding");
        held = new ArrayList<>();
    }

    /** Stops holding; returns what was added meanwhile, in order, for {@link #release(List)} (or to drop). */
    public List<Anomaly> endHold() {
        List<Anomaly> out = held;
        held = null;
        return out == null ? List.of() : out;
    }

    /** Adds what a hold collected, as if it were added now. */
    public void release(List<Anomaly> kept) {
        for (Anomaly a : kept) add(a);
    }

    /**
     * Adds an anomaly; returns false when it was only counted (over the limit or a duplicate cycle). While held, it
     * is kept aside and true is returned: the check that adds it treats it as listed, as it will be if released.
     */
    public boolean add(Anomaly a) {
        if (held != null) {
            held.add(a);
            return true;
        }
        a = a.withKeyNames(h.keyNames());
        if (!a.steps().isEmpty()) {
            // The same cycle may be found by several level checks; list it once.
            Set<Integer> members = new LinkedHashSet<>();
            for (Step s : a.steps()) members.add(s.from());
            String id = a.type().elleName() + members.stream().sorted().toList() + (a.key() == null ? "" : "@" + a.key());
            Integer at = seenCycles.get(id);
            if (at != null) {
                // Found again by the check of a weaker level: keep the instance that names the weakest level.
                if (at >= 0) {
                    Anomaly old = listed.get(at);
                    if (old.level() != a.level() && old.level().implies(a.level())) listed.set(at, a);
                }
                return false;
            }
            int c = counts.merge(a.name(), 1, Integer::sum);
            if (c > perType) {
                omitted++;
                seenCycles.put(id, -1);
                return false;
            }
            seenCycles.put(id, listed.size());
            listed.add(a);
            return true;
        }
        int c = counts.merge(a.name(), 1, Integer::sum);
        if (c > perType) {
            omitted++;
            return false;
        }
        listed.add(a);
        return true;
    }

    private void nonCycle(AnomalyType type, MtcAnomaly alias, int t, int op, List<Integer> others, List<Step> steps) {
        nonCycleViolated.add(alias.level());
        // Decide on a copy without transactions first: materialising a transaction costs its length, and a
        // transaction with n bad reads would otherwise cost n times its length when only perType are listed
        // (found by HistoryFuzzTest: 100,000 thin-air reads in one transaction took minutes).
        if (held != null) {
            List<Txn> txns = new ArrayList<>();
            txns.add(h.txn(t));
            for (int o : others) txns.add(h.txn(o));
            held.add(new Anomaly(type, CycleVariant.NONE, alias, alias.level(), txns, steps, h.op(op), h.opKey(op)));
            return;
        }
        Anomaly probe = new Anomaly(type, CycleVariant.NONE, alias, alias.level(), List.of(), steps, h.op(op),
                h.opKey(op));
        if (!add(probe)) return;
        List<Txn> txns = new ArrayList<>();
        txns.add(h.txn(t));
        for (int o : others) txns.add(h.txn(o));
        listed.set(listed.size() - 1, new Anomaly(type, CycleVariant.NONE, alias, alias.level(), txns, steps,
                h.op(op), h.opKey(op)).withKeyNames(h.keyNames()));
    }

    /**
     * A non-cycle anomaly built by a checker (list-append inference): listed, and its level recorded as violated
     * before any cycle search.
     */
    public void nonCycle(Anomaly a) {
        nonCycleViolated.add(a.level());
        add(a);
    }

    public void thinAir(int t, int op) {
        nonCycle(AnomalyType.THIN_AIR_READ, MtcAnomaly.THIN_AIR_READ, t, op, List.of(), List.of());
    }

    public void abortedRead(int t, int op, int writer) {
        nonCycle(AnomalyType.G1A, MtcAnomaly.ABORTED_READ, t, op, List.of(writer), List.of(readStep(writer, t, op)));
    }

    public void intermediateRead(int t, int op, int writer) {
        nonCycle(AnomalyType.G1B, MtcAnomaly.INTERMEDIATE_READ, t, op, List.of(writer),
                List.of(readStep(writer, t, op)));
    }

    public void futureRead(int t, int op) {
        nonCycle(AnomalyType.FUTURE_READ, MtcAnomaly.FUTURE_READ, t, op, List.of(), List.of());
    }

    public void notMyLastWrite(int t, int op, long last) {
        nonCycle(AnomalyType.INTERNAL, MtcAnomaly.NOT_MY_LAST_WRITE, t, op, List.of(), List.of());
    }

    public void notMyOwnWrite(int t, int op, long last) {
        nonCycle(AnomalyType.INTERNAL, MtcAnomaly.NOT_MY_OWN_WRITE, t, op, List.of(), List.of());
    }

    public void nonRepeatableRead(int t, int firstOp, int op) {
        nonCycle(AnomalyType.INTERNAL, MtcAnomaly.NON_REPEATABLE_READS, t, op, List.of(), List.of());
    }

    private Step readStep(int writer, int reader, int op) {
        return new Step(writer, reader, EdgeKind.WR, h.opKey(op), h.opValueNull(op) ? null : h.opValue(op), null,
                false, -1);
    }
}
