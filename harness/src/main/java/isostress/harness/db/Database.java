package isostress.harness.db;

import java.io.IOException;
import java.util.List;

/**
 * Everything isostress knows about one database type, in one place (STYLE.md (e), like Testcontainers' one module
 * per database): what a campaign may ask of it, how clients reach it, and how it is provisioned. One implementation
 * per package ({@code db.postgresql}, {@code db.mariadb}, {@code db.mysql}, {@code db.mongodb}), found by name in
 * {@link Databases}. SQL databases extend {@link JdbcDatabase}, which adds the driver, the statements and the error
 * classification.
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

    /** Why {@code p} cannot provide this database, or null. */
    String provisionProblem(Provision p);

    /** The version a campaign gets when it names none with provision {@code p}, or null. */
    default String defaultVersion(Provision p) {
        return null;
    }

    /** Why {@code url} (provision: external) does not reach this database, or null. */
    String urlProblem(String url);

    /** Why this database cannot run at isolation {@code i}, or null. */
    String isolationProblem(Isolation i);

    /** Why this database cannot run as {@code nodes} servers, or null. */
    default String nodesProblem(int nodes) {
        return null;
    }

    /** Why this database cannot have read replicas ({@code database.replicas}) as provisioned, or null. */
    default String replicasProblem(Provision p, String version) {
        return "read replicas are PostgreSQL's (streaming replication); " + name() + " has none here";
    }

    /** The port a client URL means when it names none. */
    int defaultPort();

    /**
     * Clients for {@code spec}, one per session, reaching node i at {@code urls.get(i)} (the node's own URL, or a
     * fault proxy in front of it). The first connection to each node is made here, so a wrong password or a closed
     * port stops the run with the driver's reason.
     *
     * @throws CannotConnectException a node cannot be reached or refuses the harness
     */
    ClientFactory clients(DatabaseSpec spec, Credentials login, List<String> urls, int sessions)
            throws IOException, InterruptedException;

    /**
     * The client URL and credentials of an external database given as {@code url}: JDBC drivers get the URL without
     * its user part (they do not read one), with user and password passed apart.
     *
     * @return {url, user, password}; user and password may be null
     */
    String[] externalUrl(String url);
}
