package isostress.checker.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a check found: a verdict per level asked (and per weaker level examined to name the weakest violated one),
 * the anomalies, and statistics.
 *
 * @param shape           the history's shape as the checker saw it (e.g. {@code mini-transaction})
 * @param levels          verdicts, weakest level first
 * @param requested       the levels the user asked for
 * @param anomalies       anomalies found (at most the configured limit per kind)
 * @param anomaliesOmitted how many more were found but not listed
 * @param anomalyCounts   how many of each anomaly name were found (listed or not)
 * @param stats           counts and timings, for results.json
 */
public record Result(String shape, List<LevelResult> levels, List<IsolationLevel> requested,
                     List<Anomaly> anomalies, int anomaliesOmitted, Map<String, Integer> anomalyCounts,
                     Map<String, Object> stats) {

    public Result {
        levels = List.copyOf(levels);
        requested = List.copyOf(requested);
        anomalies = List.copyOf(anomalies);
        anomalyCounts = Map.copyOf(anomalyCounts);
    }

    /** The verdict for {@code level}, or null when it was not examined. */
    public LevelResult level(IsolationLevel level) {
        for (LevelResult r : levels) if (r.level() == level) return r;
        return null;
    }

    /** The overall verdict over the requested levels: invalid beats unknown beats valid. */
    public Verdict verdict() {
        Verdict v = Verdict.VALID;
        for (IsolationLevel l : requested) {
            Verdict lv = level(l).verdict();
            if (lv == Verdict.INVALID) return Verdict.INVALID;
            if (lv == Verdict.UNKNOWN) v = Verdict.UNKNOWN;
        }
        return v;
    }

    /** The weakest levels the history violates (several when incomparable, e.g. linearizable and serializable). */
    public List<IsolationLevel> weakestViolated() {
        List<IsolationLevel> violated = new ArrayList<>();
        for (LevelResult r : levels) if (r.verdict() == Verdict.INVALID) violated.add(r.level());
        return IsolationLevel.weakest(violated);
    }
}
