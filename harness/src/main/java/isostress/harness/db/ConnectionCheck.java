package isostress.harness.db;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One plain JDBC connection before the clients' pools are built. A HikariCP pool retries a failing connection until
 * its connectionTimeout and then says only "Connection is not available, request timed out after 60001ms"; a plain
 * {@link Driver#connect} attempt gets the driver's own {@link SQLException} at once, which {@link ConnectionErrors}
 * turns into the reason and what to try. The attempt runs on its own thread and is abandoned at the connect
 * timeout, whatever the driver does (a dropped SYN, a server that accepts and never answers).
 */
public final class ConnectionCheck {
    private ConnectionCheck() {
    }

    /**
     * Connects to {@code url} as {@code user} and closes the connection again.
     *
     * @param user     the user, or null for the driver's default (or the URL's {@code user=})
     * @param password the password, or null
     * @param timeout  the longest the attempt may take
     * @throws CannotConnectException why not, in one sentence
     */
    public static void require(JdbcDatabase type, String url, String user, String password, Duration timeout)
            throws CannotConnectException, InterruptedException {
        Properties p = type.timeouts(timeout);
        if (user != null) p.setProperty("user", user);
        if (password != null) p.setProperty("password", password);
        long secs = Math.max(1, (timeout.toMillis() + 999) / 1000);
        // The database's own driver, not whichever DriverManager finds first: MariaDB Connector/J and MySQL
        // Connector/J both take jdbc:mysql: URLs.
        Driver driver = type.driver();
        FutureTask<Void> attempt = new FutureTask<>(() -> {
            Connection opened = driver.connect(url, p);
            if (opened == null) throw new SQLException(type.driverClass() + " does not take the url " + url);
            try (Connection c = opened) {
                c.isValid((int) secs);
            }
            return null;
        });
        Thread t = new Thread(attempt, "isostress-connect");
        t.setDaemon(true); // an attempt that never returns must not keep the JVM alive
        t.start();
        try {
            attempt.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            t.interrupt();
            throw new CannotConnectException(ConnectionErrors.noAnswer(type, url, timeout), e);
        } catch (ExecutionException e) {
            throw new CannotConnectException(ConnectionErrors.explain(type, url, user, e.getCause()), e.getCause());
        }
    }
}
