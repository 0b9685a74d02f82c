package isostress.harness.db.mariadb;

import isostress.harness.db.DbNode;
import isostress.harness.provision.ProcessSignals;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@code mariadbd} the harness started: its data directory, address and command line, so that the nemesis can
 * kill it, pause it and start it again as it was. A Galera node also knows its peers' ports.
 */
final class MariaDbServer implements DbNode {
    private final String name;
    private final String host;
    private final int port;
    private final List<Integer> peerPorts;
    private final Path data, logs;
    private final List<String> command;
    private final MariaDbTools tools;
    private final String readyQuery;
    private Process process;
    private List<MariaDbServer> cluster = List.of();

    /**
     * @param command    the full mariadbd command line (restart reuses it, without bootstrap flags)
     * @param readyQuery a query whose single result is "ready" when the node may serve clients (null: SELECT 1)
     */
    MariaDbServer(String name, String host, int port, List<Integer> peerPorts, Path data, Path logs,
                  List<String> command, MariaDbTools tools, String readyQuery) {
        this.name = name;
        this.host = host;
        this.port = port;
        this.peerPorts = List.copyOf(peerPorts);
        this.data = data;
        this.logs = logs;
        this.command = List.copyOf(command);
        this.tools = tools;
        this.readyQuery = readyQuery;
    }

    /** The cluster this node belongs to (itself included); a restart waits until the others dropped it. */
    void cluster(List<MariaDbServer> all) {
        this.cluster = List.copyOf(all);
    }

    Path socket() {
        return data.resolve("mysqld.sock");
    }

    Path errorLog() {
        return data.resolve("error.log");
    }

    /** Starts mariadbd with {@code extra} arguments (e.g. --wsrep-new-cluster) without waiting. */
    synchronized void launch(List<String> extra) throws IOException {
        List<String> cmd = new ArrayList<>(command);
        cmd.addAll(extra);
        process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve(name + "-mariadbd.out").toFile())).start();
    }

    /** Waits until the server answers on its socket and, for a cluster node, reports itself ready. */
    void awaitReady(long timeoutSeconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        String last = "";
        while (System.nanoTime() < deadline) {
            Process p = process;
            if (p == null || !p.isAlive()) {
                List<String> errors = errorLines();
                throw new IOException(name + ": mariadbd exited with status " + (p == null ? "?" : p.exitValue()) + ": "
                        + (errors.isEmpty() ? LocalMariaDbProvisioner.tail(errorLog()) : errors.get(0)));
            }
            if (Files.exists(socket())) {
                String q = readyQuery == null ? "SELECT 'ready'" : readyQuery;
                last = tools.query(socket(), q, 5);
                if ("ready".equals(last)) return;
            }
            Thread.sleep(100);
        }
        throw new IOException(name + " was not ready within " + timeoutSeconds + " s (last answer '" + last + "'): "
                + LocalMariaDbProvisioner.tail(errorLog()));
    }

    /**
     * The {@code [ERROR]} lines of the error log, from the severity on (the timestamp dropped), e.g.
     * {@code [ERROR] /usr/sbin/mariadbd: unknown variable 'bogus_setting=1'}.
     */
    List<String> errorLines() {
        List<String> out = new ArrayList<>();
        try {
            if (!Files.exists(errorLog())) return out;
            for (String line : Files.readAllLines(errorLog(), java.nio.charset.StandardCharsets.ISO_8859_1)) {
                int at = line.indexOf("[ERROR]");
                if (at >= 0 && !line.contains("[ERROR] Aborting")) out.add(line.substring(at).trim());
            }
        } catch (IOException e) {
            // unreadable: nothing to quote
        }
        return out;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String url() {
        return "jdbc:mariadb://" + host + ":" + port + "/" + LocalMariaDbProvisioner.DATABASE;
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public int clientPort() {
        return port;
    }

    @Override
    public List<Integer> peerPorts() {
        return peerPorts;
    }

    @Override
    public synchronized long pid() {
        return process != null && process.isAlive() ? process.pid() : -1;
    }

    @Override
    public boolean controllable() {
        return true;
    }

    @Override
    public synchronized void kill() throws IOException {
        if (process == null || !process.isAlive()) throw new IOException(name + " is not running");
        process.destroyForcibly(); // SIGKILL
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void restart() throws IOException, InterruptedException {
        awaitEviction();
        synchronized (this) {
            if (process != null && process.isAlive()) throw new IOException(name + " is still running");
            Files.deleteIfExists(socket());
            launch(List.of());
        }
        awaitReady(120);
    }

    /**
     * Waits (at most 30 s) until a running peer's view no longer counts this node. A killed node's old incarnation
     * stays in the group until the peers' inactivity timeout; a restart that joins before that is "forgotten" for
     * a time-wait period and joins seconds later than one that waits.
     */
    private void awaitEviction() throws InterruptedException, IOException {
        if (cluster.size() < 2) return;
        long t0 = System.nanoTime(), deadline = t0 + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            int running = 0;
            String size = "";
            for (MariaDbServer peer : cluster) {
                if (peer == this || peer.pid() < 0) continue;
                running++;
                if (size.isEmpty()) {
                    size = tools.query(peer.socket(), "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS "
                            + "WHERE VARIABLE_NAME = 'WSREP_CLUSTER_SIZE'", 3);
                }
            }
            if (running == 0) return; // nobody to join: start anyway, the restart will say why it cannot
            if (!size.isEmpty() && Integer.parseInt(size) <= running) {
                long ms = (System.nanoTime() - t0) / 1_000_000;
                java.nio.file.Files.writeString(logs.resolve(name + "-mariadbd.out"), "isostress: the cluster dropped "
                        + name + "'s old incarnation " + ms + " ms after the restart was asked for\n",
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                return;
            }
            Thread.sleep(100);
        }
    }

    @Override
    public synchronized void pause() throws IOException {
        ProcessSignals.signalTree(pid(), "STOP");
    }

    @Override
    public synchronized void resume() throws IOException {
        ProcessSignals.signalTree(pid(), "CONT");
    }

    /** Stops it (SIGTERM, SIGKILL after 30 s; a paused server is continued first) and keeps its error log. */
    void stop() {
        Process p;
        synchronized (this) {
            p = process;
        }
        if (p != null && p.isAlive()) {
            try {
                ProcessSignals.signalTree(p.pid(), "CONT");
            } catch (IOException e) {
                // not paused, or gone
            }
            p.destroy();
            try {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        collectLog();
    }

    private void collectLog() {
        try {
            if (Files.exists(errorLog())) {
                Files.copy(errorLog(), logs.resolve(name + "-error.log"), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            System.err.println("isostress: copying " + name + "'s error log: " + e.getMessage());
        }
    }
}
