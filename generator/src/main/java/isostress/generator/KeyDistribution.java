package isostress.generator;

import java.util.SplittableRandom;

/**
 * How keys are drawn from {@code [0, keys)}. Pure functions of the random source, so a workload is a function of its
 * seed.
 */
public sealed interface KeyDistribution
        permits KeyDistribution.Uniform, KeyDistribution.Zipfian, KeyDistribution.Hotspot, KeyDistribution.Exponential {

    /** A key in {@code [0, keys())}. */
    int next(SplittableRandom rnd);

    /** Number of keys. */
    int keys();

    /** Every key equally likely. */
    record Uniform(int keys) implements KeyDistribution {
        public Uniform {
            if (keys < 1) throw new IllegalArgumentException("keys must be >= 1, was " + keys);
        }

        public int next(SplittableRandom rnd) {
            return rnd.nextInt(keys);
        }
    }

    /**
     * Zipfian: key i (0-based, 0 most popular) with probability proportional to 1/(i+1)^exponent, for any exponent
     * &gt; 0. Sampled exactly by inverse transform: a table of the cumulative distribution (8 bytes per key, built
     * once) and a binary search per draw, O(log keys). Gray et al.'s O(1) approximation (YCSB) holds only for
     * exponents below 1, and campaigns use steeper ones for hot keys.
     */
    final class Zipfian implements KeyDistribution {
        private final double exponent;
        private final double[] cdf;

        public Zipfian(int keys, double exponent) {
            if (keys < 1) throw new IllegalArgumentException("keys must be >= 1, was " + keys);
            if (!(exponent > 0)) throw new IllegalArgumentException("zipfian exponent must be > 0, was " + exponent);
            this.exponent = exponent;
            cdf = new double[keys];
            double z = 0;
            for (int i = 0; i < keys; i++) {
                z += 1.0 / Math.pow(i + 1, exponent);
                cdf[i] = z;
            }
            for (int i = 0; i < keys; i++) cdf[i] /= z;
        }

        public int keys() {
            return cdf.length;
        }

        public int next(SplittableRandom rnd) {
            double u = rnd.nextDouble();
            int lo = 0, hi = cdf.length - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cdf[mid] > u) hi = mid; else lo = mid + 1;
            }
            return lo;
        }

        @Override
        public String toString() {
            return "Zipfian[keys=" + cdf.length + ", exponent=" + exponent + "]";
        }
    }

    /**
     * A fraction {@code hotOps} of draws go uniformly to the first {@code hotKeys} fraction of the keys, the rest
     * uniformly to the others (YCSB's hotspot generator).
     */
    record Hotspot(int keys, double hotKeys, double hotOps) implements KeyDistribution {
        public Hotspot {
            if (keys < 1) throw new IllegalArgumentException("keys must be >= 1, was " + keys);
            if (hotKeys <= 0 || hotKeys > 1) throw new IllegalArgumentException("hot key fraction must be in (0, 1]");
            if (hotOps < 0 || hotOps > 1) throw new IllegalArgumentException("hot op fraction must be in [0, 1]");
        }

        public int next(SplittableRandom rnd) {
            int hot = Math.max(1, (int) Math.round(keys * hotKeys));
            if (hot >= keys || rnd.nextDouble() < hotOps) return rnd.nextInt(hot);
            return hot + rnd.nextInt(keys - hot);
        }
    }

    /**
     * Exponential: key k with probability proportional to exp(-k / (mean * keys)); {@code mean} is the mean key as a
     * fraction of the key space (small means few hot keys). Draws beyond the key space are drawn again.
     */
    record Exponential(int keys, double mean) implements KeyDistribution {
        public Exponential {
            if (keys < 1) throw new IllegalArgumentException("keys must be >= 1, was " + keys);
            if (!(mean > 0)) throw new IllegalArgumentException("exponential mean must be > 0, was " + mean);
        }

        public int next(SplittableRandom rnd) {
            while (true) {
                double x = -Math.log(1 - rnd.nextDouble()) * mean * keys;
                if (x < keys) return (int) x;
            }
        }
    }
}
