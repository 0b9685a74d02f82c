package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Checks that a recorded {@code isostress-sql} history is well formed, independently of the SQL checker: every
 * write id is unique; every row a statement returned names a version (key, writer) that exists (init or a write of
 * that key), and not the statement's own write; the version's value satisfies the statement's predicate
 * (re-evaluated here from the {@code where} JSON); a SELECT returns exactly the values that version holds.
 */
final class SqlHistoryAudit {
    private static final ObjectMapper JSON = new ObjectMapper();

    final JsonNode header;
    final List<JsonNode> txns = new ArrayList<>();
    /** (key + " " + writer) to the value written (null: deleted). */
    final Map<String, JsonNode> versions = new HashMap<>();
    final Map<String, Integer> levels = new HashMap<>(), outcomes = new HashMap<>();
    int rowsChecked;

    SqlHistoryAudit(Path history) throws IOException {
        List<String> lines = Files.readAllLines(history);
        header = JSON.readTree(lines.get(0));
        Set<String> ids = new HashSet<>();
        for (String line : lines.subList(1, lines.size())) {
            JsonNode n = JSON.readTree(line);
            if (n.get("type").asText().equals("init")) {
                for (JsonNode r : n.get("rows")) {
                    assertEquals("init", r.get("write").asText());
                    versions.put(r.get("key").asText() + " init", r.get("value"));
                }
                continue;
            }
            assertEquals("txn", n.get("type").asText(), line);
            assertTrue(ids.add(n.get("id").asText()), "duplicate txn id: " + line);
            txns.add(n);
            levels.merge(n.get("level").asText(), 1, Integer::sum);
            outcomes.merge(n.get("outcome").asText(), 1, Integer::sum);
        }
        Set<String> writes = new HashSet<>();
        for (JsonNode t : txns) {
            for (JsonNode op : t.get("ops")) {
                if (!op.has("w")) continue;
                String w = op.get("w").asText();
                assertTrue(writes.add(w), "write id used twice: " + w);
                for (JsonNode r : op.get("rows")) {
                    versions.put(r.get("key").asText() + " " + w, op.get("f").asText().equals("delete") ? null
                            : r.get("value"));
                }
            }
        }
    }

    /** Asserts everything the class comment promises. */
    SqlHistoryAudit wellFormed() {
        assertEquals("isostress-sql", header.get("format").asText());
        assertEquals(1, header.get("version").asInt());
        assertFalse(txns.isEmpty(), "no transactions");
        for (JsonNode t : txns) {
            for (JsonNode op : t.get("ops")) {
                String f = op.get("f").asText();
                if (f.equals("insert")) continue;
                JsonNode where = op.get("where");
                assertNotNull(where, op.toString());
                for (JsonNode r : op.get("rows")) {
                    String key = r.get("key").asText(), writer = r.get("writer").asText();
                    String version = key + " " + writer;
                    if (op.has("w")) assertNotEquals(op.get("w").asText(), writer, "a write read itself: " + op);
                    if (!versions.containsKey(version)) fail("version " + version + " was never written: " + op);
                    JsonNode value = versions.get(version);
                    assertNotNull(value, "read a deleted version " + version + ": " + op);
                    assertTrue(test(where, value), "version " + version + " = " + value + " does not satisfy "
                            + where + " in " + op);
                    if (f.equals("select")) assertEquals(value, r.get("value"), "select returned other values");
                    rowsChecked++;
                }
            }
        }
        return this;
    }

    /**
     * Copies a run's directory to {@code target/sql-kept/} (the test's temporary store is deleted afterwards), so a
     * surprising history can be examined; returns where.
     */
    static Path keep(RunOutcome o) throws IOException {
        Path to = Path.of("target", "sql-kept", o.dir().path().getParent().getFileName() + "-"
                + o.dir().path().getFileName());
        Files.createDirectories(to);
        try (var files = Files.walk(o.dir().path())) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path dest = to.resolve(o.dir().path().relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(dest);
                else Files.copy(f, dest, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return to.toAbsolutePath();
    }

    /** The predicate language of docs/sql-history.md (what the recorder writes: eq, and; also ne, not, or, true). */
    static boolean test(JsonNode p, JsonNode row) {
        if (row == null) return false;
        if (p.isBoolean()) return p.asBoolean();
        String op = p.fieldNames().next();
        JsonNode a = p.get(op);
        switch (op) {
            case "eq": return row.has(a.get(0).asText()) && row.get(a.get(0).asText()).equals(a.get(1));
            case "ne": return row.has(a.get(0).asText()) && !row.get(a.get(0).asText()).equals(a.get(1));
            case "not": return !test(a, row);
            case "and":
                for (JsonNode q : a) if (!test(q, row)) return false;
                return true;
            case "or":
                for (JsonNode q : a) if (test(q, row)) return true;
                return false;
            default: throw new AssertionError("predicate " + op + " not expected from the recorder");
        }
    }
}
