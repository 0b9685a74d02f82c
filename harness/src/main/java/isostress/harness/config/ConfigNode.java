package isostress.harness.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML mapping being read into a typed config, collecting every problem instead of stopping at the first. Jackson
 * parses the YAML; a first pass over its tokens records the line of every key, so each problem reads like
 * {@code campaign.yaml:12 workload.keys: must be >= 1, was 0} (STYLE.md (d)).
 */
final class ConfigNode {
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

    /** Parses YAML text; a syntax error is the one problem reported. */
    static ConfigNode parse(String file, String yaml, List<String> problems) {
        YAMLFactory f = new YAMLFactory();
        Map<String, Integer> lines = new HashMap<>();
        try {
            recordLines(f.createParser(yaml), lines);
            JsonNode root = new ObjectMapper(f).readTree(yaml);
            if (root == null || !root.isObject()) {
                problems.add(file + ":1 the campaign must be a YAML mapping (name:, database:, workload:, ...)");
                return null;
            }
            return new ConfigNode(file, "", root, lines, problems);
        } catch (IOException e) {
            String msg = e.getMessage();
            int nl = msg.indexOf('\n');
            int line = e instanceof com.fasterxml.jackson.core.JacksonException
                    && ((com.fasterxml.jackson.core.JacksonException) e).getLocation() != null
                    ? ((com.fasterxml.jackson.core.JacksonException) e).getLocation().getLineNr() : 0;
            problems.add(file + ":" + line + " malformed YAML: " + (nl > 0 ? msg.substring(0, nl) : msg));
            return null;
        }
    }

    /** Records the line of every key path, e.g. {@code workload.keys} or {@code check.levels[1]}. */
    private static void recordLines(JsonParser p, Map<String, Integer> lines) throws IOException {
        List<String> stack = new ArrayList<>();
        List<Integer> index = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != null) {
            int line = p.currentTokenLocation().getLineNr();
            switch (t) {
                case FIELD_NAME:
                    lines.putIfAbsent(join(stack, p.currentName()), line);
                    break;
                case START_OBJECT:
                case START_ARRAY: {
                    String here = containerPath(p, stack, index);
                    stack.add(here);
                    index.add(t == JsonToken.START_ARRAY ? 0 : -1);
                    break;
                }
                case END_OBJECT:
                case END_ARRAY:
                    stack.remove(stack.size() - 1);
                    index.remove(index.size() - 1);
                    bumpIndex(index);
                    break;
                default:
                    if (!index.isEmpty() && index.get(index.size() - 1) >= 0) {
                        lines.putIfAbsent(stack.get(stack.size() - 1) + "[" + index.get(index.size() - 1) + "]", line);
                    }
                    bumpIndex(index);
            }
        }
    }

    private static String containerPath(JsonParser p, List<String> stack, List<Integer> index) throws IOException {
        if (stack.isEmpty()) return "";
        int i = index.get(index.size() - 1);
        String parent = stack.get(stack.size() - 1);
        if (i >= 0) return parent + "[" + i + "]";
        return join(stack, p.currentName());
    }

    private static void bumpIndex(List<Integer> index) {
        if (!index.isEmpty() && index.get(index.size() - 1) >= 0) index.set(index.size() - 1, index.get(index.size() - 1) + 1);
    }

    private static String join(List<String> stack, String name) {
        String parent = stack.isEmpty() ? "" : stack.get(stack.size() - 1);
        return parent.isEmpty() ? name : parent + "." + name;
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

    Long integer(String key, Long dflt, long min, long max) {
        JsonNode n = node.get(key);
        if (n == null || n.isNull()) return dflt;
        if (!n.isIntegralNumber()) {
            problem(key, "must be an integer, was " + describe(n));
            return dflt;
        }
        long v = n.asLong();
        if (v < min) {
            problem(key, "must be >= " + min + ", was " + v);
            return dflt;
        }
        if (v > max) {
            problem(key, "must be <= " + max + ", was " + v);
            return dflt;
        }
        return v;
    }

    Double number(String key, Double dflt, double min, double max, boolean minExclusive) {
        JsonNode n = node.get(key);
        if (n == null || n.isNull()) return dflt;
        if (!n.isNumber()) {
            problem(key, "must be a number, was " + describe(n));
            return dflt;
        }
        double v = n.asDouble();
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
        if (n.isTextual()) return "'" + n.asText() + "'";
        return n.toString();
    }
}
