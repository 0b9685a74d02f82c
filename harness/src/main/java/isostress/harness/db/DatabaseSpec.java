package isostress.harness.db;

import java.time.Duration;
import java.util.Map;

/**
 * The campaign's {@code database} section: which database, how it is obtained and how its clients behave. It lives
 * here, below the campaign, because the adapters and provisioners read it and must not depend on the campaign.
 *
 * @param type        the database ({@link Databases} by its name)
 * @param provision   how it is obtained
 * @param version     embedded PostgreSQL version (e.g. {@code 16.15}), or null
 * @param url         external: the JDBC URL
 * @param userEnv     external: environment variable holding the user, or null
 * @param passwordEnv external: environment variable holding the password, or null
 * @param isolation   the isolation level the clients ask for
 * @param settings    server settings (PostgreSQL {@code -c k=v}, MariaDB {@code --k=v})
 * @param nodes       how many servers (MariaDB with Galera, a MongoDB replica set): 1 is a single server
 * @param image       docker: the image to run, or null for the default (official) one
 * @param timeout     the longest one statement or connection attempt may take before the client gives up
 * @param upsert      SQL writes as upserts (INSERT ... ON CONFLICT DO UPDATE / ON DUPLICATE KEY UPDATE) rather
 *                    than UPDATE: the statement PostgreSQL 12.3's SSI bug needs
 * @param opPause     each client sleeps a random 0..opPause between the operations of a transaction (zero: none)
 * @param tables      SQL: keys spread over this many tables (key k in table k mod tables), as Jepsen's
 *                    table-count; 1 is one table
 * @param connectTimeout the longest the first connection may take before the run stops with the reason (exit 2)
 * @param replicas    PostgreSQL hot standbys of the one server, and where read-only transactions run
 * @param binDir      local: the directory of the installed server programs to start ({@code database.bin-dir}), or
 *                    null to find them (PostgreSQL: {@code pg_config --bindir})
 * @param patroni     provision patroni: Patroni's own settings ({@code database.patroni}, e.g. {@code ttl},
 *                    {@code synchronous_mode}), put into the cluster's bootstrap configuration; empty otherwise
 * @param patroniProgram provision patroni: the Patroni program members run ({@code database.patroni-program}, e.g.
 *                    {@code patroni.py} of another version's source tree), or null for Debian's {@code /usr/bin/patroni}
 */
public record DatabaseSpec(Database type, Provision provision, String version, String url, String userEnv,
                           String passwordEnv, Isolation isolation, Map<String, String> settings, int nodes,
                           String image, Duration timeout, boolean upsert, Duration opPause, int tables,
                           Duration connectTimeout, Replicas replicas, String binDir, Map<String, String> patroni,
                           String patroniProgram) {
    public DatabaseSpec {
        settings = Map.copyOf(settings);
        patroni = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(patroni));
    }

    /** With Debian's Patroni. */
    public DatabaseSpec(Database type, Provision provision, String version, String url, String userEnv,
                        String passwordEnv, Isolation isolation, Map<String, String> settings, int nodes,
                        String image, Duration timeout, boolean upsert, Duration opPause, int tables,
                        Duration connectTimeout, Replicas replicas, String binDir, Map<String, String> patroni) {
        this(type, provision, version, url, userEnv, passwordEnv, isolation, settings, nodes, image, timeout, upsert,
                opPause, tables, connectTimeout, replicas, binDir, patroni, null);
    }

    /** Without Patroni's settings. */
    public DatabaseSpec(Database type, Provision provision, String version, String url, String userEnv,
                        String passwordEnv, Isolation isolation, Map<String, String> settings, int nodes,
                        String image, Duration timeout, boolean upsert, Duration opPause, int tables,
                        Duration connectTimeout, Replicas replicas, String binDir) {
        this(type, provision, version, url, userEnv, passwordEnv, isolation, settings, nodes, image, timeout, upsert,
                opPause, tables, connectTimeout, replicas, binDir, Map.of());
    }

    /** Without bin-dir. */
    public DatabaseSpec(Database type, Provision provision, String version, String url, String userEnv,
                        String passwordEnv, Isolation isolation, Map<String, String> settings, int nodes,
                        String image, Duration timeout, boolean upsert, Duration opPause, int tables,
                        Duration connectTimeout, Replicas replicas) {
        this(type, provision, version, url, userEnv, passwordEnv, isolation, settings, nodes, image, timeout, upsert,
                opPause, tables, connectTimeout, replicas, null);
    }

    /** Without replicas. */
    public DatabaseSpec(Database type, Provision provision, String version, String url, String userEnv,
                        String passwordEnv, Isolation isolation, Map<String, String> settings, int nodes,
                        String image, Duration timeout, boolean upsert, Duration opPause, int tables,
                        Duration connectTimeout) {
        this(type, provision, version, url, userEnv, passwordEnv, isolation, settings, nodes, image, timeout, upsert,
                opPause, tables, connectTimeout, Replicas.NONE);
    }

    /** A single server with the default client timeout. */
    public DatabaseSpec(Database type, Provision provision, String version, String url, String userEnv,
                        String passwordEnv, Isolation isolation, Map<String, String> settings) {
        this(type, provision, version, url, userEnv, passwordEnv, isolation, settings, 1, null,
                DEFAULT_TIMEOUT, false, Duration.ZERO, 1, DEFAULT_TIMEOUT);
    }

    /** This spec with {@code extra} settings under its own (a setting the campaign names keeps its value). */
    public DatabaseSpec withSettingsUnder(Map<String, String> extra) {
        Map<String, String> all = new java.util.LinkedHashMap<>(extra);
        all.putAll(settings);
        return new DatabaseSpec(type, provision, version, url, userEnv, passwordEnv, isolation, all, nodes, image,
                timeout, upsert, opPause, tables, connectTimeout, replicas, binDir, patroni, patroniProgram);
    }

    /**
     * Statement and connection timeout of the clients unless the campaign says otherwise; also the default
     * {@code connect-timeout} (the first connection's).
     */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
}
