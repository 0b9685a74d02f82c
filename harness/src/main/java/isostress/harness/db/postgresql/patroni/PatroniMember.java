package isostress.harness.db.postgresql.patroni;

import isostress.harness.db.DbNode;
import isostress.harness.provision.ProcessSignals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One Patroni member: the Patroni daemon the harness started and the postmaster it runs (Patroni daemonises
 * PostgreSQL, so the postmaster is not Patroni's child: it is found through {@code postmaster.pid}). Each member
 * listens on an address of its own (127.0.0.1, .2, .3, ...), so that a fault can single one out. Its clients' URL is
 * the cluster's ({@link #url()}): sessions follow the primary wherever it is, as applications behind Patroni do.
 */
final class PatroniMember implements DbNode {
    /**
     * Where a member listens: PostgreSQL for replication ({@code host}) and for clients ({@link #clientHost()}),
     * Patroni's REST API, and the address it reaches etcd on ({@link #etcdHost()}).
     *
     * <p>Every connection on loopback leaves from 127.0.0.1, whoever makes it, so iptables can tell one member's
     * traffic from another's only by where it goes. Hence addresses of their own: clients reach member K's
     * PostgreSQL on 127.0.0.(50+K) and the other members on 127.0.0.K, and member K reaches etcd on 127.0.0.(100+K)
     * (etcd listens on one such address per member), so a partition can cut member K off from etcd and its peers and
     * leave its clients alone.
     */
    record Address(String name, String host, int pgPort, int restPort) {
        String clientHost() {
            return shifted(50);
        }

        String etcdHost() {
            return shifted(100);
        }

        private String shifted(int by) {
            int dot = host.lastIndexOf('.');
            return host.substring(0, dot + 1) + (Integer.parseInt(host.substring(dot + 1)) + by);
        }
    }

    private final Address address;
    private final Path dir, log;
    private final List<String> command;
    private volatile String clusterUrl;
    private Process process;

    PatroniMember(Address address, Path dir, Path config, Path log, PatroniTools tools) {
        this.address = address;
        this.dir = dir;
        this.log = log;
        this.command = PatroniTools.asPostgres(List.of(tools.python().toString(), tools.patroni().toString(),
                config.toString()));
    }

    Address address() {
        return address;
    }

    void clusterUrl(String url) {
        this.clusterUrl = url;
    }

    /** The last line Patroni (or its PostgreSQL) wrote to the member's log, or "" when there is none yet. */
    String lastLogLine() {
        try {
            List<String> lines = Files.readAllLines(log, java.nio.charset.StandardCharsets.ISO_8859_1);
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (!lines.get(i).isBlank()) return lines.get(i).strip();
            }
        } catch (IOException e) {
            // not written yet
        }
        return "";
    }

    /** Starts Patroni without waiting; its output (and the postmaster's, which it passes on) goes to the log. */
    synchronized void launch() throws IOException {
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    /** Patroni's exit status when it has exited, else empty. */
    synchronized Optional<Integer> exited() {
        return process != null && !process.isAlive() ? Optional.of(process.exitValue()) : Optional.empty();
    }

    /** The postmaster's pid, from its data directory, or -1 when none runs. */
    long postmasterPid() {
        Path pidFile = dir.resolve("data").resolve("postmaster.pid");
        try {
            if (!Files.exists(pidFile)) return -1;
            List<String> lines = Files.readAllLines(pidFile);
            if (lines.isEmpty()) return -1;
            long pid = Long.parseLong(lines.get(0).trim());
            String data = dir.resolve("data").toString();
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .filter(h -> h.info().commandLine().map(c -> c.contains(data)).orElse(false))
                    .map(ProcessHandle::pid).orElse(-1L);
        } catch (IOException | NumberFormatException e) {
            return -1; // being written or removed
        }
    }

    @Override
    public String name() {
        return address.name();
    }

    /** The cluster's multi-host URL: whatever member a session is given, it reaches the primary. */
    @Override
    public String url() {
        return clusterUrl;
    }

    /** Where clients reach it; the other members reach it on {@link Address#host()}. */
    @Override
    public String host() {
        return address.clientHost();
    }

    @Override
    public int clientPort() {
        return address.pgPort();
    }

    /** Patroni's REST API: the members' own traffic; replication uses the client port. */
    @Override
    public List<Integer> peerPorts() {
        return List.of(address.restPort());
    }

    /** Patroni's pid (the member's manager), or -1. */
    @Override
    public synchronized long pid() {
        return process != null && process.isAlive() ? process.pid() : -1;
    }

    @Override
    public boolean controllable() {
        return true;
    }

    /** SIGKILL of Patroni and the postmaster with its backends at once: the member's machine crashing. */
    @Override
    public synchronized void kill() throws IOException {
        long postmaster = postmasterPid();
        if (process == null || !process.isAlive()) throw new IOException(name() + "'s Patroni is not running");
        process.destroyForcibly();
        if (postmaster > 0) ProcessSignals.signalTree(postmaster, "KILL");
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts Patroni again and waits until the cluster lists the member as running (at most 120 s). */
    @Override
    public void restart() throws IOException, InterruptedException {
        synchronized (this) {
            if (process != null && process.isAlive()) throw new IOException(name() + "'s Patroni is still running");
            launch();
        }
        awaitRunning(120);
    }

    /** Waits at most {@code seconds} until the cluster, as this member's REST API tells it, lists it as running. */
    void awaitRunning(int seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (exited().isPresent()) {
                throw new IOException(name() + "'s Patroni exited with status " + exited().get() + " (see " + log
                        + ")");
            }
            try {
                for (PatroniRest.Member m : PatroniRest.cluster(address.host(), address.restPort())) {
                    if (m.name().equals(name())) {
                        if (m.running()) return;
                        last = m.role() + " " + m.state();
                    }
                }
            } catch (IOException e) {
                last = e.getMessage();
            }
            Thread.sleep(200);
        }
        throw new IOException(name() + " was not running again within " + seconds + " s (last: " + last + "; see "
                + log + ")");
    }

    /** SIGKILL of the postmaster and its backends only: Patroni notices and starts PostgreSQL again in place. */
    void killPostmaster() throws IOException {
        long postmaster = postmasterPid();
        if (postmaster <= 0) throw new IOException(name() + "'s PostgreSQL is not running");
        ProcessSignals.signalTree(postmaster, "KILL");
    }

    /**
     * SIGKILL of Patroni only: the postmaster it daemonised lives on and, on the primary, keeps accepting writes (no
     * watchdog device fences it) until Patroni is started again and demotes it. {@link #restart()} starts it.
     */
    synchronized void killPatroni() throws IOException {
        if (process == null || !process.isAlive()) throw new IOException(name() + "'s Patroni is not running");
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGSTOP on Patroni and on the postmaster with its backends. */
    @Override
    public synchronized void pause() throws IOException {
        for (long pid : pids()) ProcessSignals.signalTree(pid, "STOP");
    }

    @Override
    public synchronized void resume() throws IOException {
        for (long pid : pids()) ProcessSignals.signalTree(pid, "CONT");
    }

    private List<Long> pids() {
        List<Long> out = new ArrayList<>();
        if (pid() > 0) out.add(pid());
        long pm = postmasterPid();
        if (pm > 0) out.add(pm);
        return out;
    }

    /** Sends SIGTERM without waiting (the cluster stops every member at once). */
    void terminate() {
        Process p;
        synchronized (this) {
            p = process;
        }
        if (p == null || !p.isAlive()) return;
        try {
            resume();
        } catch (IOException e) {
            // not paused, or gone
        }
        p.destroy();
    }

    /** Waits at most {@code seconds} for Patroni to exit; true when it has. */
    boolean awaitExit(int seconds) throws InterruptedException {
        Process p;
        synchronized (this) {
            p = process;
        }
        return p == null || p.waitFor(seconds, TimeUnit.SECONDS);
    }
}
