package isostress.harness.cli;

import isostress.checker.history.InputException;
import isostress.harness.db.Secrets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Properties;

/** The {@code isostress} command: subcommands for each job; usage when none is given. */
@Command(name = "isostress", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "End-to-end database isolation stress testing: generate, run, record, check.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:valid at every level asked", "1:invalid: an anomaly was found",
                "2:bad input or usage", "3:unknown: a search limit was hit before a verdict",
                "70:internal error"})
public final class Main implements Runnable {
    /** Exit statuses: 0 valid, 1 invalid, 2 bad input, 3 unknown, 70 internal error. */
    public static final int VALID = 0, INVALID = 1, BAD_INPUT = 2, UNKNOWN = 3, INTERNAL = 70;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** The subcommands, in the order the usage lists them (picocli's {@code help} follows them). */
    private static final List<Class<?>> SUBCOMMANDS = List.of(RunCommand.class, CheckCommand.class,
            ExportCommand.class, HermitageCommand.class, GenerateCommand.class, BenchCommand.class,
            ReportCommand.class);

    public static void main(String[] args) {
        System.exit(commandLine(args).execute(args));
    }

    /** The configured command line with every subcommand (also used by tests). */
    public static CommandLine commandLine() {
        return configured(SUBCOMMANDS);
    }

    /**
     * The command line for {@code args}: when the first word names a subcommand, the root with that one alone.
     * picocli builds each command's model by reflection when it is added, and building all of them (bench's nine
     * subcommands with their options, run's, hermitage's) was most of the 0.8 s that {@code isostress --version}
     * took before the JVM did any work; a check of a small file paid it too. Parsing, usage and errors of the named
     * command are the same either way, and anything else ({@code --help}, {@code help}, a misspelt command) gets the
     * whole tree.
     */
    static CommandLine commandLine(String[] args) {
        Class<?> named = args.length == 0 ? null : switch (args[0]) {
            // Named here, not looked up in SUBCOMMANDS' annotations, so that the others' classes are not even
            // loaded; MainTest checks that every subcommand is here under its own name.
            case "run" -> RunCommand.class;
            case "check" -> CheckCommand.class;
            case "export" -> ExportCommand.class;
            case "hermitage" -> HermitageCommand.class;
            case "generate" -> GenerateCommand.class;
            case "bench" -> BenchCommand.class;
            case "report" -> ReportCommand.class;
            default -> null;
        };
        return named == null ? commandLine() : configured(List.of(named));
    }

    private static CommandLine configured(List<Class<?>> subcommands) {
        CommandLine cl = new CommandLine(new Main());
        for (Class<?> c : subcommands) cl.addSubcommand(c);
        cl.addSubcommand(CommandLine.HelpCommand.class);
        versionEverywhere(cl, new Version());
        cl.setExitCodeExceptionMapper(Main::exitCode);
        cl.setExecutionStrategy(parsed -> {
            try {
                return new CommandLine.RunLast().execute(parsed);
            } catch (Error e) {
                // picocli lets an Error escape execute(), and an uncaught one ends the JVM with status 1, which
                // reads as "invalid": a StackOverflowError or OutOfMemoryError must be an internal error (70).
                throw new CommandLine.ExecutionException(cl, "internal error: " + e, e);
            }
        });
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            if (ex instanceof CommandLine.ExecutionException && ex.getCause() instanceof Error) {
                line.getErr().println("isostress: internal error: " + ex.getCause()
                        + (ex.getCause() instanceof VirtualMachineError ? " (the JVM ran out of stack or memory; "
                        + "give it more with -Xss or -Xmx)" : ""));
                return INTERNAL;
            }
            int code = exitCode(ex);
            if (code == INTERNAL) {
                java.io.StringWriter trace = new java.io.StringWriter();
                ex.printStackTrace(new java.io.PrintWriter(trace));
                line.getErr().print(Secrets.mask(trace.toString())); // drivers quote URLs in their messages
            } else {
                line.getErr().println("isostress: " + Secrets.mask(message(ex)));
            }
            return code;
        });
        return cl;
    }

    /** picocli does not pass the root's version provider down: {@code isostress run --version} would print nothing. */
    private static void versionEverywhere(CommandLine cl, CommandLine.IVersionProvider version) {
        cl.getCommandSpec().versionProvider(version);
        for (CommandLine sub : cl.getSubcommands().values()) versionEverywhere(sub, version);
    }

    static int exitCode(Throwable t) {
        if (t instanceof CommandLine.ParameterException || t instanceof InputException
                || t instanceof NoSuchFileException || t instanceof UsageException) {
            return BAD_INPUT;
        }
        if (t instanceof IOException || t instanceof java.io.UncheckedIOException) return BAD_INPUT;
        return INTERNAL;
    }

    private static String message(Throwable t) {
        if (t instanceof NoSuchFileException) return "no such file: " + t.getMessage();
        return t.getMessage();
    }

    /** A usage error found after parsing (e.g. an option combination). */
    public static final class UsageException extends RuntimeException {
        public UsageException(String message) {
            super(message);
        }
    }

    /**
     * The project version, which Maven's resource filtering writes into {@code isostress-build.properties} (so it
     * is there in tests as in the jar).
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties p = new Properties();
            try (InputStream in = Main.class.getClassLoader().getResourceAsStream("isostress-build.properties")) {
                if (in == null) throw new IllegalStateException("isostress-build.properties is missing from the class path");
                p.load(in);
            }
            String v = p.getProperty("isostress.version", "");
            if (v.isEmpty() || v.startsWith("${")) {
                throw new IllegalStateException("isostress-build.properties was not filtered by Maven (isostress.version=" + v + ")");
            }
            return new String[] {"isostress " + v};
        }
    }
}
