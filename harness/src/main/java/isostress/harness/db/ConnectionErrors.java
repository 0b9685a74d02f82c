package isostress.harness.db;

import javax.net.ssl.SSLException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;

/**
 * Why a first connection failed, as one sentence with what to try: "cannot connect to 127.0.0.1:5432:
 * authentication failed for user 'x' (PostgreSQL 28P01): check user-env / password-env". The driver's exception is
 * searched through its causes for what decides: a server error code, or the network exception underneath.
 *
 * <p>Codes: PostgreSQL SQLSTATEs from Appendix A of the manual
 * (https://www.postgresql.org/docs/current/errcodes-appendix.html): 28P01 invalid_password, 28000 invalid_authorization_specification (no such role, no pg_hba.conf entry), 3D000
 * invalid_catalog_name, 08001/08004 the client could not establish / the server rejected the connection. MariaDB
 * error numbers (https://mariadb.com/kb/en/mariadb-error-code-reference/): 1045 ER_ACCESS_DENIED_ERROR, 1044
 * ER_DBACCESS_DENIED_ERROR, 1049 ER_BAD_DB_ERROR (MySQL's numbers are the same).
 */
public final class ConnectionErrors {
    private static final String CREDENTIALS = "check user-env / password-env (or the url's user:password@)";

    private ConnectionErrors() {
    }

    /** The sentence for {@code e}, thrown by the first connection to {@code url} as {@code user} (null: default). */
    public static String explain(Database type, String url, String user, Throwable e) {
        return Secrets.mask("cannot connect to " + where(type, url) + ": " + reason(type, url, user, e));
    }

    /** The sentence for an attempt that got no answer within {@code timeout}. */
    public static String noAnswer(Database type, String url, Duration timeout) {
        return Secrets.mask("cannot connect to " + where(type, url) + ": no answer within " + seconds(timeout)
                + " (connect-timeout): is the host up, and does a firewall drop the packets? Raise "
                + "database.connect-timeout for a slow link");
    }

    private static String reason(Database type, String url, String user, Throwable e) {
        String who = "user '" + (user != null ? user : ClientUrls.userParameter(url) != null
                ? ClientUrls.userParameter(url) : System.getProperty("user.name")) + "'";
        String db = ClientUrls.database(url);
        String product = type.product();
        SQLException sql = find(e, SQLException.class);
        String state = sql == null ? null : sql.getSQLState();
        int code = sql == null ? 0 : sql.getErrorCode();
        if ("28P01".equals(state) || code == 1045) {
            return "authentication failed for " + who + " (" + product + " " + (code == 1045 ? "1045" : state) + "): "
                    + CREDENTIALS;
        }
        if ("3D000".equals(state) || code == 1049) {
            return "database '" + db + "' does not exist (" + product + " " + (code == 1049 ? "1049" : state)
                    + "): create it, or fix the database name in the url";
        }
        if (code == 1044) {
            return who + " may not use database '" + db + "' (" + type.product() + " 1044): grant it access, or use another user";
        }
        if ("28000".equals(state)) {
            return "the server refused " + who + " (PostgreSQL 28000: " + firstLine(sql) + "): check the user name "
                    + "and the server's pg_hba.conf (a hostssl-only entry needs sslmode=require in the url)";
        }
        UnknownHostException unknown = find(e, UnknownHostException.class);
        if (unknown != null) {
            return "unknown host '" + ClientUrls.host(url) + "' (" + unknown.getClass().getSimpleName() + "): check "
                    + "the host name in the url";
        }
        SSLException ssl = find(e, SSLException.class);
        if (ssl != null || mentionsTls(e)) {
            return "TLS failed (" + (ssl != null ? ssl.getMessage() : firstLine(e)) + "): the url asks for TLS "
                    + "(sslmode / sslMode) and the server does not offer it or its certificate is not trusted; "
                    + "enable TLS on the server, or change sslmode in the url";
        }
        if (find(e, ConnectException.class) != null) {
            return "connection refused (" + find(e, ConnectException.class).getMessage() + "): no server listens "
                    + "there; is it running, and are host and port right?";
        }
        if (find(e, NoRouteToHostException.class) != null || find(e, SocketTimeoutException.class) != null) {
            return "no answer (" + firstLine(e) + "): is the host up, and does a firewall drop the packets?";
        }
        return firstLine(root(e)) + (state == null ? "" : " (" + product + " " + state
                + (code != 0 ? ", error " + code : "") + ")");
    }

    private static boolean mentionsTls(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (m.contains("ssl") || m.contains("tls")) return true;
        }
        return false;
    }

    private static String where(Database type, String url) {
        return ClientUrls.hostPort(url, type.defaultPort());
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) return type.cast(t);
            if (t.getCause() == t) break;
        }
        return null;
    }

    private static Throwable root(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        return t;
    }

    private static String firstLine(Throwable t) {
        String m = t.getMessage();
        if (m == null) return t.getClass().getSimpleName();
        int nl = m.indexOf('\n');
        return (nl < 0 ? m : m.substring(0, nl)).trim();
    }
}
