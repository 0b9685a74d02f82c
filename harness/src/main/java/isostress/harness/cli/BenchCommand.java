package isostress.harness.cli;

import picocli.CommandLine.Command;

/** {@code isostress bench ...}: benchmarks whose output a reader compares with the targets. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks.",
        subcommands = {BenchCheckCommand.class, BenchShapesCommand.class, BenchViolationsCommand.class, BenchGeneralCommand.class, BenchPgbenchCommand.class, BenchAbortsCommand.class, BenchWitnessCommand.class, BenchStreamingCommand.class, BenchGenerateCommand.class})
public final class BenchCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
