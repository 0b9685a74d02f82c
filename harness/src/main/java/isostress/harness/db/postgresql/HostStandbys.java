package isostress.harness.db.postgresql;

import isostress.harness.db.Replicas;
import isostress.harness.provision.Host;
import isostress.harness.provision.Leftovers;
import isostress.harness.provision.ProcessSignals;
import isostress.harness.provision.Watchdog;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Hot standbys of a primary isostress started on this machine (embedded or local), fed by physical streaming
 * replication. zonky's binaries have no pg_basebackup (and the installed ones are started the same way), so the base
 * backup is a copy of the primary's data directory taken while the primary is
 * stopped cleanly: a shut-down cluster is consistent on disk (PostgreSQL docs, "File System Level Backup"). Each
 * copy gets what makes it a standby ({@link StandbyConfig}: {@code standby.signal}, or recovery.conf before 12) and a
 * {@code primary_conninfo} naming it ({@code application_name} n2, n3, ...,
 * which {@code synchronous_standby_names} refers to), then runs on its own port with the primary's command line.
 * Their data directories carry the harness's pid like the primary's ({@link Leftovers#prefix}), so the
 * {@link Watchdog} stops them too if the harness is killed.
 *
 * <p>Each standby reaches the primary at an address of its own, n2 at 127.0.0.2, n3 at 127.0.0.3, ... (the primary
 * listens on them, {@link #listenAddresses}): the kernel still sends from 127.0.0.1, but a partition can then drop
 * one standby's replication traffic by its destination address without touching the others' or the clients'
 * ({@link #links}). After a fault the group waits until the node is back in it ({@link #awaitRejoined}).
 */
final class HostStandbys implements AutoCloseable, HostPostgresNode.Group {
    /** The nodes' URLs name their user, and it needs no password. */
    private static final Properties LOGIN = new Properties();
    /** Files of a running server that a copy must not carry (the copy would think it is running). */
    private static final Set<String> SKIPPED = Set.of("postmaster.pid", "postmaster.opts", "epg-lock");
    private final HostPostgresNode primary;
    private final List<HostPostgresNode> standbys;
    private final ReplicaLag lag;

    private HostStandbys(HostPostgresNode primary, List<HostPostgresNode> standbys, ReplicaLag lag) {
        this.primary = primary;
        this.standbys = standbys;
        this.lag = lag;
    }

    /**
     * Stops {@code primary}, copies it {@code replicas.count()} times, makes it wait for the synchronous standbys,
     * starts it and the standbys again, and waits until every standby has replayed the primary's WAL.
     *
     * @param logs where {@code postgresql-n2.log}, ... and {@code replication.log} go
     */
    static HostStandbys start(HostPostgresNode primary, Replicas replicas, Path logs, Duration wait)
            throws IOException, InterruptedException {
        List<String> command = primary.commandLine();
        int major = ReplicaLag.major(primary.url(), LOGIN);
        // Chosen while the primary still holds its port: once it is stopped, the kernel may hand that port out.
        int[] ports = Host.freePorts(replicas.count());
        if (!primary.stop(wait)) throw new IOException("PostgreSQL n1 did not stop for the base backup");
        List<HostPostgresNode> standbys = new ArrayList<>();
        HostStandbys started = new HostStandbys(primary, standbys, null);
        try {
            for (int i = 1; i <= replicas.count(); i++) {
                String name = Replicas.nodeName(i);
                Path data = Files.createTempDirectory(Leftovers.prefix("pg"));
                int port = ports[i - 1];
                copy(primary.data(), data);
                StandbyConfig standby = new StandbyConfig(major, "host=" + replicationAddress(i) + " port="
                        + primary.clientPort() + " user=postgres application_name=" + name);
                for (Map.Entry<String, String> f : standby.files().entrySet()) {
                    Files.writeString(data.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
                }
                append(data, standby.settings().stream().map(e -> e.getKey() + " = '" + e.getValue() + "'")
                        .toArray(String[]::new));
                standbys.add(new HostPostgresNode(name, data, port, url(port), logs.resolve("postgresql-" + name
                        + ".log"), withDataAndPort(command, data, port)));
            }
            if (replicas.synchronous() > 0) {
                append(primary.data(), "synchronous_standby_names = '" + replicas.synchronousStandbyNames() + "'");
            }
            primary.restart();
            for (HostPostgresNode s : standbys) s.restart();
            started.awaitCaughtUp(wait);
        } catch (IOException | RuntimeException | InterruptedException e) {
            started.close();
            throw e;
        }
        HostStandbys group = new HostStandbys(primary, standbys, ReplicaLag.start(primary.url(), LOGIN, logs.resolve(
                "replication.log")));
        primary.joined(group);
        for (HostPostgresNode s : standbys) s.joined(group);
        return group;
    }

    /**
     * The primary's {@code listen_addresses} with {@code replicas} standbys: localhost for the clients, and the
     * address each standby streams from ({@link #replicationAddress}).
     */
    static String listenAddresses(int replicas) {
        StringBuilder out = new StringBuilder("localhost");
        for (int i = 1; i <= replicas; i++) out.append(", ").append(replicationAddress(i));
        return out.toString();
    }

    /** Where standby {@code i} (1: n2) reaches the primary: 127.0.0.2 for n2, ... */
    static String replicationAddress(int i) {
        return "127.0.0." + (i + 1);
    }

    /**
     * A standby's replication connection, both ways: to the primary's port at the standby's own address and back.
     * Nothing more for the primary: cutting its client port already cuts every standby's connection to it.
     */
    @Override
    public List<List<String>> links(HostPostgresNode node) {
        int i = standbys.indexOf(node);
        if (i < 0) return List.of();
        String address = replicationAddress(i + 1), port = Integer.toString(primary.clientPort());
        return List.of(List.of("-d", address, "--dport", port), List.of("-s", address, "--sport", port));
    }

    /**
     * A standby is back when the primary's {@code pg_stat_replication} shows it streaming and it has replayed the
     * primary's WAL as of now; a primary when every standby is.
     */
    @Override
    public void awaitRejoined(HostPostgresNode node, Duration wait) throws IOException, InterruptedException {
        List<HostPostgresNode> which = node == primary ? standbys : List.of(node);
        long deadline = System.nanoTime() + wait.toNanos();
        ReplicaLag.awaitStreaming(primary.url(), which.stream().map(HostPostgresNode::name).toList(), LOGIN, wait);
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        ReplicaLag.awaitCaughtUp(primary.url(), which, HostPostgresNode::log, LOGIN, left);
    }

    List<HostPostgresNode> nodes() {
        return standbys;
    }

    /** Waits until every standby has replayed the WAL the primary has written by now ({@link ReplicaLag#awaitCaughtUp}). */
    void awaitCaughtUp(Duration wait) throws IOException, InterruptedException {
        ReplicaLag.awaitCaughtUp(primary.url(), standbys, HostPostgresNode::log, LOGIN, wait);
    }

    /** Stops the lag sampler, then each standby (fast shutdown, else SIGKILL), and removes their directories. */
    @Override
    public void close() {
        if (lag != null) lag.close();
        for (HostPostgresNode s : standbys) {
            try {
                s.resume(); // a paused server cannot stop
            } catch (IOException e) {
                // not paused, or not running
            }
            try {
                if (!s.stop(Duration.ofSeconds(10)) && s.pid() > 0) ProcessSignals.signalTree(s.pid(), "KILL");
            } catch (IOException e) {
                System.err.println("isostress: stopping replica " + s.name() + ": " + e.getMessage());
            }
            try {
                Leftovers.deleteTree(s.data());
            } catch (IOException e) {
                System.err.println("isostress: removing replica " + s.name() + "'s data directory: " + e.getMessage());
            }
        }
    }

    static String url(int port) {
        return "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres";
    }

    /** The primary's postmaster command line, on another data directory and port. */
    private static List<String> withDataAndPort(List<String> command, Path data, int port) throws IOException {
        List<String> out = new ArrayList<>(command);
        int d = out.indexOf("-D"), p = out.indexOf("-p");
        if (d < 0 || p < 0 || d + 1 >= out.size() || p + 1 >= out.size()) {
            throw new IOException("unexpected postmaster command line: " + command);
        }
        out.set(d + 1, data.toString());
        out.set(p + 1, Integer.toString(port));
        return out;
    }

    /** Copies a stopped server's data directory, keeping permissions (PostgreSQL wants 0700 or 0750). */
    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path f : (Iterable<Path>) all::iterator) {
                Path rel = from.relativize(f);
                if (SKIPPED.contains(rel.toString())) continue;
                Path dest = to.resolve(rel.toString());
                if (Files.isDirectory(f)) {
                    if (!rel.toString().isEmpty()) Files.createDirectories(dest);
                    Files.setPosixFilePermissions(dest, Files.getPosixFilePermissions(f));
                } else {
                    Files.copy(f, dest, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /** Appends settings to a data directory's postgresql.conf (later lines win; -c on the command line wins over all). */
    private static void append(Path data, String... lines) throws IOException {
        StringBuilder text = new StringBuilder("\n# isostress: streaming replication\n");
        for (String l : lines) text.append(l).append('\n');
        Files.writeString(data.resolve("postgresql.conf"), text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }
}
