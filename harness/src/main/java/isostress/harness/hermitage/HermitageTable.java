package isostress.harness.hermitage;

import isostress.harness.db.Isolation;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The prevented/possible table for one database: each level, each Hermitage column. ✓ prevented, — possible, R/O
 * prevented only when the observing transaction only reads (its variant with a write shows the anomaly): the
 * notation of the table in Hermitage's README.
 */
public final class HermitageTable {
    public static final List<String> COLUMNS = List.of("G0", "G1a", "G1b", "G1c", "OTV", "PMP", "P4", "G-single",
            "G2-item", "G2");
    public static final List<Isolation> LEVELS = List.of(Isolation.READ_COMMITTED,
            Isolation.REPEATABLE_READ, Isolation.SERIALIZABLE);

    private HermitageTable() {
    }

    /** level -> column -> mark; {@code detail} collects each test's outcome for people. */
    public static Map<Isolation, Map<String, String>> run(HermitageRunner runner, List<String> detail)
            throws SQLException, InterruptedException {
        Map<Isolation, Map<String, String>> out = new LinkedHashMap<>();
        for (Isolation level : LEVELS) {
            Map<String, String> row = new LinkedHashMap<>();
            for (String column : COLUMNS) {
                boolean readOnlyPossible = false, writePossible = false, hasReadOnly = false;
                for (HermitageScript t : HermitageScript.all()) {
                    if (!t.column().equals(column)) continue;
                    HermitageScript.Run r = runner.run(t, level);
                    boolean possible = t.anomaly().test(r);
                    StringBuilder why = new StringBuilder();
                    for (int i = 0; i < r.results().size(); i++) {
                        StepResult sr = r.results().get(i);
                        if (sr.error() != null) {
                            why.append("; step ").append(i).append(" (T").append(t.steps().get(i).session())
                               .append(' ').append(t.steps().get(i).sql()).append(") failed: ").append(sr.error());
                        }
                    }
                    detail.add(level.yamlName() + " " + t.name() + ": " + (possible ? "possible" : "prevented") + why);
                    if (t.readOnly()) {
                        hasReadOnly = true;
                        readOnlyPossible |= possible;
                    } else {
                        writePossible |= possible;
                    }
                }
                row.put(column, readOnlyPossible || (writePossible && !hasReadOnly) ? "—"
                        : writePossible ? "R/O" : "✓");
            }
            out.put(level, row);
        }
        return out;
    }

    /** A markdown table, one row per level, laid out like the table in Hermitage's README. */
    public static String markdown(String database, Map<Isolation, Map<String, String>> table) {
        StringBuilder sb = new StringBuilder("| database | level | " + String.join(" | ", COLUMNS) + " |\n|---|---|");
        for (int i = 0; i < COLUMNS.size(); i++) sb.append("---|");
        sb.append('\n');
        for (Map.Entry<Isolation, Map<String, String>> e : table.entrySet()) {
            List<String> cells = new ArrayList<>(e.getValue().values());
            sb.append("| ").append(database).append(" | ").append(e.getKey().yamlName().replace('-', ' ')).append(" | ")
              .append(String.join(" | ", cells)).append(" |\n");
        }
        return sb.toString();
    }
}
