package isostress.harness.cli;

import picocli.CommandLine.Option;

/** {@code --seed} of the commands that read a campaign: replaces its workload seed when given. */
final class SeedOverrideOption {
    @Option(names = "--seed", paramLabel = "SEED", description = "Override the campaign's workload seed.")
    Long seed;
}
