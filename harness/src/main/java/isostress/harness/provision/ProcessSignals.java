package isostress.harness.provision;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Signals for processes the harness started. Java can only SIGTERM/SIGKILL its own children, and the servers'
 * backends (PostgreSQL forks one per connection) are grandchildren, so SIGSTOP and SIGCONT go through kill(1).
 */
public final class ProcessSignals {
    private ProcessSignals() {
    }

    /** Sends {@code signal} (INT: PostgreSQL's fast shutdown) to {@code pid} alone. */
    public static void signal(long pid, String signal) throws IOException {
        send(List.of("kill", "-" + signal, Long.toString(pid)), pid, signal);
    }

    /** Sends {@code signal} (STOP, CONT, KILL) to {@code pid} and all its descendants (descendants first for STOP). */
    public static void signalTree(long pid, String signal) throws IOException {
        if (pid <= 0) throw new IOException("no process to send SIG" + signal + " to");
        List<String> cmd = new ArrayList<>(List.of("kill", "-" + signal));
        ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> cmd.add(Long.toString(d.pid()))));
        cmd.add(Long.toString(pid));
        send(cmd, pid, signal);
    }

    private static void send(List<String> cmd, long pid, String signal) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("kill -" + signal + " " + pid + " did not return within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while sending SIG" + signal, e);
        }
        String out = new String(p.getInputStream().readAllBytes()).trim();
        // Processes of the tree may exit while the signals go out (backends whose postmaster just died): only
        // other complaints are failures.
        String other = out.lines().filter(l -> !l.contains("No such process")).reduce("", (a, b) -> a + b + " ").trim();
        if (p.exitValue() != 0 && !other.isEmpty()) {
            throw new IOException("kill -" + signal + " " + pid + " failed: " + other);
        }
    }
}
