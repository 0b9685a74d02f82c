package isostress.checker.history;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Runs a property over generated cases, each drawn from its own {@link SplittableRandom} whose seed is derived from a
 * base seed and the case's index, so that a failing case can be replayed alone. It replaced jqwik, whose user guide
 * asks since 1.10 that AI coding agents not use it; the one thing kept of its shrinking is dropping one mutation at a
 * time. Public because harness's tests use it too, through checker's test-jar (checker/pom.xml).
 *
 * <p>System properties: {@code isostress.fuzz.seed} (the base seed), {@code isostress.fuzz.tries} (how many cases)
 * and {@code isostress.fuzz.case} (run only the case of that index, as a failure report prints it).
 *
 * @param <C> a generated case; its toString is what a failure report shows
 */
public final class SeededFuzz<C> {
    /** The property: returns normally for a case that holds, throws anything for one that does not. */
    public interface Property<C> {
        void check(C c) throws Exception;
    }

    /** At most this many smaller cases are tried after a failure: each may take as long as the failing one. */
    private static final int MAX_SHRINK_TRIES = 64;

    private final long baseSeed;
    private final long tries;
    private final long onlyCase;
    private final Function<SplittableRandom, C> generator;
    private final Function<C, List<C>> smaller;

    /**
     * @param defaultSeed  the base seed unless {@code -Disostress.fuzz.seed} says otherwise
     * @param defaultTries how many cases unless {@code -Disostress.fuzz.tries} says otherwise
     * @param generator    draws one case; it must use only the random it is given, so that a case can be replayed
     * @param smaller      the cases with one mutation less each, tried in turn after a failure
     */
    public SeededFuzz(long defaultSeed, long defaultTries, Function<SplittableRandom, C> generator,
            Function<C, List<C>> smaller) {
        this.baseSeed = property("isostress.fuzz.seed", defaultSeed);
        this.tries = property("isostress.fuzz.tries", defaultTries);
        this.onlyCase = property("isostress.fuzz.case", -1);
        this.generator = generator;
        this.smaller = smaller;
    }

    /**
     * Generates and checks the cases in order; at the first failure, shrinks it and throws an AssertionError naming
     * the case index, its seed, the case and the smallest failing case found.
     *
     * @return how many cases were checked
     */
    public long run(Property<C> property) {
        long from = onlyCase >= 0 ? onlyCase : 0;
        long to = onlyCase >= 0 ? onlyCase + 1 : tries;
        for (long i = from; i < to; i++) {
            long seed = caseSeed(baseSeed, i);
            C c = generator.apply(new SplittableRandom(seed));
            Throwable t = failure(property, c);
            if (t != null) throw new AssertionError(report(i, seed, c, t, property), t);
        }
        return to - from;
    }

    /**
     * Case {@code index}'s seed. Multiplying by an odd constant and xor-ing are one-to-one on 64 bits, and so is
     * SplittableRandom's first output of its seed (Steele, Lea and Flood, "Fast splittable pseudorandom number
     * generators", OOPSLA 2014, mix64), so no two cases of one base seed share a seed.
     */
    private static long caseSeed(long base, long index) {
        return new SplittableRandom(base ^ (index * 0x9E3779B97F4A7C15L)).nextLong();
    }

    private String report(long index, long seed, C c, Throwable t, Property<C> property) {
        C smallest = c;
        Throwable why = t;
        int tried = 0;
        shrink:
        while (true) {
            for (C d : smaller.apply(smallest)) {
                if (++tried > MAX_SHRINK_TRIES) break shrink;
                Throwable u = failure(property, d);
                if (u != null) {
                    smallest = d;
                    why = u;
                    continue shrink;
                }
            }
            break;
        }
        String s = "case " + index + ", seed " + seed + ": " + c + "\n  fails with " + t;
        if (smallest != c) {
            s += "\n  smallest failing case (mutations dropped one at a time): " + smallest + "\n  fails with " + why;
        }
        return s + "\n  replay it alone with -Disostress.fuzz.seed=" + baseSeed + " -Disostress.fuzz.case=" + index;
    }

    private static <C> Throwable failure(Property<C> property, C c) {
        try {
            property.check(c);
            return null;
        } catch (Exception | Error e) {
            // Errors too: a StackOverflowError or OutOfMemoryError from a reader is what the fuzzer looks for.
            return e;
        }
    }

    private static long property(String name, long defaultValue) {
        String v = System.getProperty(name);
        if (v == null || v.isBlank()) return defaultValue;
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + name + "=" + v + ": not an integer");
        }
    }
}
