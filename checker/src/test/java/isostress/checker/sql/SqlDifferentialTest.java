package isostress.checker.sql;

import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Verdict;
import isostress.checker.reference.SqlBruteForceChecker;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SqlChecker} against {@link SqlBruteForceChecker} on small random SQL histories (a differential test against an independent reference): simulated
 * executions (valid at their own levels) and mutations of them, checked at their own mixed levels or with one level
 * for all (at most {@code isostress.sqlDiff.maxTxns} = 6 transactions, about 40 s for 10,000, so the brute force
 * stays affordable). Any disagreement fails; an unknown from the fast checker counts as one unless the brute force
 * gave up too.
 */
class SqlDifferentialTest {
    static final int HISTORIES = Integer.getInteger("isostress.sqlDiff.n", 10_000);
    static final int MAX_TXNS = Integer.getInteger("isostress.sqlDiff.maxTxns", 6);

    @Test
    void agreesWithBruteForce() {
        Random rnd = new Random(20261124L);
        Map<String, int[]> counts = new TreeMap<>(); // config -> {valid, invalid, undecided}
        List<String> disagreements = new ArrayList<>();
        int simulatedValidChecked = 0;
        int[] rcSat = new int[2]; // brute-force-decided histories the fast checker sent to RcSat: {valid, invalid}
        long t0 = System.nanoTime();
        for (int i = 0; i < HISTORIES; i++) {
            boolean mixed = rnd.nextBoolean();
            IsolationLevel[] levels = mixed ? SqlGen.LEVELS : new IsolationLevel[]{SqlGen.LEVELS[rnd.nextInt(5)]};
            SqlGen.Shape shape = new SqlGen.Shape(2, 3, 3, MAX_TXNS, 3, 2 + rnd.nextInt(2), 1 + rnd.nextInt(2), 3, levels,
                    0.05, 0.03);
            SqlGen g = new SqlGen(rnd, shape);
            SqlHistory h = g.history();
            boolean mutated = rnd.nextDouble() < 0.6;
            if (mutated) {
                h = g.mutate(h);
                if (rnd.nextBoolean()) h = g.mutate(h);
            }
            IsolationLevel override = rnd.nextDouble() < 0.3 ? SqlGen.LEVELS[rnd.nextInt(5)] : null;
            String config = (override != null ? "override " + override.alias()
                    : mixed ? "own mixed levels" : "own levels, all " + levels[0].alias());
            SqlResult fast = SqlChecker.check(h, SqlCheckOptions.DEFAULTS.withLevel(override));
            Boolean brute = SqlBruteForceChecker.check(h, override, 1_000_000);
            int[] c = counts.computeIfAbsent(config, k -> new int[3]);
            if (brute == null) {
                c[2]++;
                continue;
            }
            c[brute ? 0 : 1]++;
            if (fast.stats().get("rc_sat") != null) rcSat[brute ? 0 : 1]++;
            if (!mutated && override == null) {
                simulatedValidChecked++;
                if (!brute) disagreements.add("simulated history judged invalid by the brute force #" + i + "\n" + SqlHistoryWriter.toText(h));
            }
            Verdict want = brute ? Verdict.VALID : Verdict.INVALID;
            if (fast.verdict() != want && disagreements.size() < 5) {
                disagreements.add("#" + i + " " + config + ": fast " + fast.verdict() + ", brute " + want + "\n"
                        + SqlHistoryWriter.toText(h) + fast.toText());
            } else if (fast.verdict() != want) {
                disagreements.add("#" + i);
            }
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        int valid = 0, invalid = 0, undecided = 0;
        System.out.println("SqlDifferentialTest: " + HISTORIES + " histories in " + ms + " ms (valid / invalid / brute force gave up):");
        for (Map.Entry<String, int[]> e : counts.entrySet()) {
            System.out.printf("  %-28s %5d / %5d / %3d%n", e.getKey(), e.getValue()[0], e.getValue()[1], e.getValue()[2]);
            valid += e.getValue()[0];
            invalid += e.getValue()[1];
            undecided += e.getValue()[2];
        }
        System.out.println("  total: " + valid + " valid, " + invalid + " invalid, " + undecided + " undecided; "
                + simulatedValidChecked + " unmutated simulations at own levels; disagreements: " + disagreements.size());
        System.out.println("  decided by the RC SAT path (RcSat): " + rcSat[0] + " valid, " + rcSat[1] + " invalid");
        assertTrue(disagreements.isEmpty(), String.join("\n----\n", disagreements.subList(0, Math.min(5, disagreements.size()))));
        assertTrue(valid > HISTORIES / 10 && invalid > HISTORIES / 10, "both verdicts must be well represented");
        assertTrue(undecided < HISTORIES / 20, "brute force gave up too often: " + undecided);
        assertEquals(0, disagreements.size());
    }
}
