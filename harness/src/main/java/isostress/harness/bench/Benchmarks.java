package isostress.harness.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;

/** The benchmarks the command line offers (the implementations stay package-private). */
public final class Benchmarks {
    private Benchmarks() {
    }

    /**
     * {@link PgbenchComparison} over {@code rounds} rounds: returns the medians {isostress commits/s, pgbench -M
     * simple tps, pgbench -M prepared tps, isostress / simple, isostress / prepared} (ratios paired per round).
     */
    public static double[] pgbench(String version, int sessions, int seconds, int keys, String isolation, int rounds,
                                   PrintWriter out) throws IOException, InterruptedException {
        PgbenchComparison.Result r = PgbenchComparison.run(version, sessions, seconds, keys, isolation, rounds, out);
        return new double[] {r.isostress(), r.simple(), r.prepared(), r.simpleRatio(), r.preparedRatio()};
    }

    /** {@link AbortRateSweep}. */
    public static void aborts(String version, List<Integer> sessions, int txns, int keys, String dist, int ops,
                              PrintWriter out) throws IOException, InterruptedException {
        AbortRateSweep.run(version, sessions, txns, keys, dist, ops, out);
    }

    /**
     * {@link WitnessCost}: returns {mean commits/s without the capture, mean with, median of the per-pair ratios
     * with/without}.
     */
    public static double[] witness(String version, int pairs, int transactions, PrintWriter out)
            throws IOException, InterruptedException {
        WitnessCost.Result r = WitnessCost.run(version, pairs, transactions, out);
        return new double[] {r.meanOff(), r.meanOn(), r.medianRatio()};
    }
}
