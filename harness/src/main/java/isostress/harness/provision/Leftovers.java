package isostress.harness.provision;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a harness killed with SIGKILL leaves behind: database servers still running on their data directories,
 * the directories, and iptables rules. Every server's data directory is named after the harness that started it
 * ({@code isostress-<kind>-<pid>-...}: {@code isostress-pg-<pid>-...}, {@code isostress-mariadb-<pid>-...}), so the
 * next run can tell whose it is: when that harness is gone, the servers using the directory are killed and the
 * directory removed. A harness's
 * {@link Watchdog} normally does this seconds after it died; this is for a watchdog that could not run (killed too).
 */
public final class Leftovers {
    /** {@link #prefix}'s names: any database's kind, so a new database needs nothing here. */
    private static final Pattern OWNED = Pattern.compile("isostress-([a-z]+)-(\\d+)-.*");
    /** The label naming the harness (pid) that started a container. */
    public static final String DOCKER_OWNER = "isostress.owner";

    private Leftovers() {
    }

    /** Deletes {@code p} and everything under it (links are removed, not followed); nothing when absent. */
    public static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) return;
        // Another process may remove the same tree at the same time (a dead harness's watchdog, or a second
        // harness cleaning up the same leftovers): what it removed first is gone, which is what we want.
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) Files.deleteIfExists(q);
        } catch (java.nio.file.NoSuchFileException | java.io.UncheckedIOException e) {
            if (e instanceof java.io.UncheckedIOException
                    && !(e.getCause() instanceof java.nio.file.NoSuchFileException)) throw e;
            if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) deleteTree(p); // what is left, walked anew
        }
    }

    /**
     * The prefix for a new data directory of {@code kind} (a lowercase word: pg, mariadb) owned by this process. The
     * servers about to use it are then this process's: its {@link Watchdog} runs from now on, to stop them if the
     * process is killed.
     */
    public static String prefix(String kind) {
        if (!kind.matches("[a-z]+")) throw new IllegalArgumentException("a data directory kind is a lowercase word: " + kind);
        Watchdog.arm();
        return "isostress-" + kind + "-" + ProcessHandle.current().pid() + "-";
    }

    /**
     * Rules a dead harness left in the firewall. The faults package, which installs them, sits above this one, so
     * it hands its cleanup in ({@code Iptables::removeStale}).
     */
    @FunctionalInterface
    public interface StaleRules {
        /**
         * Removes the rules of harnesses no longer running; returns what was done, for the run's log.
         *
         * @param otherHarnessAlive another harness runs now (rules no harness owns by name are then kept)
         */
        List<String> removeStale(boolean otherHarnessAlive);
    }

    /** Cleans up after dead harnesses, their firewall rules last; returns what was done, for the run's log. */
    public static List<String> cleanUp(StaleRules rules) {
        List<String> done = new ArrayList<>();
        boolean otherAlive = false;
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            for (Path dir : s.toList()) {
                Matcher m = OWNED.matcher(dir.getFileName().toString());
                if (!m.matches()) continue;
                long owner = Long.parseLong(m.group(2));
                if (owner == ProcessHandle.current().pid()) continue;
                if (ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false)) {
                    otherAlive = true;
                    continue;
                }
                int killed = killUsers(dir);
                deleteTree(dir);
                done.add("removed " + dir + " of dead harness " + owner + (killed > 0 ? ", killed " + killed
                        + " server process(es) still using it" : ""));
            }
        } catch (IOException e) {
            done.add("could not clean up: " + e.getMessage());
        }
        done.addAll(removeContainersOfDeadHarnesses());
        done.addAll(rules.removeStale(otherAlive));
        return done;
    }

    /**
     * Removes the containers labelled with the pid of a harness that is no longer running, then its networks (a
     * Galera cluster's), which Docker removes only once no container is on them.
     */
    private static List<String> removeContainersOfDeadHarnesses() {
        List<String> done = new ArrayList<>();
        Path docker = Host.find("/usr/bin/docker", "/usr/local/bin/docker");
        if (docker == null) return done;
        String format = "{{.ID}} {{.Label \"" + DOCKER_OWNER + "\"}}";
        try {
            for (String[] kind : new String[][] {{"container", "ps", "-a"}, {"network", "network", "ls"}}) {
                List<String> list = new ArrayList<>(List.of(docker.toString(), kind[1], kind[2]));
                list.addAll(List.of("--filter", "label=" + DOCKER_OWNER, "--format", format));
                for (String line : output(list).split("\n")) {
                    String[] f = line.trim().split(" ");
                    if (f.length != 2 || !f[1].matches("\\d+")) continue;
                    long owner = Long.parseLong(f[1]);
                    if (ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false)) continue;
                    try {
                        output(kind[0].equals("container") ? List.of(docker.toString(), "rm", "-fv", f[0])
                                : List.of(docker.toString(), "network", "rm", f[0]));
                        done.add("removed " + kind[0] + " " + f[0] + " of dead harness " + owner);
                    } catch (IOException e) {
                        // Removed meanwhile by that harness's watchdog or another run's clean-up; else next time.
                        done.add("could not remove " + kind[0] + " " + f[0] + " of dead harness " + owner + ": "
                                + e.getMessage());
                    }
                }
            }
        } catch (IOException e) {
            // no engine running: nothing of ours can be running in it either
        }
        return done;
    }

    private static String output(List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not return within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        String out = new String(p.getInputStream().readAllBytes());
        if (p.exitValue() != 0) throw new IOException(out.trim());
        return out;
    }

    /**
     * Kills (continuing first, in case it was paused) every process whose command line names {@code dir}, and waits
     * up to 10 s for each to exit; returns how many there were.
     */
    public static int killUsers(Path dir) {
        String path = dir.toString();
        List<ProcessHandle> users = ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains(path)).orElse(false)).toList();
        for (ProcessHandle p : users) {
            try {
                ProcessSignals.signalTree(p.pid(), "CONT");
                ProcessSignals.signalTree(p.pid(), "KILL");
            } catch (IOException e) {
                // gone meanwhile
            }
        }
        for (ProcessHandle p : users) {
            try {
                p.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (Exception e) {
                // reported by the directory removal if it still fails
            }
        }
        return users.size();
    }
}
