package isostress.harness.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;

/** The benchmarks the command line offers (the implementations stay package-private). */
public final class Benchmarks {
    private Benchmarks() {
    }

    /** {@link PgbenchComparison}: returns {isostress commits/s, pgbench tps}. */
    public static double[] pgbench(String version, int sessions, int seconds, int keys, String isolation, PrintWriter out)
            throws IOException, InterruptedException {
        return PgbenchComparison.run(version, sessions, seconds, keys, isolation, out);
    }

    /** {@link AbortRateSweep}. */
    public static void aborts(String version, List<Integer> sessions, int txns, int keys, String dist, int ops,
                              PrintWriter out) throws IOException, InterruptedException {
        AbortRateSweep.run(version, sessions, txns, keys, dist, ops, out);
    }
}
