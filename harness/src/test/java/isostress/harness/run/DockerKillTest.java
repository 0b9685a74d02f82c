package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.harness.provision.Leftovers;
import isostress.harness.run.HarnessKillTest.Harness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link HarnessKillTest} for {@code provision: docker}: the harness, a separate JVM, ended from outside while its
 * containers start or during the workload. After SIGKILL, within {@link HarnessKillTest#CLEAN_WITHIN_MS} no container
 * and no Docker network labelled with the harness's pid ({@code isostress.owner}) remains, its watchdog has exited
 * and the run's log says what it removed, and {@code check} and {@code report} work on the run directory. After
 * Ctrl-C the exit status is 130, results.json says {@code "interrupted": true}, and no container remains either.
 *
 * <p>Images are the ones {@code .ci/docker-images} builds (nothing is pulled); {@code ISOSTRESS_DOCKER_POSTGRES_IMAGE}
 * and {@code ISOSTRESS_DOCKER_MARIADB_IMAGE} name others. Moments come from a seed, printed first;
 * {@code -Disostress.kill.seed=N} replays a run. More rounds: {@code mvn -B -q -pl harness -am test
 * -Dtest=DockerKillTest -Dsurefire.failIfNoSpecifiedTests=false -Disostress.docker.kill.rounds=20}.
 */
class DockerKillTest {
    private static final String POSTGRES = image("ISOSTRESS_DOCKER_POSTGRES_IMAGE", "isostress/postgres:15");
    private static final String MARIADB = image("ISOSTRESS_DOCKER_MARIADB_IMAGE", "isostress/mariadb:10.11");
    /** PostgreSQL rounds; the Galera campaign, eight times slower to start, gets a third of them. */
    private static final int ROUNDS = Integer.getInteger("isostress.docker.kill.rounds", 3);
    private static final int WORKLOAD_MS = 3000;
    /** What the watchdog writes into the run's log (watchdog.sh). */
    private static final Pattern WATCHDOG = Pattern.compile("watchdog: .* removed (\\d+) container\\(s\\), "
            + "(\\d+) network\\(s\\).*");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path store;

    /**
     * What the delay before the signal is counted from. Here the run directory appears about 1 s after the JVM
     * starts, the PostgreSQL container 2 s later, the first history line 2 s after that.
     */
    enum Anchor { RUN_DIRECTORY, FIRST_CONTAINER, FIRST_HISTORY_LINE }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void sigkillOfDockerPostgresWhileStartingOrRunningLeavesNoContainer() throws Exception {
        DockerCli.requireImage(POSTGRES);
        Random rnd = HarnessKillTest.seeded("DockerKillTest sigkill-docker-postgres");
        List<Long> cleanMs = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            // The first round lands while the container starts, the others anywhere from Testcontainers' first
            // request to the workload's last second.
            Anchor a = round == 0 ? Anchor.FIRST_CONTAINER : Anchor.values()[rnd.nextInt(Anchor.values().length)];
            String name = "docker-pg-kill-" + round;
            Path yaml = campaign(name, "{type: postgresql, provision: docker, image: \"" + POSTGRES
                    + "\", isolation: serializable, timeout: 2s}", WORKLOAD_MS + "ms");
            cleanMs.add(killAndCheck(yaml, name, a, rnd.nextInt(a == Anchor.RUN_DIRECTORY ? 4000 : 2500), "KILL"));
        }
        System.out.println("SIGKILL x" + ROUNDS + " (docker PostgreSQL): clean-up ms " + cleanMs);
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void sigkillOfDockerGaleraWhileItsNodesStartLeavesNoContainerOrNetwork() throws Exception {
        DockerCli.requireImage(MARIADB);
        Random rnd = HarnessKillTest.seeded("DockerKillTest sigkill-docker-galera");
        List<Long> cleanMs = new ArrayList<>();
        for (int round = 0; round < Math.max(1, ROUNDS / 3); round++) {
            // Its network, then three nodes one after the other, each synced before the next starts: here the
            // second container comes 3 s after the first, the third 14 s later, the first history line 17 s later.
            String name = "docker-galera-kill-" + round;
            Path yaml = campaign(name, "{type: mariadb, provision: docker, image: \"" + MARIADB
                    + "\", nodes: 3, isolation: serializable, timeout: 2s}", WORKLOAD_MS + "ms");
            cleanMs.add(killAndCheck(yaml, name, Anchor.FIRST_CONTAINER, rnd.nextInt(34_000), "KILL"));
        }
        System.out.println("SIGKILL (docker Galera of 3): clean-up ms " + cleanMs);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void ctrlCOfDockerPostgresExits130WithResultsSayingInterrupted() throws Exception {
        DockerCli.requireImage(POSTGRES);
        Random rnd = HarnessKillTest.seeded("DockerKillTest sigint-docker-postgres");
        Anchor a = rnd.nextBoolean() ? Anchor.FIRST_CONTAINER : Anchor.FIRST_HISTORY_LINE;
        Path yaml = campaign("docker-pg-int", "{type: postgresql, provision: docker, image: \"" + POSTGRES
                + "\", isolation: serializable, timeout: 2s}", "120s");
        long ms = killAndCheck(yaml, "docker-pg-int", a, rnd.nextInt(2500), "INT");
        System.out.println("SIGINT (docker PostgreSQL): clean-up ms " + ms);
    }

    /**
     * The watchdog killed too (as by {@code kill -9 -1} in a container): the container stays, and the next run's
     * {@link Leftovers#cleanUp} removes it, and the dead harness's network (made here as {@code GaleraCluster}
     * makes its own, to save the Galera cluster's 40 s start).
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void withoutItsWatchdogTheNextRunRemovesTheContainersAndNetwork() throws Exception {
        DockerCli.requireImage(POSTGRES);
        Path yaml = campaign("docker-no-watchdog", "{type: postgresql, provision: docker, image: \"" + POSTGRES
                + "\", isolation: serializable, timeout: 2s}", "60s");
        Harness h = Harness.start(store, yaml);
        HarnessKillTest.waitFor(() -> !h.process().isAlive()
                || DockerCli.ownedBy(h.pid()).stream().anyMatch(s -> s.startsWith("container ")), 120);
        List<ProcessHandle> watchdogs = h.watchdogs();
        assertEquals(1, watchdogs.size(), "one watchdog per harness: " + h.output());
        for (ProcessHandle w : watchdogs) {
            w.destroyForcibly();
            w.onExit().get(10, TimeUnit.SECONDS);
        }
        h.process().destroyForcibly();
        assertTrue(h.process().waitFor(30, TimeUnit.SECONDS));
        DockerCli.run("docker", "network", "create", "--label", "isostress.owner=" + h.pid(),
                "isostress-kill-test-" + h.pid());
        // (Another harness on the machine may run its Leftovers at any time, so what is left is looked at at once.)
        List<String> left = DockerCli.ownedBy(h.pid());
        assertEquals(2, left.size(), "without the watchdog the container should still be there: " + left);
        List<String> done = Leftovers.cleanUp(isostress.harness.faults.Iptables::removeStale);
        assertEquals(List.of(), DockerCli.ownedBy(h.pid()), "after the next run's clean-up: " + done);
        System.out.println("Leftovers after a harness and its watchdog were killed: " + done);
    }

    /**
     * Starts a harness on {@code yaml}, sends {@code signal} {@code delayMs} after {@code anchor}, and checks what
     * is left; returns the milliseconds from the signal (SIGKILL) or from the exit (Ctrl-C, which first stops the
     * database itself) until nothing remained.
     */
    private long killAndCheck(Path yaml, String name, Anchor anchor, int delayMs, String signal) throws Exception {
        Harness h = Harness.start(store, yaml);
        Path runs = store.resolve(name);
        HarnessKillTest.waitFor(() -> !h.process().isAlive() || switch (anchor) {
            case RUN_DIRECTORY -> HarnessKillTest.newestRun(runs) != null;
            case FIRST_CONTAINER -> DockerCli.ownedBy(h.pid()).stream().anyMatch(s -> s.startsWith("container "));
            case FIRST_HISTORY_LINE -> HarnessKillTest.lines(HarnessKillTest.newestHistory(runs)) > 0;
        }, 240);
        Thread.sleep(delayMs);
        List<String> atSignal = DockerCli.ownedBy(h.pid());
        String moment = anchor.name().toLowerCase().replace('_', ' ') + " + " + delayMs + " ms ("
                + atSignal.size() + " container(s)/network(s), "
                + HarnessKillTest.lines(HarnessKillTest.newestHistory(runs)) + " history lines)";
        assertTrue(h.process().isAlive(), "the harness ended before the signal (" + moment + "): " + h.output());
        Set<ProcessHandle> tree = h.tree();
        long t0 = System.nanoTime();
        h.signal(signal);
        assertTrue(h.process().waitFor(RunInterrupt.GRACE_SECONDS + 30, TimeUnit.SECONDS), "did not exit: " + moment);
        long exitMs = (System.nanoTime() - t0) / 1_000_000;
        long ms = awaitNothingLeft(h.pid(), tree, signal.equals("KILL") ? t0 : System.nanoTime(), moment);
        String log = HarnessKillTest.log(runs);
        Matcher w = WATCHDOG.matcher(log);
        System.out.printf("%s %s at %s: exit %d after %d ms, nothing left %d ms after the %s; %s%n", name, signal,
                moment, h.process().exitValue(), exitMs, ms, signal.equals("KILL") ? "signal" : "exit",
                w.find() ? w.group() : "no watchdog line");
        Path run = HarnessKillTest.newestRun(runs);
        if (signal.equals("INT")) {
            assertEquals(RunOutcome.INTERRUPTED, h.process().exitValue(), moment + ": " + h.output());
            String err = Files.readString(h.err());
            assertFalse(err.contains("Exception") || err.contains("\tat "), moment + ": stderr " + err);
            JsonNode results = JSON.readTree(run.resolve("results.json").toFile());
            assertTrue(results.path("interrupted").asBoolean(), moment + ": " + results);
            assertEquals(RunOutcome.INTERRUPTED, results.path("exit_status").asInt(), moment + ": " + results);
            // The run stopped its containers itself: its watchdog found nothing to do.
            assertFalse(w.reset().find(), moment + ": " + log);
        } else {
            assertEquals(137, h.process().exitValue());
            // Removed by this harness's watchdog, not by another run's Leftovers (which would also have done).
            int containers = (int) atSignal.stream().filter(s -> s.startsWith("container ")).count();
            int networks = atSignal.size() - containers;
            if (containers + networks > 0) {
                assertTrue(w.reset().find() && Integer.parseInt(w.group(1)) >= containers
                        && Integer.parseInt(w.group(2)) >= networks, moment + ": " + log);
            }
            if (run != null) HarnessKillTest.checkAndReport(run, moment);
        }
        return ms;
    }

    /** Waits until the harness's processes (its watchdog among them) and its containers and networks are gone. */
    private static long awaitNothingLeft(long pid, Set<ProcessHandle> tree, long t0, String moment)
            throws InterruptedException {
        List<String> left = List.of();
        while (System.nanoTime() - t0 < TimeUnit.MILLISECONDS.toNanos(HarnessKillTest.CLEAN_WITHIN_MS)) {
            left = new ArrayList<>(DockerCli.ownedBy(pid));
            for (ProcessHandle p : tree) {
                if (HarnessKillTest.running(p)) left.add(p.pid() + " " + p.info().commandLine().orElse("?"));
            }
            if (left.isEmpty()) return (System.nanoTime() - t0) / 1_000_000;
            Thread.sleep(50);
        }
        fail("after " + HarnessKillTest.CLEAN_WITHIN_MS + " ms (" + moment + ") still there: " + left);
        return -1;
    }

    private static String image(String env, String dflt) {
        String v = System.getenv(env);
        return v == null || v.isBlank() ? dflt : v;
    }

    private Path campaign(String name, String database, String duration) throws IOException {
        Path yaml = store.resolve(name + ".yaml");
        Files.writeString(yaml, "name: " + name + "\n"
                + "database: " + database + "\n"
                + "workload: {type: mini, sessions: 4, transactions: 1000000, keys: 50, seed: 9, duration: "
                + duration + "}\n" + "store: " + store + "\n");
        return yaml;
    }
}
