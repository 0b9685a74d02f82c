package isostress.harness.cli;

import picocli.CommandLine.Option;

/** {@code --pg-version}: the version of the embedded server that the pgbench and aborts benchmarks start. */
final class BenchServerVersionOption {
    // Not --version: that name is the standard version option, and picocli drops the whole standard mixin
    // (--help included) from a command that declares it again.
    @Option(names = "--pg-version", defaultValue = "16.15", description = "Embedded PostgreSQL (default ${DEFAULT-VALUE}).")
    String version;
}
