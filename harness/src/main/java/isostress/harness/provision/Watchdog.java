package isostress.harness.provision;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A process that outlives the harness just long enough to stop what the harness started, so that a SIGKILL of the
 * harness (which runs no shutdown hook) leaves no database server, container or iptables chain running: one small
 * shell ({@code watchdog.sh}) per harness, started before the first thing it will have to clean up.
 *
 * <p>It learns that the harness is gone from the pipe on its standard input: the kernel closes the harness's end
 * when the process dies, however it dies, so end of file arrives at once, with no polling and no mistaking a
 * reused pid for the harness. Java's {@link ProcessBuilder} closes every other descriptor in the children it
 * starts, so no server holds the pipe open. It runs in a session of its own ({@code setsid}), so the Ctrl-C
 * a terminal sends to the harness's process group does not reach it. Parent-death signals ({@code prctl
 * PR_SET_PDEATHSIG}) would not do: they reach direct children only, and the postmaster is started by
 * {@code pg_ctl}, whose parent exits.
 *
 * <p>When the harness ends normally it has already stopped everything and the watchdog finds nothing to do. What
 * it finds is named after the harness's pid (see {@link Leftovers}), so it never touches another harness's servers.
 */
public final class Watchdog {
    private static Process process;
    private static OutputStream pipe;
    private static String log;
    private static boolean rules;

    private Watchdog() {
    }

    /** Starts this harness's watchdog unless it runs already; without /bin/sh, warns once and does without. */
    static synchronized void arm() {
        if (process != null) return;
        String script;
        try (InputStream in = Watchdog.class.getResourceAsStream("watchdog.sh")) {
            if (in == null) throw new IOException("watchdog.sh is missing from the jar");
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) cmd.add("/usr/bin/setsid");
        cmd.addAll(List.of("/bin/sh", "-c", script, "isostress-watchdog",
                Long.toString(ProcessHandle.current().pid()), System.getProperty("java.io.tmpdir")));
        try {
            process = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            pipe = process.getOutputStream();
        } catch (IOException e) {
            process = null;
            System.err.println("isostress: no watchdog (" + e.getMessage() + "): if the harness is killed, the next "
                    + "run stops what it left running");
            return;
        }
        if (log != null) tell("log " + log);
        if (rules) tell("iptables on");
    }

    /**
     * A container or network labelled with this process's pid ({@link Leftovers#DOCKER_OWNER}) is about to be
     * created: the watchdog removes them if the harness dies. Until then it does not ask the engine at all.
     */
    public static synchronized void docker() {
        arm();
        if (process != null) tell("docker on");
    }

    /** Where the watchdog says what it cleaned up: the current run's log (null: nowhere). */
    public static synchronized void logTo(Path file) {
        log = file == null ? "/dev/null" : file.toAbsolutePath().toString();
        if (process != null) tell("log " + log);
    }

    /**
     * The iptables chain is about to be created ({@code true}; the watchdog removes it if the harness dies) or has
     * been removed ({@code false}).
     */
    public static synchronized void iptables(boolean installed) {
        rules = installed;
        if (installed) arm();
        if (process != null) tell("iptables " + (installed ? "on" : "off"));
    }

    private static void tell(String line) {
        try {
            pipe.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            pipe.flush();
        } catch (IOException e) {
            // Killed by someone: the next run's Leftovers clean up instead.
            System.err.println("isostress: the watchdog is gone (" + e.getMessage() + ")");
            process = null;
        }
    }
}
