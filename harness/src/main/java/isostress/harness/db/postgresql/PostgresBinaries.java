package isostress.harness.db.postgresql;

import isostress.harness.db.DatabaseSpec;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Where the programs of a PostgreSQL server that isostress starts on this machine come from, and how a cluster is
 * made and started with them: zonky's bundles of any version ({@link ZonkyBinaries}, {@code provision: embedded}) or
 * binaries installed here ({@link InstalledBinaries}, {@code provision: local}). Everything else about such a server
 * (its settings, log, node, standbys, cleanup) is {@link HostPostgresProvisioner}'s, the same for both.
 */
sealed interface PostgresBinaries permits ZonkyBinaries, InstalledBinaries {
    /**
     * Makes the binaries ready before anything starts (fetches a bundle, finds the installed programs and their
     * version), so a missing version fails first and within {@code db}'s connect timeout.
     *
     * @return what the run's first line calls the server: "embedded PostgreSQL 16.15.0",
     *         "local PostgreSQL 15.14 from /usr/lib/postgresql/15/bin"
     */
    String prepare(DatabaseSpec db) throws IOException, InterruptedException;

    /**
     * Makes a new cluster in the empty directory {@code data} (initdb: user postgres, trust, UTF-8) and starts its
     * server on {@code port} with {@code settings}, its output appended to {@code log}; returns once it accepts
     * connections (pg_ctl -w) or throws. As root, every program runs through {@code unshare -U}, since PostgreSQL
     * refuses to run as root; the mapped user owns what the harness's root owns, so {@code data} needs no chown.
     *
     * @param startup the longest the server may take to accept connections
     */
    Server start(Path data, int port, Map<String, String> settings, Path log, Duration startup)
            throws IOException, InterruptedException;

    /** A started server; closing it stops the server (fast shutdown) and removes its data directory. */
    interface Server extends AutoCloseable {
        /** The clients' URL ({@code jdbc:postgresql://localhost:<port>/postgres?user=postgres}). */
        String jdbcUrl();

        int port();

        @Override
        void close() throws IOException;
    }
}
