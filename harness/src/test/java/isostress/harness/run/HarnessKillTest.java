package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.harness.Services;
import isostress.harness.cli.Main;
import isostress.harness.faults.Iptables;
import isostress.harness.provision.Leftovers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The harness, a separate JVM, ended from outside at random moments (provisioning, workload, the run's end). After
 * SIGKILL, within {@link #CLEAN_WITHIN_MS} no process of that harness (servers found by the data directory in their
 * command line, with their children, and the harness's watchdog), no data directory and no iptables chain remain,
 * and {@code check} and {@code report} work on the run directory. After Ctrl-C (SIGINT) the exit status is 130,
 * results.json says {@code "interrupted": true}, stderr holds no exception, and nothing remains either.
 *
 * <p>Moments come from a seed, printed first; {@code -Disostress.kill.seed=N} replays a run of the test. The default
 * rounds keep the test to about two minutes; the bench repeats them:
 * {@code mvn -B -q -pl harness -am test -Dtest=HarnessKillTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Disostress.kill.rounds=40}. {@link DockerKillTest} does the same for {@code provision: docker}.
 */
class HarnessKillTest {
    /** The promise: nothing of a killed harness outlives it by more than this. */
    static final long CLEAN_WITHIN_MS = 10_000;
    private static final int ROUNDS = Integer.getInteger("isostress.kill.rounds", 6);
    /** The SIGKILL campaigns' workload duration: long enough to land in, short enough to reach the end. */
    private static final int WORKLOAD_MS = 3000;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path store;

    /** Where in the run the signal goes. */
    enum Moment { PROVISIONING, WORKLOAD, END }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void sigkillOfEmbeddedPostgresAtRandomMomentsLeavesNothing() throws Exception {
        Random rnd = seeded("HarnessKillTest sigkill-postgres");
        boolean partitions = Iptables.available();
        if (!partitions) System.out.println("iptables unusable here (not root?): rounds run without a partition");
        List<Long> cleanMs = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            Moment m = Moment.values()[rnd.nextInt(Moment.values().length)];
            String name = "pg-kill-" + round;
            Path yaml = campaign(name, "{type: postgresql, isolation: serializable, timeout: 2s}", WORKLOAD_MS + "ms",
                    partitions ? "nemesis: {faults: [partition], interval: 300ms, duration: 1s}\n" : "");
            cleanMs.add(killAndCheck(yaml, name, m, rnd, "KILL"));
        }
        System.out.println("SIGKILL x" + ROUNDS + " (embedded PostgreSQL): clean-up ms " + cleanMs);
    }

    /** A primary and two hot standbys (their data directories are the harness's too). */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void sigkillOfEmbeddedPostgresWithReplicasLeavesNothing() throws Exception {
        Random rnd = seeded("HarnessKillTest sigkill-replicas");
        List<Long> cleanMs = new ArrayList<>();
        for (int round = 0; round < Math.max(2, ROUNDS / 3); round++) {
            Moment m = round < 2 ? Moment.values()[round] : Moment.values()[rnd.nextInt(Moment.values().length)];
            String name = "pg-replicas-kill-" + round;
            Path yaml = campaign(name, "{type: postgresql, isolation: repeatable-read, timeout: 2s, replicas: 2}",
                    WORKLOAD_MS + "ms", "");
            cleanMs.add(killAndCheck(yaml, name, m, rnd, "KILL"));
        }
        System.out.println("SIGKILL (embedded PostgreSQL, 2 replicas): clean-up ms " + cleanMs);
    }

    /** provision: local: a cluster of the installed PostgreSQL binaries, its data directory the harness's too. */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void sigkillOfLocalPostgresLeavesNothing() throws Exception {
        String bin = "/usr/lib/postgresql/15/bin";
        Services.require(Files.isExecutable(Path.of(bin, "postgres")), "PostgreSQL 15's server binaries (" + bin + ")",
                "install postgresql-15 (apt-get install -y postgresql-15)");
        Random rnd = seeded("HarnessKillTest sigkill-local-postgres");
        List<Long> cleanMs = new ArrayList<>();
        for (int round = 0; round < Math.max(2, ROUNDS / 3); round++) {
            Moment m = round < 2 ? Moment.values()[round] : Moment.values()[rnd.nextInt(Moment.values().length)];
            String name = "local-pg-kill-" + round;
            Path yaml = campaign(name, "{type: postgresql, provision: local, bin-dir: " + bin + ", isolation: "
                    + "repeatable-read, timeout: 2s, replicas: 1}", WORKLOAD_MS + "ms", "");
            cleanMs.add(killAndCheck(yaml, name, m, rnd, "KILL"));
        }
        System.out.println("SIGKILL (local PostgreSQL, 1 replica): clean-up ms " + cleanMs);
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void sigkillOfLocalMariaDbLeavesNothing() throws Exception {
        Services.requireLocalMariaDb();
        Random rnd = seeded("HarnessKillTest sigkill-mariadb");
        List<Long> cleanMs = new ArrayList<>();
        for (int round = 0; round < Math.max(1, ROUNDS / 4); round++) {
            Moment m = round == 0 ? Moment.WORKLOAD : Moment.values()[rnd.nextInt(Moment.values().length)];
            String name = "maria-kill-" + round;
            Path yaml = campaign(name, "{type: mariadb, provision: local, isolation: serializable, timeout: 2s}",
                    WORKLOAD_MS + "ms", "");
            cleanMs.add(killAndCheck(yaml, name, m, rnd, "KILL"));
        }
        System.out.println("SIGKILL (local MariaDB): clean-up ms " + cleanMs);
    }

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void ctrlCAtRandomMomentsExits130WithResultsSayingInterrupted() throws Exception {
        Random rnd = seeded("HarnessKillTest sigint-postgres");
        boolean partitions = Iptables.available();
        List<Long> cleanMs = new ArrayList<>();
        for (int round = 0; round < Math.max(2, ROUNDS / 3); round++) {
            // Not at the end: a run that ended by itself before the signal rightly says nothing of an interrupt.
            Moment m = round == 0 ? Moment.WORKLOAD : rnd.nextBoolean() ? Moment.PROVISIONING : Moment.WORKLOAD;
            String name = "pg-int-" + round;
            Path yaml = campaign(name, "{type: postgresql, isolation: serializable, timeout: 2s}", "120s",
                    partitions ? "nemesis: {faults: [partition], interval: 300ms, duration: 1s}\n" : "");
            cleanMs.add(killAndCheck(yaml, name, m, rnd, "INT"));
        }
        System.out.println("SIGINT (embedded PostgreSQL): clean-up ms " + cleanMs);
    }

    /**
     * The watchdog killed too (as by {@code kill -9 -1} in a container): the servers stay, and the next run's
     * {@link Leftovers#cleanUp} stops them and removes their directory.
     */
    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void withoutItsWatchdogTheNextRunCleansUp() throws Exception {
        Path yaml = campaign("no-watchdog", "{type: postgresql, isolation: serializable, timeout: 2s}", "60s", "");
        Harness h = Harness.start(store, yaml);
        Path history = store.resolve("no-watchdog");
        waitFor(() -> lines(newestHistory(history)) > 20 || !h.process.isAlive(), 120);
        List<ProcessHandle> watchdogs = h.watchdogs();
        List<ProcessHandle> servers = serversOf(h.pid());
        assertFalse(servers.isEmpty(), h.output());
        assertEquals(1, watchdogs.size(), "one watchdog per harness");
        for (ProcessHandle w : watchdogs) {
            w.destroyForcibly();
            w.onExit().get(10, TimeUnit.SECONDS);
        }
        h.process.destroyForcibly();
        h.process.waitFor(30, TimeUnit.SECONDS);
        // (Another harness on the machine may run its Leftovers at any time, so the servers are looked at at once.)
        assertFalse(serversOf(h.pid()).isEmpty(), "without the watchdog the server should still be running");
        Leftovers.cleanUp(isostress.harness.faults.Iptables::removeStale);
        for (ProcessHandle p : servers) assertFalse(p.isAlive(), "server " + p.pid() + " still running");
        assertEquals(List.of(), dataDirsOf(h.pid()));
    }

    /**
     * Starts a harness on {@code yaml}, sends {@code signal} at {@code m}, and checks what is left; returns the
     * milliseconds from the signal until nothing of the harness remained.
     */
    private long killAndCheck(Path yaml, String name, Moment m, Random rnd, String signal) throws Exception {
        Harness h = Harness.start(store, yaml);
        Path runs = store.resolve(name);
        long delay = rnd.nextInt(m == Moment.END ? 800 : WORKLOAD_MS - 500);
        String moment;
        if (m == Moment.PROVISIONING) {
            // From the run directory's creation: the database starts in 2 to 8 s here.
            waitFor(() -> newestRun(runs) != null || !h.process.isAlive(), 120);
            Thread.sleep(delay / 2);
            moment = "provisioning + " + delay / 2 + " ms";
        } else if (m == Moment.WORKLOAD) {
            waitFor(() -> lines(newestHistory(runs)) > 0 || !h.process.isAlive(), 120);
            Thread.sleep(delay);
            moment = "workload + " + delay + " ms (" + lines(newestHistory(runs)) + " history lines)";
        } else {
            // The workload ends after WORKLOAD_MS; then the database stops, the history is checked, files written.
            waitFor(() -> lines(newestHistory(runs)) > 0 || !h.process.isAlive(), 120);
            Thread.sleep(WORKLOAD_MS + delay);
            moment = "end: workload + " + (WORKLOAD_MS + delay) + " ms";
        }
        if (!h.process.isAlive() && m == Moment.END) {
            // The end went faster than the delay: nothing to signal, but the run's own end must leave nothing too.
            System.out.printf("%s ended by itself before the %s at %s%n", name, signal, moment);
            awaitNothingLeft(h.pid(), Set.of(), System.nanoTime(), moment);
            checkAndReport(newestRun(runs), moment);
            return 0;
        }
        assertTrue(h.process.isAlive(), "the harness ended before the signal (" + moment + "): " + h.output());
        Set<ProcessHandle> tree = h.tree();
        long t0 = System.nanoTime();
        h.signal(signal);
        assertTrue(h.process.waitFor(RunInterrupt.GRACE_SECONDS + 30, TimeUnit.SECONDS), "did not exit: " + moment);
        long exitMs = (System.nanoTime() - t0) / 1_000_000;
        // SIGKILL: the clock runs from the signal. Ctrl-C: the run winds down first (a database being started is
        // started, then stopped), so from the exit.
        long ms = awaitNothingLeft(h.pid(), tree, signal.equals("KILL") ? t0 : System.nanoTime(), moment);
        System.out.printf("%s %s at %s: exit %d after %d ms, nothing left %d ms after the %s%n", name, signal, moment,
                h.process.exitValue(), exitMs, ms, signal.equals("KILL") ? "signal" : "exit");
        Path run = newestRun(runs);
        if (signal.equals("INT")) {
            assertEquals(RunOutcome.INTERRUPTED, h.process.exitValue(), moment + ": " + h.output());
            String err = Files.readString(h.err);
            assertFalse(err.contains("Exception") || err.contains("\tat "), moment + ": stderr " + err);
            if (run != null) {
                JsonNode results = JSON.readTree(run.resolve("results.json").toFile());
                assertTrue(results.path("interrupted").asBoolean(), moment + ": " + results);
                assertFalse(results.has("error"), moment + ": " + results);
                assertEquals(RunOutcome.INTERRUPTED, results.path("exit_status").asInt(), moment + ": " + results);
            }
        } else {
            assertEquals(137, h.process.exitValue());
            if (run != null) checkAndReport(run, moment);
        }
        return ms;
    }

    /**
     * {@code check} reads the history whole; {@code report} writes report.html, saying when the run did not finish.
     * Killed before the first transaction completed, the history holds none, and both say so in a sentence.
     */
    static void checkAndReport(Path run, String moment) throws IOException {
        boolean finished = Files.exists(run.resolve("results.json"));
        if (Files.exists(run.resolve("history.jsonl"))) {
            StringWriter checkErr = new StringWriter();
            int check = cli(new StringWriter(), checkErr, "check", run.resolve("history.jsonl").toString());
            if (check == Main.BAD_INPUT && !finished && checkErr.toString().contains(": no transactions: ")) {
                StringWriter reportErr = new StringWriter();
                assertEquals(Main.BAD_INPUT, cli(new StringWriter(), reportErr, "report", run.toString()), moment);
                assertTrue(reportErr.toString().contains(": no transactions: "), moment + ": " + reportErr);
                return;
            }
            assertTrue(check == Main.VALID || check == Main.INVALID || check == Main.UNKNOWN,
                    moment + ": check exited " + check);
            StringWriter out = new StringWriter();
            assertEquals(0, cli(out, "report", run.toString()), moment);
            String html = Files.readString(run.resolve("report.html"));
            if (!finished) {
                assertTrue(out.toString().contains("has no results.json"), out.toString());
                assertTrue(html.contains("did not finish"), moment);
            }
        } else {
            // Killed before the workload: nothing was recorded, and report says so in a sentence.
            assertFalse(finished);
            assertEquals(Main.BAD_INPUT, cli("report", run.toString()), moment);
        }
    }

    /** Waits until the tree's processes, the harness's servers, data directories and iptables chain are gone. */
    private static long awaitNothingLeft(long pid, Set<ProcessHandle> tree, long t0, String moment)
            throws IOException, InterruptedException {
        String left = "";
        while (System.nanoTime() - t0 < TimeUnit.MILLISECONDS.toNanos(CLEAN_WITHIN_MS)) {
            left = leftOf(pid, tree);
            if (left.isEmpty()) return (System.nanoTime() - t0) / 1_000_000;
            Thread.sleep(50);
        }
        fail("after " + CLEAN_WITHIN_MS + " ms (" + moment + ") still there: " + left);
        return -1;
    }

    private static String leftOf(long pid, Set<ProcessHandle> tree) throws IOException {
        List<String> left = new ArrayList<>();
        for (ProcessHandle p : tree) if (running(p)) left.add(p.pid() + " " + p.info().commandLine().orElse("?"));
        for (ProcessHandle p : serversOf(pid)) left.add(p.pid() + " " + p.info().commandLine().orElse("?"));
        for (Path d : dataDirsOf(pid)) left.add(d.toString());
        String chain = "-N " + Iptables.chainOf(pid);
        if (Iptables.program() != null && Iptables.list().lines().anyMatch(chain::equals)) left.add(chain);
        return String.join("; ", left);
    }

    /**
     * Alive and not a zombie. A process whose parent died (the harness's watchdog, a server) is reaped by pid 1,
     * which in some containers and VMs does so only every second or two; until then {@link ProcessHandle#isAlive()}
     * is true, though the process has exited and holds nothing.
     */
    static boolean running(ProcessHandle p) {
        if (!p.isAlive()) return false;
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
            // pid (comm) state ...: comm may hold spaces and parentheses, the state follows the last ')'.
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException | IndexOutOfBoundsException e) {
            return p.isAlive(); // no /proc, or gone meanwhile
        }
    }

    /** Processes whose command line names a data directory of the harness with this pid. */
    private static List<ProcessHandle> serversOf(long pid) {
        String pg = File.separator + "isostress-pg-" + pid + "-", maria = File.separator + "isostress-mariadb-" + pid + "-";
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                .map(c -> c.contains(pg) || c.contains(maria)).orElse(false)).toList();
    }

    private static List<Path> dataDirsOf(long pid) throws IOException {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().matches("isostress-(pg|mariadb)-" + pid + "-.*")).toList();
        }
    }

    private Path campaign(String name, String database, String duration, String nemesis) throws IOException {
        Path yaml = store.resolve(name + ".yaml");
        Files.writeString(yaml, "name: " + name + "\n"
                + "database: " + database + "\n"
                + "workload: {type: mini, sessions: 4, transactions: 1000000, keys: 50, seed: 9, duration: "
                + duration + "}\n" + nemesis + "store: " + store + "\n");
        return yaml;
    }

    static Random seeded(String what) {
        long seed = Long.getLong("isostress.kill.seed", System.nanoTime());
        System.out.println(what + ": seed " + seed + " (replay: -Disostress.kill.seed=" + seed
                + ")");
        return new Random(seed);
    }

    static void waitFor(BooleanSupplier done, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!done.getAsBoolean() && System.nanoTime() < deadline) Thread.sleep(20);
    }

    static Path newestRun(Path runs) {
        if (!Files.isDirectory(runs)) return null;
        try (Stream<Path> s = Files.list(runs)) {
            return s.filter(Files::isDirectory).max(Path::compareTo).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    static Path newestHistory(Path runs) {
        Path run = newestRun(runs);
        return run == null ? null : run.resolve("history.jsonl");
    }

    static long lines(Path file) {
        if (file == null || !Files.exists(file)) return 0;
        try (Stream<String> s = Files.lines(file)) {
            return s.count();
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0;
        }
    }

    static String log(Path runs) {
        Path run = newestRun(runs);
        try {
            return run == null ? "" : Files.readString(run.resolve("logs").resolve("harness.log"));
        } catch (IOException e) {
            return "";
        }
    }

    private static int cli(String... args) {
        return cli(new StringWriter(), args);
    }

    private static int cli(StringWriter out, String... args) {
        return cli(out, new StringWriter(), args);
    }

    private static int cli(StringWriter out, StringWriter err, String... args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        if (code == Main.BAD_INPUT || code > 3) System.out.println(String.join(" ", args) + ": " + err);
        return code;
    }

    /** A harness JVM. */
    record Harness(Process process, Path out, Path err) {
        static Harness start(Path store, Path yaml) throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String name = yaml.getFileName().toString();
            Path out = store.resolve(name + ".out"), err = store.resolve(name + ".err");
            List<String> cmd = new ArrayList<>();
            // A JVM started with SIGINT ignored (as a shell starts background jobs, and the ignoring is inherited)
            // never runs its Ctrl-C hooks: give it the default disposition, as a terminal's foreground job has.
            if (Files.isExecutable(Path.of("/usr/bin/env"))) cmd.addAll(List.of("/usr/bin/env", "--default-signal=INT"));
            cmd.addAll(List.of(java, "-cp", System.getProperty("java.class.path"), "isostress.harness.cli.Main",
                    "run", yaml.toString(), "--no-progress"));
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            return new Harness(p, out, err);
        }

        long pid() {
            return process.pid();
        }

        /** The harness, what it started, and what those started (PostgreSQL's backends). */
        Set<ProcessHandle> tree() {
            Set<ProcessHandle> all = process.descendants().collect(Collectors.toSet());
            for (ProcessHandle s : serversOf(pid())) {
                all.add(s);
                s.descendants().forEach(all::add);
            }
            return all;
        }

        List<ProcessHandle> watchdogs() {
            // By the script's first line: Java reads no more than the first 4 kB of a command line, and the name
            // the watchdog gives itself (isostress-watchdog, for ps) follows the whole script.
            return process.children().filter(c -> c.info().commandLine()
                    .map(l -> l.contains("# The isostress watchdog")).orElse(false)).toList();
        }

        void signal(String name) throws IOException, InterruptedException {
            Process k = new ProcessBuilder("kill", "-" + name, Long.toString(pid())).inheritIO().start();
            assertEquals(0, k.waitFor(), "kill -" + name + " " + pid());
        }

        String output() {
            try {
                return Files.readString(out) + Files.readString(err);
            } catch (IOException e) {
                return e.toString();
            }
        }
    }
}
