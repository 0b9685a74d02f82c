package isostress.harness.cli;

import isostress.checker.history.InputException;
import isostress.harness.db.Secrets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.util.Properties;

/** The {@code isostress} command: subcommands for each job; usage when none is given. */
@Command(name = "isostress", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "End-to-end database isolation stress testing: generate, run, record, check.",
        subcommands = {RunCommand.class, CheckCommand.class, ExportCommand.class, HermitageCommand.class, GenerateCommand.class, BenchCommand.class,
                ReportCommand.class,
                CommandLine.HelpCommand.class},
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

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line (also used by tests). */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
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
