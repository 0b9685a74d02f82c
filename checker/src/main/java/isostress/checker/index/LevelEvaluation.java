package isostress.checker.index;

import isostress.checker.history.History;
import isostress.checker.history.InputException;
import isostress.checker.history.Outcome;
import isostress.checker.model.Anomaly;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.LevelResult;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates levels for one history, whatever the checker: the requested levels, then, for each one violated, the
 * weaker levels from the weakest up, to name the weakest violated one.
 *
 * <p>Levels are related by the lattice of {@link IsolationLevel}: a valid level makes every weaker one valid, an
 * invalid one every stronger one invalid, so a level's own check runs only when neither shortcut applies. Reads no
 * execution allows (thin air, aborted, intermediate, internal) decide every level that implies their level before
 * any search; the search still runs, so that every kind of anomaly is reported.
 */
public abstract class LevelEvaluation {
    protected final History h;
    protected final AnomalyLog anomalies;
    private final Map<IsolationLevel, LevelResult> done = new EnumMap<>(IsolationLevel.class);
    private final Map<String, Integer> memo = new HashMap<>();
    protected final Map<String, Object> stats = new LinkedHashMap<>();
    /**
     * The stats entry naming the weaker levels left out (level name to why), because deciding them needs a search the
     * check asked for does not: the weakest violated level is then named among the levels examined.
     */
    public static final String NOT_EXAMINED = Result.NOT_EXAMINED;

    protected LevelEvaluation(History h, AnomalyLog anomalies) {
        this.h = h;
        this.anomalies = anomalies;
    }

    /** The level's own check. */
    protected abstract LevelResult search(IsolationLevel l);

    /** The history's shape as the checker sees it, e.g. "mini-transaction". */
    protected abstract String shape();

    /** True when transaction t counts as committed (ok, or info whose write was read). */
    protected abstract boolean committed(int t);

    /** Checker-specific statistics (keys, edges, ...). */
    protected abstract void describe(Map<String, Object> s);

    /**
     * Why deciding {@code l} on this history would need a search beyond the linear checks (a weaker level examined
     * only to name the weakest violated one is then left out, unless it was asked for), or null when it is cheap.
     */
    protected String costly(IsolationLevel l) {
        return null;
    }

    /** Why a search that found nothing cannot call the level valid, or null when it can. */
    protected String undetermined() {
        return null;
    }

    public final Result run(List<IsolationLevel> requested) {
        return run(requested, true);
    }

    /** As {@link #run(List)}; without {@code weakerLevels}, only the requested levels are examined. */
    public final Result run(List<IsolationLevel> requested, boolean weakerLevels) {
        for (IsolationLevel l : requested) eval(l);
        Map<String, String> notExamined = new LinkedHashMap<>();
        for (IsolationLevel l : weakerLevels ? requested : List.<IsolationLevel>of()) {
            if (done.get(l).verdict() != Verdict.INVALID) continue;
            probeStrongest(l, requested);
            for (IsolationLevel w : IsolationLevel.values()) {
                if (!weakerToExamine(l, w, requested)) continue;
                // A weaker level is examined to name the weakest violated one, which must not cost more than the
                // check asked for: one needing a search is left out, and the result says so.
                String why = requested.contains(w) || implied(w) != null ? null : costly(w);
                if (why != null) notExamined.put(w.cliName(), why + "; ask for it with --level " + w.alias());
                else eval(w);
            }
        }
        int ok = 0, fail = 0, info = 0, infoCommitted = 0;
        for (int t = 0; t < h.size(); t++) {
            Outcome o = h.outcome(t);
            if (o == Outcome.OK) ok++;
            else if (o == Outcome.FAIL) fail++;
            else {
                info++;
                if (committed(t)) infoCommitted++;
            }
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("transactions", h.size());
        s.put("ok", ok);
        s.put("fail", fail);
        s.put("info", info);
        s.put("info_counted_committed", infoCommitted);
        describe(s);
        s.putAll(stats);
        if (!notExamined.isEmpty()) s.put(NOT_EXAMINED, notExamined);
        return new Result(shape(), new ArrayList<>(done.values()), requested, anomalies.listed(), anomalies.omitted(),
                anomalies.counts(), s);
    }

    private boolean weakerToExamine(IsolationLevel l, IsolationLevel w, List<IsolationLevel> requested) {
        // Per-key linearizability is off the transactional chain: examined only when asked for.
        if (w == IsolationLevel.LINEARIZABLE && !requested.contains(w)) return false;
        return w != l && l.implies(w) && !done.containsKey(w);
    }

    /**
     * Before the weaker levels below the violated level {@code l} are examined from the weakest up, checks the
     * strongest of them first: when it is valid, so is every level below it, and their checks are saved. A history
     * that violates only {@code l} (serializable but not snapshot isolation: write skew) then costs one more check
     * instead of one per weaker level. The strongest's anomalies are held back meanwhile; when it is violated, they,
     * its verdict and whatever it decided on the way are forgotten, and the examination from the weakest up finds
     * and reports exactly what it would have without this step: the weakest violated level, with its anomalies.
     */
    private void probeStrongest(IsolationLevel l, List<IsolationLevel> requested) {
        List<IsolationLevel> below = new ArrayList<>();
        for (IsolationLevel w : IsolationLevel.values()) {
            if (!weakerToExamine(l, w, requested)) continue;
            if (requested.contains(w) || costly(w) == null) below.add(w);
        }
        if (below.size() < 2) return;
        for (IsolationLevel top : below) {
            boolean strongest = true;
            for (IsolationLevel o : below) if (o != top && o.implies(top)) strongest = false;
            if (!strongest || done.containsKey(top) || implied(top) != null) continue;
            Set<IsolationLevel> doneBefore = done.isEmpty() ? EnumSet.noneOf(IsolationLevel.class)
                    : EnumSet.copyOf(done.keySet());
            Set<String> memoBefore = new HashSet<>(memo.keySet());
            Set<String> statsBefore = new HashSet<>(stats.keySet());
            long t0 = System.nanoTime();
            anomalies.hold();
            LevelResult r;
            List<Anomaly> held;
            try {
                r = compute(top);
            } finally {
                held = anomalies.endHold();
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            if (r.verdict() == Verdict.VALID) {
                anomalies.release(held);
                stats.put(top.alias() + "_ms", ms);
                put(r);
            } else {
                done.keySet().retainAll(doneBefore);
                memo.keySet().retainAll(memoBefore);
                stats.keySet().retainAll(statsBefore);
                stats.put("probe_" + top.alias() + "_ms", ms);
            }
        }
    }

    /**
     * A count that a level's check computes once per history, reporting its anomalies the first time ({@code count}
     * adds them): lost updates, say, which several levels share. Kept here so that a check run out of turn and
     * forgotten ({@link #probeStrongest}) forgets it too, and the next check reports them again.
     */
    protected final int once(String name, java.util.function.IntSupplier count) {
        Integer c = memo.get(name);
        if (c == null) {
            c = count.getAsInt();
            memo.put(name, c);
        }
        return c;
    }

    /** The verdict for l, computed once. */
    public final LevelResult eval(IsolationLevel l) {
        LevelResult r = done.get(l);
        if (r != null) return r;
        r = implied(l);
        if (r != null) return put(r);
        long t0 = System.nanoTime();
        r = compute(l);
        stats.put(l.alias() + "_ms", (System.nanoTime() - t0) / 1_000_000);
        return put(r);
    }

    /** The verdict for l that a level already decided implies through the lattice, or null. */
    private LevelResult implied(IsolationLevel l) {
        for (LevelResult d : done.values()) {
            if (d.verdict() == Verdict.VALID && d.level().implies(l)) {
                return new LevelResult(l, Verdict.VALID, "implied: the history is " + d.level() + " (valid)",
                        d.algorithm());
            }
            if (d.verdict() == Verdict.INVALID && l.implies(d.level())) {
                return new LevelResult(l, Verdict.INVALID, "implied: the history violates " + d.level(),
                        d.algorithm());
            }
        }
        return null;
    }

    private LevelResult put(LevelResult r) {
        done.put(r.level(), r);
        return r;
    }

    private LevelResult compute(IsolationLevel l) {
        if ((l == IsolationLevel.STRICT_SERIALIZABLE || l == IsolationLevel.LINEARIZABLE) && !h.realTime()) {
            throw new InputException(h.source(), 0, "the history has no real-time order (the text format records "
                    + "none), so " + l + " cannot be checked; use serializable or weaker");
        }
        IsolationLevel nonCycle = anomalies.nonCycleLevel();
        if (nonCycle != null && (l.implies(nonCycle) || l == IsolationLevel.LINEARIZABLE)) {
            LevelResult searched = search(l);
            String also = searched.verdict() == Verdict.INVALID ? "; also " + searched.reason() : "";
            return new LevelResult(l, Verdict.INVALID, "reads that no execution allows (" + nonCycle
                    + " anomalies, found before any cycle search)" + also, "read validation (MTC §IV-B footnote)");
        }
        return search(l);
    }

    /** {@code what} names what was looked for, singular: "cycle" becomes "2 cycles" or "no cycle". */
    protected final LevelResult verdict(IsolationLevel l, int violations, String what, String algorithm) {
        if (violations > 0) {
            return new LevelResult(l, Verdict.INVALID, violations + " " + (violations == 1 ? what : plural(what)),
                    algorithm);
        }
        String why = undetermined();
        if (why != null) return new LevelResult(l, Verdict.UNKNOWN, why + "; no violation found without them", algorithm);
        return new LevelResult(l, Verdict.VALID, "no " + what, algorithm);
    }

    /**
     * "dependency cycle through real-time order" becomes "dependency cycles through real-time order": the noun before
     * the first preposition takes the plural.
     */
    public static String plural(String what) {
        int cut = what.length();
        for (String prep : new String[] {" of ", " without ", " through ", " with "}) {
            int i = what.indexOf(prep);
            if (i >= 0 && i < cut) cut = i;
        }
        int paren = what.indexOf(" (");
        if (paren >= 0 && paren < cut) cut = paren;
        String head = what.substring(0, cut), tail = what.substring(cut);
        return (head.endsWith("y") && !head.endsWith("ey") ? head.substring(0, head.length() - 1) + "ies"
                : head + "s") + tail;
    }
}
