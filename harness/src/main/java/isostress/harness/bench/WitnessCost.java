package isostress.harness.bench;

import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;
import isostress.harness.run.CampaignRunner;
import isostress.harness.run.RunOutcome;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;

/**
 * What capturing the database's commit log ({@code check.witness}) costs a run: the quickstart's campaign (embedded
 * PostgreSQL, serializable, 8 sessions of mini-transactions on 100 zipfian keys) run with the capture off and on,
 * in pairs, each run on a server of its own as a user's run is, after one uncounted warm-up run. The order within a
 * pair alternates (off-on, then on-off) so that a machine getting slower or faster during the benchmark does not
 * favour one side.
 */
final class WitnessCost {
    /** Commits per second of each run, and the per-pair ratios on/off. */
    record Result(double[] off, double[] on, double[] ratios) {
        double meanOff() {
            return Arrays.stream(off).average().orElse(Double.NaN);
        }

        double meanOn() {
            return Arrays.stream(on).average().orElse(Double.NaN);
        }

        double medianRatio() {
            double[] r = ratios.clone();
            Arrays.sort(r);
            return r.length % 2 == 1 ? r[r.length / 2] : (r[r.length / 2 - 1] + r[r.length / 2]) / 2;
        }
    }

    private WitnessCost() {
    }

    static Result run(String version, int pairs, int transactions, PrintWriter out) throws IOException,
            InterruptedException {
        Path store = Files.createTempDirectory("isostress-bench-witness");
        try {
            out.printf(Locale.ROOT, "embedded PostgreSQL %s, serializable, mini-transactions: 8 sessions, 100 zipfian "
                    + "keys, %,d transactions per run; check.witness false and true, %d pairs%n", version,
                    transactions, pairs);
            // Uncounted: the first run of a JVM also compiles the harness's hot code, which would count against
            // whichever side runs first.
            campaign(store, version, transactions, true, -1);
            double[] off = new double[pairs], on = new double[pairs], ratios = new double[pairs];
            for (int p = 0; p < pairs; p++) {
                boolean onFirst = p % 2 == 1;
                RunOutcome first = campaign(store, version, transactions, onFirst, p);
                RunOutcome second = campaign(store, version, transactions, !onFirst, p);
                RunOutcome withOut = onFirst ? second : first, with = onFirst ? first : second;
                off[p] = withOut.stats().throughput();
                on[p] = with.stats().throughput();
                ratios[p] = on[p] / off[p];
                out.printf(Locale.ROOT, "pair %d (%s first): without %,.0f commits/s, with %,.0f (%,d log "
                        + "transactions): %.3f%n", p + 1, onFirst ? "with" : "without", off[p], on[p],
                        with.result().witness().transactions(), ratios[p]);
                out.flush();
            }
            Result r = new Result(off, on, ratios);
            out.printf(Locale.ROOT, "means: without %,.0f commits/s, with %,.0f: %+.1f%%; median pair ratio %.3f "
                    + "(target: a cost of at most 10%%)%n", r.meanOff(), r.meanOn(),
                    100 * (r.meanOn() / r.meanOff() - 1), r.medianRatio());
            return r;
        } finally {
            try (var files = Files.walk(store)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static RunOutcome campaign(Path store, String version, int transactions, boolean witness, int pair)
            throws IOException, InterruptedException {
        String name = pair < 0 ? "witness-warm-up" : "witness-" + (witness ? "on" : "off") + "-" + pair;
        String yaml = "name: " + name + "\n"
                + "database: {type: postgresql, provision: embedded, version: \"" + version
                + "\", isolation: serializable}\n"
                + "workload: {type: mini, sessions: 8, transactions: " + transactions
                + ", keys: 100, distribution: zipfian, seed: 42}\n"
                + "check: {levels: [serializable], witness: " + witness + "}\n"
                + "store: " + store + "\n";
        Campaign c = CampaignLoader.parse(Path.of(name + ".yaml"), yaml);
        RunOutcome o = new CampaignRunner(c, new PrintWriter(new StringWriter()), false).run(0, c.workload().seed());
        if (o.error() != null) throw new IOException(name + ": " + o.error());
        if (witness && (o.result() == null || o.result().witness() == null)) {
            throw new IOException(name + ": the run has no witness");
        }
        if (witness && o.result().witness().findingCount() > 0) {
            throw new IOException(name + ": the witness disagrees with the history: " + o.result().witness().summary());
        }
        return o;
    }
}
