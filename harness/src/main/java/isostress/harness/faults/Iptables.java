package isostress.harness.faults;

import isostress.harness.provision.Watchdog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Partitions with iptables. Every rule the harness adds lives in a chain of its own, {@code ISOSTRESS-<pid>}
 * ({@link #CHAIN}), reached by one jump from INPUT (loopback traffic passes INPUT on the receiving side), so healing
 * is flushing the chain and cleaning up is removing the jump and the chain: nothing else on the machine is touched,
 * including the chains of other harnesses running at the same time. The harness's watchdog removes the chain if the
 * harness is killed; {@link #removeStale}, run by {@link isostress.harness.provision.Leftovers}, removes those of
 * dead harnesses it finds.
 */
public final class Iptables {
    /** The chains' common prefix; alone, the name older versions used for their one chain. */
    public static final String PREFIX = "ISOSTRESS";
    /** This harness's chain. */
    public static final String CHAIN = chainOf(ProcessHandle.current().pid());
    /** A harness's chain as {@code iptables -S} declares it (group 1: the harness's pid). */
    private static final Pattern DECLARED = Pattern.compile("(?m)(?<=^-N )" + PREFIX + "(?:-(\\d+))?$");

    private Iptables() {
    }

    /** The iptables program, or null when not installed. */
    public static Path program() {
        for (String c : new String[] {"/usr/sbin/iptables", "/sbin/iptables", "/usr/bin/iptables"}) {
            if (Files.isExecutable(Path.of(c))) return Path.of(c);
        }
        return null;
    }

    /** True when iptables is installed and usable (root). */
    public static boolean available() {
        if (program() == null) return false;
        try {
            return run(false, "-L", "INPUT", "-n") == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Removes leftovers, then creates the chain and the jump to it. */
    public static synchronized void install() throws IOException {
        removeAll();
        Watchdog.iptables(true); // before the chain exists: a harness killed from now on leaves it to the watchdog
        run(true, "-N", CHAIN);
        run(true, "-I", "INPUT", "1", "-j", CHAIN);
    }

    /** Drops TCP packets matching {@code match} (iptables match options, e.g. -s, -d, --dport). */
    public static synchronized void drop(List<String> match) throws IOException {
        List<String> args = new ArrayList<>(List.of("-A", CHAIN, "-p", "tcp"));
        args.addAll(match);
        args.addAll(List.of("-j", "DROP"));
        run(true, args.toArray(String[]::new));
    }

    /** Removes every rule of the chain (heals every partition). */
    public static synchronized void heal() throws IOException {
        run(false, "-F", CHAIN);
    }

    /** The chain of the harness with process id {@code pid} (at most 28 characters, as iptables allows). */
    public static String chainOf(long pid) {
        return PREFIX + "-" + pid;
    }

    /** Removes the jump and the chain, whatever state they are in. Never fails when there is nothing to remove. */
    public static synchronized void removeAll() throws IOException {
        remove(CHAIN);
        Watchdog.iptables(false);
    }

    /** Removes {@code chain} and the jumps to it (another harness's, when it is dead). */
    public static synchronized void remove(String chain) throws IOException {
        if (program() == null) return;
        for (int i = 0; i < 100 && run(false, "-D", "INPUT", "-j", chain) == 0; i++) {
            // a jump per earlier install: remove them all
        }
        run(false, "-F", chain);
        run(false, "-X", chain);
    }

    /**
     * Removes the chains of harnesses no longer running (a harness killed with SIGKILL, whose watchdog could not
     * run either); returns what was done, for the run's log. Nothing when iptables is not installed.
     *
     * @param otherHarnessAlive another harness runs now: the plain {@value #PREFIX} chain of older versions is
     *                          anyone's, so it is stale only when no other harness is alive
     */
    public static List<String> removeStale(boolean otherHarnessAlive) {
        List<String> done = new ArrayList<>();
        if (program() == null) return done;
        try {
            Matcher m = DECLARED.matcher(list());
            while (m.find()) {
                // ISOSTRESS-<pid> is that harness's; plain ISOSTRESS (older versions) is anyone's.
                boolean stale = m.group(1) == null ? !otherHarnessAlive
                        : !ProcessHandle.of(Long.parseLong(m.group(1))).map(ProcessHandle::isAlive).orElse(false);
                if (!stale || m.group().equals(CHAIN)) continue;
                remove(m.group());
                done.add("removed iptables chain " + m.group() + " left by a dead harness");
            }
        } catch (IOException e) {
            done.add("could not remove iptables rules: " + e.getMessage());
        }
        return done;
    }

    /** The chain's rules as iptables lists them (tests look for leftovers). */
    public static String list() throws IOException {
        Path p = program();
        if (p == null) return "";
        Process pr = new ProcessBuilder(p.toString(), "-S").redirectErrorStream(true).start();
        return new String(pr.getInputStream().readAllBytes());
    }

    private static int run(boolean mustSucceed, String... args) throws IOException {
        Path p = program();
        if (p == null) throw new IOException("iptables is not installed (apt-get install -y iptables)");
        List<String> cmd = new ArrayList<>();
        cmd.add(p.toString());
        cmd.add("-w"); // wait for the xtables lock rather than fail
        cmd.addAll(List.of(args));
        Process pr = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!pr.waitFor(20, TimeUnit.SECONDS)) {
                pr.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not return within 20 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        }
        String out = new String(pr.getInputStream().readAllBytes()).trim();
        if (mustSucceed && pr.exitValue() != 0) throw new IOException(String.join(" ", cmd) + " failed: " + out);
        return pr.exitValue();
    }
}
