package isostress.harness.db;

import java.io.IOException;
import java.sql.Driver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A database spoken to through JDBC: its driver (named, not left to {@link java.sql.DriverManager}, since MariaDB
 * Connector/J and MySQL Connector/J both take {@code jdbc:mysql:} URLs), its statements ({@link DatabaseAdapter} for
 * the key-value workloads, {@link AcctDialect} for the sql workload, the session setting Hermitage needs) and the
 * driver's timeout properties. Subclasses give those; this class builds the clients.
 */
public abstract class JdbcDatabase implements Database {
    /** The driver's class ({@code org.postgresql.Driver}). */
    public abstract String driverClass();

    /** The URL schemes the driver takes ({@code jdbc:postgresql:}); the first is the one isostress writes. */
    protected abstract List<String> schemes();

    /**
     * The statements of the key-value workloads.
     *
     * @param upsert  writes as upserts rather than updates
     * @param opPause each client pauses a random 0..opPause between operations
     * @param tables  keys spread over this many tables
     */
    public abstract DatabaseAdapter adapter(boolean upsert, Duration opPause, int tables);

    /** The statements of the key-value workloads: updates, no pauses, one table. */
    public final DatabaseAdapter adapter() {
        return adapter(false, Duration.ZERO, 1);
    }

    /** The sql workload's accounts table in this database's SQL. */
    public abstract AcctDialect acct();

    /** The statement that makes a session give up waiting for a lock after 5 s (Hermitage's blocked steps). */
    public abstract String lockTimeoutSql();

    /** The driver properties that bound a connection attempt and each statement to {@code timeout}. */
    public abstract Properties timeouts(Duration timeout);

    /** Other driver properties of the session pools (how statements are prepared); none by default. */
    public Properties clientProperties() {
        return new Properties();
    }

    /**
     * {@code url} in the scheme of this database's driver: a provisioner writes the URL of the server it started
     * ({@code jdbc:mariadb://} for the local MariaDB) whichever driver the campaign's type uses.
     */
    public String clientUrl(String url) {
        for (String s : schemes()) if (url.startsWith(s)) return schemes().get(0) + url.substring(s.length());
        return url;
    }

    /** A new instance of the driver. */
    public final Driver driver() {
        try {
            return (Driver) Class.forName(driverClass()).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the JDBC driver " + driverClass() + " is not on the class path", e);
        }
    }

    @Override
    public String urlProblem(String url) {
        for (String s : schemes()) if (url.startsWith(s)) return null;
        return "must be a " + String.join(" or ", schemes()) + " URL for type " + name() + ", was '" + url + "'";
    }

    @Override
    public int defaultPort() {
        return 3306;
    }

    @Override
    public String[] externalUrl(String url) {
        String[] info = ClientUrls.userInfo(url);
        return new String[] {ClientUrls.withoutUserInfo(url), info == null ? null : info[0],
                info == null ? null : info[1]};
    }

    @Override
    public ClientFactory clients(DatabaseSpec spec, Credentials login, List<String> urls,
                                 java.util.Map<String, String> nodeAt, int sessions)
            throws IOException, InterruptedException {
        List<String> clientUrls = new ArrayList<>();
        for (String url : urls) clientUrls.add(clientUrl(url));
        for (String url : clientUrls) {
            ConnectionCheck.require(this, url, login.user(), login.password(), spec.connectTimeout());
        }
        return new JdbcClientFactory(this, login, clientUrls, nodeAt, adapter(spec), spec.isolation(), sessions,
                spec.timeout());
    }

    /**
     * The adapter the campaign's clients use: {@link #adapter(boolean, Duration, int)}, unless a database needs more
     * of {@code spec}.
     */
    protected DatabaseAdapter adapter(DatabaseSpec spec) {
        return adapter(spec.upsert(), spec.opPause(), spec.tables());
    }
}
