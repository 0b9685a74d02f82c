package isostress.harness.db;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The parts of a client URL: rewrites it to reach the node through another address (a fault proxy), and reads it. */
public final class ClientUrls {
    // scheme://[user[:password]@]host[:port] — JDBC and MongoDB URLs alike; one host only.
    private static final Pattern AUTHORITY = Pattern.compile("^((?:jdbc:)?[a-z0-9+]+://)([^@/?]*@)?([^/?:,]+|\\[[^]]+])(:\\d+)?");
    private static final Pattern DATABASE = Pattern.compile("^(?:jdbc:)?[a-z0-9+]+://[^/?]*/([^?;]+)");
    private static final Pattern USER_PARAMETER = Pattern.compile("(?i)[?&;]user=([^&;]*)");

    private ClientUrls() {
    }

    /** {@code url} with its host and port replaced by {@code host:port}. */
    public static String via(String url, String host, int port) {
        Matcher m = AUTHORITY.matcher(url);
        if (!m.find()) throw new IllegalArgumentException("cannot find host and port in " + url);
        return m.group(1) + (m.group(2) == null ? "" : m.group(2)) + host + ":" + port + url.substring(m.end());
    }

    /**
     * The user part of {@code url} ({@code scheme://user:password@host}) as {user, password}, percent-decoded; a
     * missing part is null, and so is the whole when the URL has no user part.
     */
    public static String[] userInfo(String url) {
        Matcher m = AUTHORITY.matcher(url);
        if (!m.find() || m.group(2) == null) return null;
        String info = m.group(2).substring(0, m.group(2).length() - 1);
        int colon = info.indexOf(':');
        String user = colon < 0 ? info : info.substring(0, colon);
        String password = colon < 0 ? null : info.substring(colon + 1);
        return new String[] {user.isEmpty() ? null : decode(user), password == null ? null : decode(password)};
    }

    /**
     * {@code url} without its user part. JDBC drivers do not read one (pgjdbc takes {@code user:pass@host} for a
     * host name and quotes it in its error), so the harness passes user and password as properties instead.
     */
    public static String withoutUserInfo(String url) {
        Matcher m = AUTHORITY.matcher(url);
        if (!m.find() || m.group(2) == null) return url;
        return m.group(1) + url.substring(m.end(2));
    }

    /** {@code host:port} of {@code url}, with {@code defaultPort} when it names none; the URL itself if unparsable. */
    public static String hostPort(String url, int defaultPort) {
        Matcher m = AUTHORITY.matcher(url);
        if (!m.find()) return url;
        return m.group(3) + (m.group(4) == null ? ":" + defaultPort : m.group(4));
    }

    /** The host {@code url} names, or null. */
    public static String host(String url) {
        Matcher m = AUTHORITY.matcher(url);
        return m.find() ? m.group(3) : null;
    }

    /** The database {@code url}'s path names ({@code jdbc:postgresql://h/db} gives db), or null. */
    public static String database(String url) {
        Matcher m = DATABASE.matcher(url);
        return m.find() ? decode(m.group(1)) : null;
    }

    /** The {@code user=} parameter of {@code url}, or null. */
    public static String userParameter(String url) {
        Matcher m = USER_PARAMETER.matcher(url);
        return m.find() ? decode(m.group(1)) : null;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }
}
