package isostress.harness.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import isostress.harness.db.Secrets;
import org.yaml.snakeyaml.LoaderOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A YAML mapping being read into a typed config, collecting every problem instead of stopping at the first. Jackson
 * parses the YAML; a first pass over its tokens records the line of every key, so each problem reads like
 * {@code campaign.yaml:12 workload.keys: must be >= 1, was 0}, never a stack trace.
 */
final class ConfigNode {
    /** Longest duration of anything (a year): durations are later taken in nanoseconds, which overflow at 292 years. */
    static final Duration MAX_DURATION = Duration.ofDays(365);
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");
    private final String file;
    private final String path;
    private final JsonNode node;
    private final Map<String, Integer> lines;
    private final List<String> problems;

    private ConfigNode(String file, String path, JsonNode node, Map<String, Integer> lines, List<String> problems) {
        this.file = file;
        this.path = path;
        this.node = node;
        this.lines = lines;
        this.problems = problems;
    }

    /**
     * Parses YAML text. A syntax error is the one problem reported; duplicate keys, further documents, aliases and
     * deep nesting are reported by {@link KeyLines}. Null when there is no tree to read.
     */
    static ConfigNode parse(String file, String yaml, List<String> problems) {
        // The scan reads duplicates itself (LoaderOptions.setAllowDuplicateKeys(false) makes Jackson's parser stop
        // at the first, like STRICT_DUPLICATE_DETECTION); the tree is read only after a clean scan, with both on as
        // a second line of defence.
        YAMLFactory scanning = YAMLFactory.builder().loaderOptions(loaderOptions(true)).build();
        YAMLFactory f = YAMLFactory.builder().loaderOptions(loaderOptions(false))
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
        Map<String, Integer> lines = new HashMap<>();
        int before = problems.size();
        try {
            try (YAMLParser p = scanning.createParser(yaml)) {
                KeyLines.scan(file, p, lines, problems);
            }
            if (problems.size() > before) return null;
            JsonNode root = new ObjectMapper(f).readTree(yaml);
            if (root == null || !root.isObject()) {
                problems.add(file + ":1 the campaign must be a YAML mapping (name:, database:, workload:, ...)");
                return null;
            }
            return new ConfigNode(file, "", root, lines, problems);
        } catch (JacksonException e) {
            String msg = String.valueOf(e.getOriginalMessage());
            int nl = msg.indexOf('\n');
            int line = e.getLocation() == null ? 1 : Math.max(1, e.getLocation().getLineNr());
            problems.add(file + ":" + line + " malformed YAML: " + (nl > 0 ? msg.substring(0, nl) : msg));
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("reading YAML from a string", e); // a StringReader does not fail
        }
    }

    /**
     * SnakeYAML's limits, for whatever its parser does with them: the text is at most CampaignText.MAX_CHARS anyway,
     * and Jackson's streaming parser neither composes nodes nor expands aliases (maxAliasesForCollections acts in
     * SnakeYAML's Composer).
     */
    private static LoaderOptions loaderOptions(boolean allowDuplicateKeys) {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(CampaignText.MAX_CHARS + 1);
        options.setAllowDuplicateKeys(allowDuplicateKeys);
        options.setMaxAliasesForCollections(0);
        options.setNestingDepthLimit(KeyLines.MAX_DEPTH);
        return options;
    }

    private String child(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** Reports a problem at key {@code key} of this node (or at the node itself when key is null). */
    void problem(String key, String message) {
        String p = key == null ? path : child(key);
        Integer line = lines.get(p);
        if (line == null) line = lines.get(path);
        // Messages quote values ("was '...'"): a URL's password must not reach the terminal.
        problems.add(Secrets.mask(file + ":" + (line == null ? 1 : line) + " " + (p.isEmpty() ? "" : p + ": ")
                + message));
    }

    /** The line of {@code keyPath} (e.g. {@code database.settings.x}) or of its nearest written parent, or 1. */
    int lineOf(String keyPath) {
        for (String p = keyPath; !p.isEmpty(); p = p.contains(".") ? p.substring(0, p.lastIndexOf('.')) : "") {
            Integer line = lines.get(p);
            if (line != null) return line;
        }
        return 1;
    }

    boolean has(String key) {
        return node.has(key) && !node.get(key).isNull();
    }

    /** A nested mapping, or null (reported) when it is not one; absent: an empty mapping. */
    ConfigNode object(String key) {
        JsonNode n = node.get(key);
        if (n == null || n.isNull()) {
            return new ConfigNode(file, child(key), new ObjectMapper().createObjectNode(), lines, problems);
        }
        if (!n.isObject()) {
            problem(key, "must be a mapping of keys, was " + describe(n));
            return new ConfigNode(file, child(key), new ObjectMapper().createObjectNode(), lines, problems);
        }
        return new ConfigNode(file, child(key), n, lines, problems);
    }

    String string(String key, String dflt) {
        JsonNode n = node.get(key);
        if (n == null || n.isNull()) return dflt;
        if (!n.isValueNode() || n.isBoolean()) {
            problem(key, "must be a string, was " + describe(n));
            return dflt;
        }
        return n.asText();
    }

    /** One of {@code allowed} (lower case), or the default; anything else is reported. */
    String choice(String key, String dflt, List<String> allowed) {
        String v = string(key, dflt);
        if (v == null) return null;
        if (!allowed.contains(v)) {
            problem(key, "must be one of " + String.join(", ", allowed) + ", was '" + v + "'");
            return dflt;
        }
        return v;
    }

    /** An integer in [min, max] (compared exactly: 2^64 is not taken modulo 2^64), or the default. */
    Long integer(String key, Long dflt, long min, long max) {
        JsonNode n = node.get(key);
        if (n == null || n.isNull()) return dflt;
        if (!n.isIntegralNumber()) {
            problem(key, "must be an integer, was " + describe(n));
            return dflt;
        }
        BigInteger v = n.bigIntegerValue();
        if (v.compareTo(BigInteger.valueOf(min)) < 0) {
            problem(key, "must be >= " + min + ", was " + shorten(v.toString()));
            return dflt;
        }
        if (v.compareTo(BigInteger.valueOf(max)) > 0) {
            problem(key, "must be <= " + max + ", was " + shorten(v.toString()));
            return dflt;
        }
        return v.longValueExact();
    }

    Double number(String key, Double dflt, double min, double max, boolean minExclusive) {
        JsonNode n = node.get(key);
        if (n == null || n.isNull()) return dflt;
        if (!n.isNumber()) {
            problem(key, "must be a number, was " + describe(n));
            return dflt;
        }
        double v = n.asDouble();
        if (!Double.isFinite(v)) {
            problem(key, "must be a finite number, was " + n.asText());
            return dflt;
        }
        if (minExclusive ? v <= min : v < min) {
            problem(key, "must be " + (minExclusive ? "> " : ">= ") + min + ", was " + v);
            return dflt;
        }
        if (v > max) {
            problem(key, "must be <= " + max + ", was " + v);
            return dflt;
        }
        return v;
    }

    Boolean bool(String key, Boolean dflt) {
        JsonNode n = node.get(key);
        if (n == null || n.isNull()) return dflt;
        if (!n.isBoolean()) {
            problem(key, "must be true or false, was " + describe(n));
            return dflt;
        }
        return n.asBoolean();
    }

    /**
     * A boolean or one of {@code words}, as text ({@code "true"}, {@code "false"} or the word), or the default;
     * anything else is reported.
     */
    String boolOrChoice(String key, String dflt, List<String> words) {
        JsonNode n = node.get(key);
        if (n == null || n.isNull()) return dflt;
        if (n.isBoolean()) return n.asText();
        if (n.isTextual() && words.contains(n.asText())) return n.asText();
        problem(key, "must be true, false or " + String.join(", ", words) + ", was " + describe(n));
        return dflt;
    }

    /**
     * A duration such as 500ms, 30s, 2m or 1h, at most {@link #MAX_DURATION}, or null when absent. Zero only where
     * {@code zeroAllowed} (op-pause: no pause); elsewhere it would mean "run nothing" or "never wait".
     */
    Duration duration(String key, boolean zeroAllowed) {
        String s = string(key, null);
        if (s == null) return null;
        Matcher m = DURATION.matcher(s.trim());
        if (!m.matches()) {
            problem(key, "must look like 500ms, 30s, 2m or 1h, was '" + shorten(s) + "'");
            return null;
        }
        long unitMillis = m.group(2).equals("ms") ? 1 : m.group(2).equals("s") ? 1_000
                : m.group(2).equals("m") ? 60_000 : 3_600_000;
        // Compared by length first: a Long parse would overflow, a BigInteger parse is quadratic in the digits.
        String digits = m.group(1).replaceFirst("^0+(?=\\d)", "");
        if (digits.length() > 18 || Long.parseLong(digits) > MAX_DURATION.toMillis() / unitMillis) {
            problem(key, "must be at most " + MAX_DURATION.toHours() + "h (a year), was '" + shorten(s) + "'");
            return null;
        }
        long millis = Long.parseLong(digits) * unitMillis;
        if (millis == 0 && !zeroAllowed) {
            problem(key, "must be more than 0, was '" + s + "'");
            return null;
        }
        return Duration.ofMillis(millis);
    }

    /** A path (a NUL character, say, makes none), or the default. */
    Path path(String key, String dflt) {
        String s = string(key, dflt);
        try {
            return Path.of(s);
        } catch (InvalidPathException e) {
            problem(key, "is not a usable path: " + e.getReason());
            return Path.of(dflt);
        }
    }

    /** A list of strings (a single string counts as a list of one), or null when absent. */
    List<String> strings(String key) {
        JsonNode n = node.get(key);
        if (n == null || n.isNull()) return null;
        List<String> out = new ArrayList<>();
        if (n.isTextual()) {
            out.add(n.asText());
            return out;
        }
        if (!n.isArray()) {
            problem(key, "must be a list, was " + describe(n));
            return null;
        }
        for (int i = 0; i < n.size(); i++) {
            JsonNode e = n.get(i);
            if (!e.isValueNode()) {
                problem(key + "[" + i + "]", "must be a string, was " + describe(e));
            } else {
                out.add(e.asText());
            }
        }
        return out;
    }

    /** A mapping of scalar values, as strings (YAML's {@code OFF} stays {@code OFF}), or an empty map. */
    Map<String, String> scalars(String key) {
        JsonNode n = node.get(key);
        Map<String, String> out = new LinkedHashMap<>();
        if (n == null || n.isNull()) return out;
        if (!n.isObject()) {
            problem(key, "must be a mapping, was " + describe(n));
            return out;
        }
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                problem(key + "." + e.getKey(), "must be a single value, was " + describe(e.getValue()));
            } else {
                out.put(e.getKey(), e.getValue().asText());
            }
        }
        return out;
    }

    /** Reports every key of this mapping that is not in {@code known}. */
    void rejectUnknownKeys(List<String> known) {
        Iterator<String> it = node.fieldNames();
        while (it.hasNext()) {
            String k = it.next();
            if (!known.contains(k)) {
                problem(k, "unknown key; known keys here are " + String.join(", ", known));
            }
        }
    }

    private static String describe(JsonNode n) {
        if (n.isObject()) return "a mapping";
        if (n.isArray()) return "a list";
        if (n.isTextual()) return "'" + shorten(n.asText()) + "'";
        return shorten(n.toString());
    }

    /** A value as quoted in a problem: one sentence, so at most 80 characters of it. */
    static String shorten(String s) {
        return s.length() <= 80 ? s : s.substring(0, 60) + "... (" + s.length() + " characters)";
    }
}
