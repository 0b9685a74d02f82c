package isostress.checker.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a check found: a verdict per level asked (and per weaker level examined to name the weakest violated one),
 * the anomalies, and statistics.
 *
 * @param shape           the history's shape as the checker saw it (e.g. {@code mini-transaction})
 * @param levels          verdicts, weakest level first; an SQL history's check at its transactions' own levels comes
 *                        first, with a null level ({@link LevelResult#OWN})
 * @param requested       the levels the user asked for (the own-levels check, when present, is always counted)
 * @param anomalies       anomalies found (at most the configured limit per kind)
 * @param anomaliesOmitted how many more were found but not listed
 * @param anomalyCounts   how many of each anomaly name were found (listed or not)
 * @param stats           counts and timings, for results.json
 * @param witness         what the join with the database's commit log found ({@code check --witness}), or null
 * @param lostWrites      what the lost-write analysis found in a history with final reads, or null when it has none
 */
public record Result(String shape, List<LevelResult> levels, List<IsolationLevel> requested,
                     List<Anomaly> anomalies, int anomaliesOmitted, Map<String, Integer> anomalyCounts,
                     Map<String, Object> stats, WitnessReport witness, LostWriteReport lostWrites) {

    /** A result checked without a witness. */
    public Result(String shape, List<LevelResult> levels, List<IsolationLevel> requested, List<Anomaly> anomalies,
                  int anomaliesOmitted, Map<String, Integer> anomalyCounts, Map<String, Object> stats) {
        this(shape, levels, requested, anomalies, anomaliesOmitted, anomalyCounts, stats, null, null);
    }

    /** This result with {@code a} as its anomalies (the same anomalies, annotated). */
    public Result withAnomalies(List<Anomaly> a) {
        return new Result(shape, levels, requested, a, anomaliesOmitted, anomalyCounts, stats, witness, lostWrites);
    }

    /** This result with what the witness join found (the stats map is shared, as the CLI adds to it). */
    public Result withWitness(WitnessReport w) {
        return new Result(shape, levels, requested, anomalies, anomaliesOmitted, anomalyCounts, stats, w, lostWrites);
    }

    /** This result with what the lost-write analysis found. */
    public Result withLostWrites(LostWriteReport l) {
        return new Result(shape, levels, requested, anomalies, anomaliesOmitted, anomalyCounts, stats, witness, l);
    }

    public Result {
        levels = List.copyOf(levels);
        requested = List.copyOf(requested);
        anomalies = List.copyOf(anomalies);
        anomalyCounts = Map.copyOf(anomalyCounts);
    }

    /**
     * The key in {@link #stats()} of the weaker levels left out after a violation because they would take a search
     * (level name to the reason), present only when some were.
     */
    public static final String NOT_EXAMINED = "levels_not_examined";

    /** The verdict for {@code level}, or null when it was not examined. */
    public LevelResult level(IsolationLevel level) {
        for (LevelResult r : levels) if (r.level() == level) return r;
        return null;
    }

    /**
     * The overall verdict over the requested levels and the own-levels check: invalid beats unknown beats valid. A
     * witness finding (the history disagrees with the database's commit log) makes it invalid whatever the levels
     * say: the history the levels were checked on is not what the database did. So does a lost write the final reads
     * show.
     */
    public Verdict verdict() {
        if (witness != null && witness.findingCount() > 0) return Verdict.INVALID;
        if (lostWrites != null && lostWrites.lost() > 0) return Verdict.INVALID;
        Verdict v = Verdict.VALID;
        List<LevelResult> counted = new ArrayList<>();
        for (LevelResult r : levels) if (r.level() == null) counted.add(r);
        for (IsolationLevel l : requested) counted.add(level(l));
        for (LevelResult r : counted) {
            Verdict lv = r.verdict();
            if (lv == Verdict.INVALID) return Verdict.INVALID;
            if (lv == Verdict.UNKNOWN) v = Verdict.UNKNOWN;
        }
        return v;
    }

    /** The weakest levels the history violates (several when incomparable, e.g. linearizable and serializable). */
    public List<IsolationLevel> weakestViolated() {
        List<IsolationLevel> violated = new ArrayList<>();
        for (LevelResult r : levels) if (r.verdict() == Verdict.INVALID && r.level() != null) violated.add(r.level());
        return IsolationLevel.weakest(violated);
    }
}
