package isostress.harness.db;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * Everything isostress knows about one database type, in one place (like Testcontainers' one module per database):
 * what a campaign may ask of it, how clients reach it, and how it is provisioned: which ways of obtaining it it
 * supports ({@link #provisions()}) and the {@link Provisioner} of each, whose servers live in the database's own
 * package. One implementation per package ({@code db.postgresql}, {@code db.mariadb}, {@code db.mysql},
 * {@code db.mongodb}), found by name in {@link Databases}. SQL databases extend {@link JdbcDatabase}, which adds the
 * driver, the statements and the error classification.
 *
 * <p>The {@code ...Problem} methods return the sentence a campaign file gets for a choice the database does not
 * support (the loader adds file, line and key), or null when the choice is fine.
 */
public interface Database {
    /** The name campaigns use ({@code type: postgresql}). */
    String name();

    /** The product's name in messages ("PostgreSQL"). */
    String product();

    /** The provision a campaign gets when it names none. */
    Provision defaultProvision();

    /** The ways this database can be obtained ({@code provision: ...}), {@link #defaultProvision()} among them. */
    Set<Provision> provisions();

    /**
     * What starts (or reaches) this database provisioned as {@code p}, one of {@link #provisions()}.
     *
     * @throws IllegalArgumentException for a provision this database does not support (the campaign loader rejects
     *                                  those first, with {@link #provisionProblem})
     */
    Provisioner provisioner(Provision p);

    /** Why {@code p} cannot provide this database, or null: the ways it can, and which databases {@code p} is for. */
    default String provisionProblem(Provision p) {
        return provisions().contains(p) ? null : Databases.provisionProblem(this, p);
    }

    /** The version a campaign gets when it names none with provision {@code p}, or null. */
    default String defaultVersion(Provision p) {
        return null;
    }

    /**
     * Why this database, provisioned as {@code p}, cannot start the server programs in {@code binDir}
     * ({@code database.bin-dir}), or null when it can.
     */
    default String binDirProblem(Provision p, String binDir) {
        return "bin-dir names installed server programs to start, which " + name() + " does not use";
    }

    /** Why {@code url} (provision: external) does not reach this database, or null. */
    String urlProblem(String url);

    /** Why this database cannot run at isolation {@code i}, or null. */
    String isolationProblem(Isolation i);

    /** Why this database cannot run as {@code nodes} servers, or null. */
    default String nodesProblem(int nodes) {
        return null;
    }

    /** Why this database, provisioned as {@code p}, cannot run as {@code nodes} servers, or null. */
    default String nodesProblem(Provision p, int nodes) {
        return nodesProblem(nodes);
    }

    /**
     * Why {@code key: value} under {@code database.settings} is refused before the server is asked, or null (most
     * settings are for the server to judge; a database refuses here the ones it reads itself).
     */
    default String settingProblem(String key, String value) {
        return null;
    }

    /**
     * Why {@code key: value} under {@code database.patroni} (Patroni's own settings, provision patroni) is refused,
     * or null.
     */
    default String patroniSettingProblem(Provision p, String key, String value) {
        return "Patroni's settings are for PostgreSQL provisioned as provision: patroni, was " + name();
    }

    /** Why {@code program} ({@code database.patroni-program}) cannot be the Patroni members run, or null. */
    default String patroniProgramProblem(Provision p, String program) {
        return "a Patroni program is for PostgreSQL provisioned as provision: patroni, was " + name();
    }

    /** Why this database cannot have read replicas ({@code database.replicas}) as provisioned, or null. */
    default String replicasProblem(Provision p, String version) {
        return "read replicas are PostgreSQL's (streaming replication); " + name() + " has none here";
    }

    /**
     * True when this database can copy its commit log into the run's {@code witness.jsonl} while a key-value
     * workload runs ({@code check.witness}, {@link #capture}).
     */
    default boolean capturesCommitLog() {
        return false;
    }

    /**
     * The server settings the capture needs, applied when the harness starts the server and the campaign asks for
     * the witness (its own settings win); empty when it needs none.
     */
    default java.util.Map<String, String> captureSettings() {
        return java.util.Map.of();
    }

    /**
     * Starts copying {@code db}'s commit log into {@code witness}, from now on: called after the workload's schema
     * is created and before its first transaction. Empty when this database has no capture.
     *
     * @throws IOException the server cannot be read this way (a sentence saying what it lacks)
     */
    default java.util.Optional<CommitLogCapture> capture(RunningDatabase db, java.nio.file.Path witness)
            throws IOException, InterruptedException {
        return java.util.Optional.empty();
    }

    /** The port a client URL means when it names none. */
    int defaultPort();

    /**
     * Clients for {@code spec}, one per session, reaching node i at {@code urls.get(i)} (the node's own URL, or a
     * fault proxy in front of it). The first connection to each node is made here, so a wrong password or a closed
     * port stops the run with the driver's reason.
     *
     * @param nodeAt which node answers at a {@code host:port} of the URLs: where a URL names several servers (a
     *               cluster's multi-host URL that follows its primary), each transaction's node is the one its
     *               connection reached, not the one its session was given
     * @throws CannotConnectException a node cannot be reached or refuses the harness
     */
    ClientFactory clients(DatabaseSpec spec, Credentials login, List<String> urls, java.util.Map<String, String> nodeAt,
                          int sessions)
            throws IOException, InterruptedException;

    /**
     * The client URL and credentials of an external database given as {@code url}: JDBC drivers get the URL without
     * its user part (they do not read one), with user and password passed apart.
     *
     * @return {url, user, password}; user and password may be null
     */
    String[] externalUrl(String url);
}
