package isostress.harness.db;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place passwords are hidden: every text the harness prints or stores that may hold a URL, the campaign or
 * a driver's message goes through {@link #mask}. Two kinds of secret are caught:
 * <ol>
 *   <li>by form, in any text: the password of a URL's user part ({@code scheme://user:PASSWORD@host}, JDBC and
 *       MongoDB alike) and a {@code password=} parameter ({@code ?password=}, {@code &password=},
 *       {@code ;password=});</li>
 *   <li>by value: secrets a loaded campaign names, registered by {@link #register}: the URL's password, the value of
 *       the {@code password-env} variable and the value of every {@code settings} key that looks secret
 *       ({@link #secretKey}). A driver's exception or a server's reply can quote these anywhere, in any form.</li>
 * </ol>
 * The registry is process-wide on purpose: secrets come from the environment and the campaign once, and must be
 * hidden in messages from code that never sees the campaign (JDBC drivers, picocli's error handler).
 */
public final class Secrets {
    /** What a secret is replaced with. */
    public static final String MASK = "***";
    /** The shortest value hidden wherever it appears ({@link #add}). */
    public static final int MIN_VALUE = 4;

    // scheme://user:password@ : the password stops at '@' and cannot hold '/', '?', '#' or blanks (RFC 3986 §3.2.1
    // userinfo, where those must be percent-encoded).
    private static final Pattern USERINFO = Pattern.compile("(://[^:/?#@\\s\"']*:)[^@/?#\\s\"']*@");
    private static final Pattern PARAMETER = Pattern.compile("(?i)(password\\s*=\\s*)[^&;\\s\"',)}]+");
    private static final Pattern SECRET_KEY = Pattern.compile("(?i).*(password|passwd|passphrase|secret|token|key).*");

    private static final Set<String> VALUES = ConcurrentHashMap.newKeySet();

    private Secrets() {
    }

    /** {@code text} with every secret replaced by {@value #MASK}; null stays null. */
    public static String mask(String text) {
        if (text == null || text.isEmpty()) return text;
        String s = USERINFO.matcher(text).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK + "@"));
        s = PARAMETER.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK));
        // Longest first, so a secret that contains another is hidden whole.
        List<String> values = VALUES.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList();
        for (String v : values) s = s.replace(v, MASK);
        return s;
    }

    /** True when a setting named {@code key} holds a secret: its name mentions a password, secret, token or key. */
    public static boolean secretKey(String key) {
        return SECRET_KEY.matcher(key).matches();
    }

    /**
     * Hides {@code value} (and its URL-decoded form) from now on, wherever it appears. Values shorter than
     * {@value #MIN_VALUE} characters are hidden only in the URL forms above: replacing every "p" of the output
     * would garble it, and a secret that short is guessed, not read.
     */
    public static void add(String value) {
        if (value == null || value.length() < MIN_VALUE) return;
        VALUES.add(value);
        String decoded = decode(value);
        if (decoded.length() >= MIN_VALUE) VALUES.add(decoded);
    }

    /**
     * Hides the secrets {@code db} names from now on, in place of an earlier campaign's: its URL's password,
     * password-env's value and the values of secret-looking settings. One process runs one campaign; replacing
     * rather than adding keeps an earlier campaign's values (a test's "wrong") from being masked in later output.
     */
    public static synchronized void register(DatabaseSpec db) {
        VALUES.clear();
        if (db.url() != null) {
            add(urlPassword(db.url()));
            Matcher m = PARAMETER.matcher(db.url());
            while (m.find()) add(m.group().substring(m.group(1).length()));
        }
        if (db.passwordEnv() != null) add(System.getenv(db.passwordEnv()));
        for (Map.Entry<String, String> e : db.settings().entrySet()) {
            if (secretKey(e.getKey())) add(e.getValue());
        }
    }

    /** The password of {@code url}'s user part ({@code scheme://user:password@host}), as written, or null. */
    public static String urlPassword(String url) {
        Matcher m = USERINFO.matcher(url);
        if (!m.find()) return null;
        int start = m.end(1);
        return url.substring(start, m.end() - 1);
    }

    static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s; // not percent-encoded after all
        }
    }
}
