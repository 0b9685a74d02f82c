package isostress.generator.sim;

import isostress.generator.KeyDistribution;
import isostress.generator.sim.GeneralSimulation.Config;
import isostress.generator.sim.GeneralSimulation.Level;
import isostress.generator.sim.GeneralSimulation.Workload;

import java.util.SplittableRandom;

/** Small random {@link GeneralSimulation} runs, small enough for the brute-force reference checkers. */
final class SmallConfigs {
    private SmallConfigs() {
    }

    /**
     * A small random run for brute-force differential tests, drawn from {@code rnd}: 3-6 transactions, 2-3
     * sessions, 1-4 operations each, 2-3 uniform keys, read ratio 0.3-0.7, and in a third of the runs fail and
     * info rates of 0.1 each.
     */
    static Config random(Level level, Workload workload, SplittableRandom rnd) {
        int txns = 3 + rnd.nextInt(4);
        int sessions = 2 + rnd.nextInt(2);
        int ops = 1 + rnd.nextInt(4);
        int keys = 2 + rnd.nextInt(2);
        double readRatio = 0.3 + 0.4 * rnd.nextDouble();
        boolean failures = rnd.nextInt(3) == 0;
        return new Config(txns, sessions, ops, false, readRatio, new KeyDistribution.Uniform(keys), workload,
                level, failures ? 0.1 : 0, failures ? 0.1 : 0, rnd.nextLong());
    }
}
