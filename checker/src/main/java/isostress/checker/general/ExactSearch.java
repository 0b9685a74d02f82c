package isostress.checker.general;

import isostress.checker.history.History;
import isostress.checker.index.AnomalyLog;
import isostress.checker.index.RegisterIndex;
import isostress.checker.model.IsolationLevel;

import java.util.Arrays;

/**
 * The slower exact check of PC, SI and SER: Biswas &amp; Enea's search over prefixes ({@link PrefixSearch}, §4.1-4.3)
 * on a history's committed transactions. It shares nothing with the polygraph solver but the compiled observations,
 * so benchmarks and tests compare the two: the polygraph solver must give the same verdicts as this slower search.
 */
final class ExactSearch {
    private ExactSearch() {
    }

    /**
     * Decides {@code level} (PC, SI or SER) on {@code h}'s committed transactions by search, visiting at most
     * {@code budget} states.
     *
     * @throws IllegalArgumentException for another level
     */
    static PrefixSearch.Outcome check(History h, IsolationLevel level, long budget) {
        AnomalyLog log = new AnomalyLog(h, 1);
        Observations o = ListAppendIndex.isListHistory(h) ? ListAppendIndex.of(h, log)
                : Observations.of(RegisterIndex.of(h, log));
        return check(o, mode(level), budget);
    }

    private static PrefixSearch.Mode mode(IsolationLevel l) {
        return switch (l) {
            case SERIALIZABLE -> PrefixSearch.Mode.SER;
            case SNAPSHOT_ISOLATION -> PrefixSearch.Mode.SI;
            case PREFIX -> PrefixSearch.Mode.PC;
            default -> throw new IllegalArgumentException("no exact search for " + l.alias());
        };
    }

    /** Decides {@code mode} by search, visiting at most {@code budget} states. */
    static PrefixSearch.Outcome check(Observations o, PrefixSearch.Mode mode, long budget) {
        Sessions ss = Sessions.of(o);
        int[] dense = new int[o.n];
        int count = 0;
        for (int s = 0; s < ss.count; s++) {
            // Transactions numbered session by session, as SearchHistory expects (begin order).
            for (int i = ss.start[s]; i < ss.start[s + 1]; i++) dense[ss.members[i]] = count++;
        }
        SearchHistory.Builder b = new SearchHistory.Builder(o.keys, ss.count);
        for (int s = 0; s < ss.count; s++) {
            for (int i = ss.start[s]; i < ss.start[s + 1]; i++) {
                int t = ss.members[i];
                b.begin(s);
                for (int a = o.accStart[t]; a < o.accStart[t + 1]; a++) {
                    int v = o.accRead[a];
                    if (v < 0) continue;
                    int w = o.verTxn[v];
                    b.read(o.accKey[a], w < 0 ? -1 : dense[w]);
                }
                for (int a = o.accStart[t]; a < o.accStart[t + 1]; a++) if (o.accWrite[a] >= 0) b.write(o.accKey[a]);
                b.end();
            }
        }
        // Try transactions in completion order first: real executions commit roughly in that order.
        int[] priority = new int[count];
        long[] keyed = new long[count];
        for (int t = 0; t < o.n; t++) {
            if (!o.included[t]) continue;
            long when = o.h.completeIndex(t) >= 0 ? o.h.completeIndex(t) : o.h.invokeIndex(t);
            keyed[dense[t]] = Math.max(0, when);
        }
        long[] sorted = new long[count];
        for (int i = 0; i < count; i++) sorted[i] = (keyed[i] << 24) | i;
        Arrays.sort(sorted);
        for (int r = 0; r < count; r++) priority[(int) (sorted[r] & ((1 << 24) - 1))] = r;
        return PrefixSearch.check(b.build(), mode, budget, priority);
    }
}
