package isostress.harness.db.postgresql;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.DbNode;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import isostress.harness.provision.Host;
import isostress.harness.provision.Leftovers;
import isostress.harness.provision.SettingRefusedException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A throwaway PostgreSQL server on this machine, from {@link PostgresBinaries}: zonky's of the campaign's version
 * ({@code provision: embedded}) or the installed ones ({@code provision: local}). A fresh data directory per run,
 * named for the {@link isostress.harness.provision.Watchdog} (which stops the server if the harness is killed);
 * the same settings, log and failure messages whichever binaries run; stopped and removed on close. With
 * {@code database.replicas}, the server is the primary (n1, its log {@code postgresql-n1.log}) of that many hot
 * standbys ({@link HostStandbys}).
 */
final class HostPostgresProvisioner implements Provisioner {
    /** How long a healthy server may take to accept connections (zonky's default is 10 s, tight on a busy machine). */
    static final Duration STARTUP = Duration.ofSeconds(60);
    /** What pg_ctl -w prints when the postmaster exited during startup (PostgreSQL 10 and later). */
    private static final String GAVE_UP = "pg_ctl: could not start server";
    private final PostgresBinaries binaries;

    HostPostgresProvisioner(PostgresBinaries binaries) {
        this.binaries = binaries;
    }

    @Override
    public RunningDatabase start(DatabaseSpec db, Path logs, int maxClients) throws IOException, InterruptedException {
        String server = binaries.prepare(db);
        Files.createDirectories(logs);
        boolean replicated = db.replicas().count() > 0;
        Path log = logs.resolve(replicated ? "postgresql-n1.log" : "postgresql.log");
        Path data = Files.createTempDirectory(Leftovers.prefix("pg"));
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("timezone", "UTC"); // zonky's default, for the installed binaries too
        settings.put("max_connections", String.valueOf(Math.max(100, maxClients + 20)));
        // Stress workloads on hot keys deadlock often; PostgreSQL's 1 s default would stall every session for a
        // second per deadlock (a list-append run at read committed spent minutes waiting). A campaign's settings
        // override it.
        settings.put("deadlock_timeout", "20ms");
        // zonky turns synchronous_commit off: a kill -9 then loses acknowledged commits still in the WAL buffers (the
        // checker reported them as lost updates). With it on, WAL reaches the kernel at commit, which survives a
        // process crash; fsync stays off (-F), as a machine crash is not a fault here.
        settings.put("synchronous_commit", "on");
        // Each standby streams from an address of its own, so a partition can cut one standby's replication alone.
        if (replicated) settings.put("listen_addresses", HostStandbys.listenAddresses(db.replicas().count()));
        settings.putAll(db.settings());
        int port = Host.freePort();
        PostgresBinaries.Server pg;
        try {
            pg = startWatchingLog(() -> binaries.start(data, port, settings, log, STARTUP), log, server,
                    db.settings().keySet());
        } catch (IOException | RuntimeException e) {
            try {
                Leftovers.deleteTree(data);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            if (e instanceof SettingRefusedException) throw e;
            List<String> fatal = fatalLines(logLines(log, 0));
            throw new IOException(server + " did not start (see " + log + "): "
                    + (fatal.isEmpty() ? e.getMessage() : fatal.get(0)), e);
        }
        HostPostgresNode primary = new HostPostgresNode(data, pg.port(), pg.jdbcUrl(), log);
        HostStandbys standbys = null;
        if (replicated) {
            try {
                standbys = HostStandbys.start(primary, db.replicas(), logs, STARTUP);
            } catch (IOException | RuntimeException | InterruptedException e) {
                new Running(pg, server, primary, null, db).close();
                Leftovers.deleteTree(data); // zonky removes it only when the stop succeeded
                throw e;
            }
        }
        return new Running(pg, server, primary, standbys, db);
    }

    /**
     * The binaries' start, which waits until the server is up (up to {@link #STARTUP}; zonky's until a connection
     * succeeds) even when the server is long gone: pg_ctl runs with -w and logs {@code pg_ctl: could not start
     * server} as soon as the postmaster exits during startup (PostgreSQL's pg_ctl.c, {@code wait_for_postmaster}). Seeing that line in the log ends the
     * wait at once, with the server's FATAL line; the start's wait ends on the interrupt.
     */
    private static PostgresBinaries.Server startWatchingLog(Callable<PostgresBinaries.Server> startServer, Path log,
                                                            String server, Collection<String> settings)
            throws IOException, InterruptedException {
        long from = Files.exists(log) ? Files.size(log) : 0; // only this start's lines
        FutureTask<PostgresBinaries.Server> start = new FutureTask<>(startServer);
        Thread t = new Thread(start, "isostress-start-postgresql");
        t.setDaemon(true);
        t.start();
        while (true) {
            try {
                return start.get(50, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                List<String> lines = logLines(log, from);
                if (lines.stream().anyMatch(l -> l.contains(GAVE_UP))) {
                    t.interrupt();
                    t.join(TimeUnit.SECONDS.toMillis(10));
                    List<String> fatal = fatalLines(lines);
                    SettingRefusedException refused = SettingRefusedException.find(server, fatal, settings);
                    if (refused != null) throw refused;
                    throw new IOException(server + " did not start (see " + log + "): "
                            + (fatal.isEmpty() ? GAVE_UP : fatal.get(0)));
                }
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException) throw (IOException) e.getCause();
                if (e.getCause() instanceof RuntimeException) throw (RuntimeException) e.getCause();
                throw new IOException(e.getCause());
            }
        }
    }

    /** The log's lines from byte {@code from} on (none when there is no log). */
    static List<String> logLines(Path log, long from) throws IOException {
        if (!Files.exists(log)) return List.of();
        byte[] all = Files.readAllBytes(log);
        int start = (int) Math.min(from, all.length);
        return List.of(new String(all, start, all.length - start, StandardCharsets.ISO_8859_1).split("\n"));
    }

    /** The FATAL (and PANIC) lines among a server log's, from the severity on: the timestamp and pid dropped. */
    static List<String> fatalLines(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            int at = Math.max(line.indexOf("FATAL:"), line.indexOf("PANIC:"));
            if (at >= 0) out.add(line.substring(at).replaceAll("\\s+", " ").trim());
        }
        return out;
    }

    private static final class Running implements RunningDatabase {
        private final PostgresBinaries.Server pg;
        private final String server;
        private final HostPostgresNode node;
        private final HostStandbys standbys;
        private final DatabaseSpec db;
        private boolean closed;

        /** @param standbys the primary's standbys, or null */
        Running(PostgresBinaries.Server pg, String server, HostPostgresNode node, HostStandbys standbys,
                DatabaseSpec db) {
            this.pg = pg;
            this.server = server;
            this.node = node;
            this.standbys = standbys;
            this.db = db;
        }

        public java.util.List<DbNode> nodes() {
            List<DbNode> all = new ArrayList<>(List.of(node));
            if (standbys != null) all.addAll(standbys.nodes());
            return all;
        }

        @Override
        public void awaitReplicas(Duration wait) throws IOException, InterruptedException {
            if (standbys != null) standbys.awaitCaughtUp(wait);
        }

        public String jdbcUrl() {
            return pg.jdbcUrl();
        }

        public String user() {
            return "postgres";
        }

        public String password() {
            return null;
        }

        public String description() {
            String d = server + " on port " + pg.port();
            if (standbys == null) return d;
            return StandbyConfig.describe(d, standbys.nodes(), db.replicas());
        }

        public synchronized void close() {
            if (closed) return;
            closed = true;
            if (standbys != null) standbys.close();
            try {
                node.resume(); // a paused server cannot stop
            } catch (IOException e) {
                // not paused, or not running
            }
            try {
                pg.close();
            } catch (IOException | RuntimeException e) {
                System.err.println("isostress: stopping " + server + ": " + e.getMessage());
            }
        }
    }
}
