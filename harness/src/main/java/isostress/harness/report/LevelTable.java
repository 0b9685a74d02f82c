package isostress.harness.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The per-level lines of a verdict in text ({@code check}'s output and the run summary): name, verdict, reason in
 * aligned columns. The name column is as wide as the longest name listed (at least 20, the width of every level's
 * name but parallel-snapshot-isolation), so the verdicts line up whichever levels are listed.
 */
public final class LevelTable {
    private static final int MIN_NAME_WIDTH = 20;

    private record Row(String name, String verdict, String reason) { }

    private final List<Row> rows = new ArrayList<>();

    public LevelTable add(String name, String verdict, String reason) {
        rows.add(new Row(name, verdict, reason));
        return this;
    }

    /** The lines, each starting with {@code indent} and ending with a newline. */
    public String render(String indent) {
        int width = MIN_NAME_WIDTH;
        for (Row r : rows) width = Math.max(width, r.name().length());
        String format = indent + "%-" + width + "s %-8s %s%n";
        StringBuilder sb = new StringBuilder();
        for (Row r : rows) sb.append(String.format(Locale.ROOT, format, r.name(), r.verdict(), r.reason()));
        return sb.toString();
    }
}
