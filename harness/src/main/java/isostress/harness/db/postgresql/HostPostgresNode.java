package isostress.harness.db.postgresql;

import isostress.harness.db.DbNode;
import isostress.harness.provision.Host;
import isostress.harness.provision.ProcessSignals;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server isostress started on this machine (embedded or local, {@link HostPostgresProvisioner}) as a
 * node the nemesis can act on. {@link PostgresBinaries} start the postmaster (through {@code unshare -U} as root); to
 * start it again after a kill, the postmaster's own command line is replayed the same way, on the same data
 * directory and port: PostgreSQL's crash recovery does the rest.
 */
final class HostPostgresNode implements DbNode {
    private final String name;
    private final Path data;
    private final int port;
    private final String url;
    private final Path log;
    private List<String> command;
    /** The replication group this node is part of (a primary with standbys), or null for a single server. */
    private volatile Group group;

    /**
     * A primary and its standbys, as one node's faults see them: which links a partition cuts besides the node's
     * client port, and when a healed node is back in the group ({@link HostStandbys}).
     */
    interface Group {
        List<List<String>> links(HostPostgresNode node);

        void awaitRejoined(HostPostgresNode node, java.time.Duration wait) throws IOException, InterruptedException;
    }

    HostPostgresNode(Path data, int port, String url, Path log) {
        this("n1", data, port, url, log, null);
    }

    /** @param command the postmaster's command line, for a server isostress starts itself (a standby), or null */
    HostPostgresNode(String name, Path data, int port, String url, Path log, List<String> command) {
        this.name = name;
        this.command = command;
        this.data = data;
        this.port = port;
        this.url = url;
        this.log = log;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String url() {
        return url;
    }

    @Override
    public String host() {
        return "localhost";
    }

    @Override
    public int clientPort() {
        return port;
    }

    @Override
    public List<Integer> peerPorts() {
        return List.of();
    }

    @Override
    public long pid() {
        try {
            long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) ? pid : -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    @Override
    public boolean controllable() {
        return true;
    }

    @Override
    public synchronized void kill() throws IOException {
        long pid = pid();
        if (pid < 0) throw new IOException("PostgreSQL " + name + " is not running");
        command = commandLine(pid);
        // The postmaster and its backends at once: orphaned backends would hold the shared memory a restart needs.
        ProcessSignals.signalTree(pid, "KILL");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
            sleep(20);
        }
    }

    @Override
    public void restart() throws IOException, InterruptedException {
        Process started;
        synchronized (this) {
            if (pid() > 0) throw new IOException("PostgreSQL " + name + " is still running");
            if (command == null) throw new IOException("PostgreSQL " + name + " was not killed by isostress: cannot restart");
            List<String> cmd = new ArrayList<>();
            if (Host.isRoot()) cmd.addAll(List.of("unshare", "-U"));
            cmd.addAll(command);
            started = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String last = null;
        while (System.nanoTime() < deadline) {
            // Back means this node's own server answers: whatever else holds the port must not pass for it.
            try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SHOW data_directory")) {
                rs.next();
                String served = rs.getString(1);
                if (sameDirectory(served)) return;
                last = "port " + port + " is answered by the server of " + served + ", not of " + data;
            } catch (SQLException e) {
                last = e.getMessage(); // starting up or recovering
            }
            if (!started.isAlive() && pid() < 0) {
                throw new IOException("PostgreSQL " + name + " exited as it started (exit code " + started.exitValue()
                        + "; " + last + "); see " + log);
            }
            Thread.sleep(100);
        }
        throw new IOException("PostgreSQL " + name + " did not come back within 60 s: " + (last == null ? "" : last)
                + "; see " + log);
    }

    /** True when {@code served}, a server's {@code data_directory}, is this node's. */
    private boolean sameDirectory(String served) {
        try {
            return Files.isSameFile(Path.of(served), data);
        } catch (IOException | RuntimeException e) {
            return false; // not a directory here: another machine's or container's server
        }
    }

    /**
     * Stops the server cleanly (fast shutdown: SIGINT to the postmaster, which ends its backends and writes a
     * shutdown checkpoint) and waits until it is gone, up to {@code wait}; {@link #restart()} starts it again with
     * the same command line. Returns false when it was not running or did not stop in time.
     */
    synchronized boolean stop(java.time.Duration wait) throws IOException {
        long pid = pid();
        if (pid < 0) return false;
        command = commandLine(pid);
        ProcessSignals.signal(pid, "INT");
        long deadline = System.nanoTime() + wait.toNanos();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            if (System.nanoTime() > deadline) return false;
            sleep(20);
        }
        return true;
    }

    /** The postmaster's command line (its executable first) while it runs. */
    List<String> commandLine() throws IOException {
        long pid = pid();
        if (pid < 0) throw new IOException("PostgreSQL " + name + " is not running");
        return commandLine(pid);
    }

    Path data() {
        return data;
    }

    /** Makes this node part of {@code group}. */
    void joined(Group group) {
        this.group = group;
    }

    @Override
    public List<List<String>> groupLinks() {
        Group g = group;
        return g == null ? List.of() : g.links(this);
    }

    @Override
    public void awaitRejoined(java.time.Duration wait) throws IOException, InterruptedException {
        Group g = group;
        if (g != null) g.awaitRejoined(this, wait);
    }

    Path log() {
        return log;
    }

    @Override
    public void pause() throws IOException {
        ProcessSignals.signalTree(pid(), "STOP");
    }

    @Override
    public void resume() throws IOException {
        ProcessSignals.signalTree(pid(), "CONT");
    }

    private static List<String> commandLine(long pid) throws IOException {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        Optional<String> exe = h.flatMap(p -> p.info().command());
        Optional<String[]> args = h.flatMap(p -> p.info().arguments());
        if (exe.isEmpty() || args.isEmpty()) throw new IOException("cannot read the postmaster's command line");
        List<String> out = new ArrayList<>();
        out.add(exe.get());
        out.addAll(List.of(args.get()));
        return out;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
