package isostress.harness.db;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Rewrites a client URL to reach the node through another address (a fault proxy). */
public final class ClientUrls {
    // scheme://[user[:password]@]host[:port] — JDBC and MongoDB URLs alike; one host only.
    private static final Pattern AUTHORITY = Pattern.compile("^((?:jdbc:)?[a-z0-9+]+://)([^@/?]*@)?([^/?:,]+|\\[[^]]+])(:\\d+)?");

    private ClientUrls() {
    }

    /** {@code url} with its host and port replaced by {@code host:port}. */
    public static String via(String url, String host, int port) {
        Matcher m = AUTHORITY.matcher(url);
        if (!m.find()) throw new IllegalArgumentException("cannot find host and port in " + url);
        return m.group(1) + (m.group(2) == null ? "" : m.group(2)) + host + ":" + port + url.substring(m.end());
    }
}
