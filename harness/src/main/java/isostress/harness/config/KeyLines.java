package isostress.harness.config;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One pass over the YAML tokens, before Jackson builds the tree, that records the line of every key path (e.g.
 * {@code workload.keys}, {@code check.levels[1]}) and reports what the tree would silently lose:
 * <ul>
 * <li>a key given twice in one mapping: the tree keeps the last, so a second {@code workload:} would replace the
 *     first. Both lines are named. (Jackson's {@code StreamReadFeature.STRICT_DUPLICATE_DETECTION} would stop at the
 *     first duplicate and name only its line; SnakeYAML's {@code LoaderOptions.setAllowDuplicateKeys(false)} acts in
 *     its Composer, which Jackson's streaming parser does not use.)</li>
 * <li>a second document after {@code ---}: Jackson's {@code readTree} reads the first and ignores the rest;</li>
 * <li>an alias {@code *x}: Jackson's parser does not expand aliases, it returns the anchor's name as text, so
 *     {@code sessions: *n} would read as 'n' (this is also why no "billion laughs" expansion can happen here);</li>
 * <li>nesting deeper than {@link #MAX_DEPTH}: a campaign nests three levels, and the cap keeps paths short.</li>
 * </ul>
 * Linear in the number of tokens: one hash map per open mapping, paths at most {@link #MAX_DEPTH} levels long.
 */
final class KeyLines {
    /** Deepest nesting accepted (a campaign uses 3: {@code workload.shapes.R1W1}). */
    static final int MAX_DEPTH = 16;

    private KeyLines() {
    }

    /** An open mapping ({@code index} -1, with the keys seen so far) or list (the next element's index). */
    private static final class Frame {
        final String path;
        int index;
        final Map<String, Integer> keys = new HashMap<>();

        Frame(String path, int index) {
            this.path = path;
            this.index = index;
        }
    }

    /** Scans every token of {@code p}; the lines of key paths go into {@code lines}, problems into {@code problems}. */
    static void scan(String file, YAMLParser p, Map<String, Integer> lines, List<String> problems) throws IOException {
        List<Frame> stack = new ArrayList<>();
        boolean documentDone = false;
        JsonToken t;
        while ((t = p.nextToken()) != null) {
            int line = Math.max(1, p.currentTokenLocation().getLineNr());
            if (stack.isEmpty() && documentDone) {
                problems.add(file + ":" + line + " a second YAML document starts here (after ---); a campaign is "
                        + "one document");
                return;
            }
            Frame top = stack.isEmpty() ? null : stack.get(stack.size() - 1);
            if (t == JsonToken.FIELD_NAME) {
                String path = join(top.path, p.currentName());
                Integer first = top.keys.putIfAbsent(p.currentName(), line);
                if (first != null) {
                    problems.add(file + ":" + line + " " + path + ": duplicate key (first at line " + first
                            + "); the second would silently replace the first");
                }
                lines.putIfAbsent(path, line);
                continue;
            }
            if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                stack.remove(stack.size() - 1);
                valueDone(stack);
                documentDone = stack.isEmpty();
                continue;
            }
            String here = top == null ? "" : top.index >= 0 ? top.path + "[" + top.index + "]"
                    : join(top.path, p.currentName());
            if (top != null && top.index >= 0) lines.putIfAbsent(here, line);
            if (p.isCurrentAlias()) {
                problems.add(file + ":" + line + " " + (here.isEmpty() ? "" : here + ": ") + "YAML aliases (*"
                        + p.getText() + ") are not supported (Jackson would read the text '" + p.getText()
                        + "'); write the value out");
            }
            if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                if (stack.size() >= MAX_DEPTH) {
                    problems.add(file + ":" + line + " " + here + ": nested deeper than " + MAX_DEPTH
                            + " levels; a campaign nests at most 3");
                    return;
                }
                stack.add(new Frame(here, t == JsonToken.START_ARRAY ? 0 : -1));
            } else {
                valueDone(stack);
                documentDone = stack.isEmpty();
            }
        }
    }

    /** A value ended: in a list, the next one has the next index. */
    private static void valueDone(List<Frame> stack) {
        if (!stack.isEmpty() && stack.get(stack.size() - 1).index >= 0) stack.get(stack.size() - 1).index++;
    }

    private static String join(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }
}
