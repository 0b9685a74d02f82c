package isostress.harness.cli;

import picocli.CommandLine.Option;

/** {@code --seed} of the benchmarks that simulate their histories: the random seed, 1 unless given. */
final class RandomSeedOption {
    @Option(names = "--seed", defaultValue = "1", description = "Random seed (default ${DEFAULT-VALUE}).")
    long seed;
}
