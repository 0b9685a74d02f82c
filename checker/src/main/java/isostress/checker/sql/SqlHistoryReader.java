package isostress.checker.sql;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import isostress.checker.history.InputException;
import isostress.checker.history.Outcome;
import isostress.checker.history.StrictUtf8Stream;
import isostress.checker.model.IsolationLevel;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the {@code isostress-sql} JSON-lines format (docs/sql-history.md). Every error is an {@link InputException}
 * naming file:line and what was expected. Beyond syntax it checks what the checker relies on: unique transaction ids
 * and write ids, one table per key, increasing session indexes, and that every read names a version some statement
 * (or init) wrote for that key. It is isostress's own format, so every field is known: a field it does not know, a
 * value of the wrong JSON type, an integer beyond 64 bits and a key given twice are errors, never skipped or coerced.
 * This class reads the lines and checks the history as a whole; {@link SqlJsonFields} reads each field's value.
 */
public final class SqlHistoryReader {
    /**
     * Jackson, made on first use: {@link #isSqlHistory} is asked of every file {@code isostress check} reads, and
     * making a mapper loads several hundred classes, a sizeable part of a small history's whole check, which a file
     * without the format's name in its first line never needs.
     */
    private static final class Json {
        static final ObjectMapper MAPPER = JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY).build();
    }
    /** The fields of each kind of object (docs/sql-history.md). */
    private static final Set<String> HEADER = Set.of("format", "version", "name", "tables"),
            INIT = Set.of("type", "rows"), INIT_ROW = Set.of("table", "key", "write", "value"),
            TXN = Set.of("type", "id", "session", "index", "level", "outcome", "start", "end", "ops"),
            OP = Set.of("f", "table", "where", "w", "rows"), ROW = Set.of("key", "writer", "value");
    private static final Set<String> LEVELS = Set.of("rc", "ra", "pc", "si", "ser");

    private final SqlJsonFields fields;
    private String name;
    private final Map<String, List<String>> tables = new LinkedHashMap<>();
    private final List<InitRowAt> init = new ArrayList<>();
    private final List<SqlTxn> txns = new ArrayList<>();
    private final Map<SqlTxn, Integer> lineOf = new HashMap<>();
    private final Map<Long, Integer> idLine = new HashMap<>();
    private final Map<String, String> tableOfKey = new HashMap<>();
    private final Map<String, Integer> writeIdLine = new HashMap<>();
    /** (key, write id) pairs that exist: "key\u0000w". */
    private final Set<String> versions = new HashSet<>();

    private record InitRowAt(SqlHistory.InitRow row, int line) {}

    private SqlHistoryReader(String source) {
        this.fields = new SqlJsonFields(source);
    }

    /**
     * Reads a history file. Bytes that are not UTF-8 are an error naming their line; so is a file that cannot be read.
     */
    public static SqlHistory read(Path file) {
        String source = file.toString();
        try (Reader in = new InputStreamReader(new StrictUtf8Stream(Files.newInputStream(file), source),
                StandardCharsets.UTF_8)) {
            return read(in, source);
        } catch (IOException | UncheckedIOException e) {
            throw new InputException(source, 0, "cannot read the file: " + e.getMessage(), e);
        }
    }

    public static SqlHistory read(String text, String source) {
        return read(new StringReader(text), source);
    }

    public static SqlHistory read(Reader reader, String source) {
        try {
            return new SqlHistoryReader(source).parse(new BufferedReader(reader));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Bytes read to find the header: a header line is far shorter, and a binary file has no lines. */
    private static final int HEAD = 1 << 20;

    /**
     * True when the first non-blank line is a header with {@code "format":"isostress-sql"}. Reads at most the first
     * megabyte, so a huge file without line breaks is not read whole into one string.
     */
    public static boolean isSqlHistory(Path file) {
        if (!Files.isRegularFile(file)) return false;
        byte[] head;
        try (java.io.InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(HEAD);
        } catch (IOException e) {
            return false;
        }
        for (String line : new String(head, StandardCharsets.UTF_8).split("\n", -1)) {
            if (line.isBlank()) continue;
            if (!line.contains("isostress-sql")) return false;
            try {
                JsonNode n = Json.MAPPER.readTree(line);
                return n != null && n.isObject() && "isostress-sql".equals(n.path("format").asText(null));
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }
        return false;
    }

    private SqlHistory parse(BufferedReader in) throws IOException {
        boolean header = false;
        String text;
        int line = 0;
        while ((text = in.readLine()) != null) {
            line++;
            if (text.isBlank()) continue;
            JsonNode n;
            try {
                n = Json.MAPPER.readTree(text);
            } catch (JsonProcessingException e) {
                throw fail(line, "malformed JSON: " + e.getOriginalMessage());
            }
            if (n == null || !n.isObject()) throw fail(line, "expected a JSON object");
            if (!header) {
                header(n, line);
                header = true;
                continue;
            }
            String type = n.path("type").asText("");
            if (!n.path("type").isTextual()) type = "";
            if (type.equals("init")) {
                if (!txns.isEmpty()) throw fail(line, "init line after the first transaction");
                parseInit(n, line);
            } else if (type.equals("txn")) {
                parseTxn(n, line);
            } else {
                throw fail(line, "expected \"type\": \"init\" or \"txn\", got " + n.path("type"));
            }
        }
        if (!header) {
            throw fail(Math.max(1, line), "empty file: expected the header {\"format\":\"isostress-sql\",\"version\":1}");
        }
        if (txns.isEmpty()) {
            throw fail(Math.max(1, line), "no transactions: there is nothing to check, and an empty history is not "
                    + "a valid one");
        }
        checkReads();
        checkSessions();
        List<SqlHistory.InitRow> rows = new ArrayList<>();
        for (InitRowAt r : init) rows.add(r.row());
        return new SqlHistory(name, tables, rows, txns);
    }

    /** The header line: the format and version, the history's name and its tables' columns. */
    private void header(JsonNode n, int line) {
        if (!n.path("format").isTextual() || !"isostress-sql".equals(n.get("format").textValue())) {
            throw fail(line, "expected the header {\"format\":\"isostress-sql\",\"version\":1}");
        }
        fields.known(n, HEADER, line, "the header");
        JsonNode version = n.get("version");
        if (version == null || !version.isIntegralNumber() || !version.canConvertToLong()
                || version.longValue() != 1) {
            throw fail(line, "unsupported \"version\" " + version + ", expected 1");
        }
        JsonNode nm = n.get("name");
        if (nm != null && !nm.isNull() && !nm.isTextual()) {
            throw fail(line, "the header's \"name\" must be a string, got " + nm);
        }
        name = nm == null || nm.isNull() ? null : nm.textValue();
        if (n.has("tables")) {
            if (!n.get("tables").isObject()) {
                throw fail(line, "\"tables\" must be an object {table: [column, ...]}");
            }
            Iterator<Map.Entry<String, JsonNode>> it = n.get("tables").fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isArray()) {
                    throw fail(line, "\"tables\": table " + e.getKey() + " must list its columns");
                }
                List<String> cols = new ArrayList<>();
                for (JsonNode c : e.getValue()) {
                    if (!c.isTextual()) {
                        throw fail(line, "\"tables\": table " + e.getKey() + ": a column is a string, got " + c);
                    }
                    cols.add(c.textValue());
                }
                tables.put(e.getKey(), cols);
            }
        }
    }

    private void parseInit(JsonNode n, int line) {
        fields.known(n, INIT, line, "init");
        JsonNode rows = n.get("rows");
        if (rows == null || !rows.isArray()) throw fail(line, "init: expected \"rows\": [...]");
        for (JsonNode r : rows) {
            if (!r.isObject()) throw fail(line, "init: a row is an object {table, key, write, value}, got " + r);
            fields.known(r, INIT_ROW, line, "init row");
            String table = fields.text(r, "table", line, "init row");
            String key = fields.text(r, "key", line, "init row");
            JsonNode w = r.get("write");
            if (w != null && !(w.isTextual() && w.textValue().equals(SqlHistory.INIT))) {
                throw fail(line, "init row " + key + ": \"write\" must be \"init\"");
            }
            claimKey(key, table, line);
            if (!versions.add(key + '\u0000' + SqlHistory.INIT)) throw fail(line, "duplicate init row for key " + key);
            init.add(new InitRowAt(new SqlHistory.InitRow(table, key, fields.value(r.get("value"), line, key)), line));
        }
    }

    private void parseTxn(JsonNode n, int line) {
        fields.known(n, TXN, line, "txn");
        long id = fields.integer(n, "id", line);
        Integer first = idLine.putIfAbsent(id, line);
        if (first != null) throw fail(line, "duplicate transaction id " + id + " (first on line " + first + ")");
        long session = fields.integer(n, "session", line);
        if (session < 0 || session > Integer.MAX_VALUE) {
            throw fail(line, "session must be >= 0 and < 2^31, was " + session);
        }
        long index = fields.integer(n, "index", line);
        if (index < Integer.MIN_VALUE || index > Integer.MAX_VALUE) throw fail(line, "index must be < 2^31, was " + index);
        String lv = n.path("level").isTextual() ? n.get("level").textValue() : "";
        if (!LEVELS.contains(lv)) throw fail(line, "txn " + id + ": expected \"level\" rc, ra, pc, si or ser, got " + n.path("level"));
        IsolationLevel level = IsolationLevel.byName(lv);
        Outcome outcome = n.path("outcome").isTextual() ? Outcome.fromJepsen(n.get("outcome").textValue()) : null;
        if (outcome == null) throw fail(line, "txn " + id + ": expected \"outcome\" ok, fail or info, got " + n.path("outcome"));
        Long start = fields.optionalInteger(n, "start", line);
        Long end = fields.optionalInteger(n, "end", line);
        JsonNode opsNode = n.get("ops");
        if (opsNode == null || !opsNode.isArray()) throw fail(line, "txn " + id + ": expected \"ops\": [...]");
        List<SqlOp> ops = new ArrayList<>();
        for (JsonNode o : opsNode) ops.add(parseOp(o, line, id));
        SqlTxn t = new SqlTxn(id, (int) session, (int) index, level, outcome, start, end, List.copyOf(ops));
        txns.add(t);
        lineOf.put(t, line);
    }

    private SqlOp parseOp(JsonNode o, int line, long txn) {
        String what = "txn " + txn + " op";
        if (!o.isObject()) throw fail(line, what + ": expected an object");
        fields.known(o, OP, line, what);
        String f = o.path("f").isTextual() ? o.get("f").textValue() : "";
        String table = fields.text(o, "table", line, what);
        JsonNode rows = o.get("rows");
        if (rows == null || !rows.isArray()) throw fail(line, what + " " + f + ": expected \"rows\": [...]");
        if (f.equals("select")) {
            return new SqlOp.Select(table, fields.where(o, line, what), readRows(rows, table, line, what, true));
        }
        if (!f.equals("insert") && !f.equals("update") && !f.equals("delete")) {
            throw fail(line, what + ": unknown op \"f\": " + o.path("f") + " (expected select, insert, update or delete)");
        }
        String w = fields.text(o, "w", line, what + " " + f);
        if (w.equals(SqlHistory.INIT)) throw fail(line, what + ": write id \"init\" is reserved for the initial rows");
        Integer first = writeIdLine.putIfAbsent(w, line);
        if (first != null) throw fail(line, what + ": duplicate write id \"" + w + "\" (first on line " + first + ")");
        if (f.equals("insert")) {
            List<SqlOp.WriteRow> out = new ArrayList<>();
            Set<String> keys = new HashSet<>();
            for (JsonNode r : rows) {
                row(r, line, what);
                String key = fields.text(r, "key", line, what + " insert row");
                if (!keys.add(key)) throw fail(line, what + ": insert writes key " + key + " twice");
                claimKey(key, table, line);
                versions.add(key + '\u0000' + w);
                out.add(new SqlOp.WriteRow(key, fields.value(r.get("value"), line, key)));
            }
            return new SqlOp.Insert(table, w, List.copyOf(out));
        }
        Predicate where = fields.where(o, line, what);
        List<SqlOp.ReadRow> out = readRows(rows, table, line, what, f.equals("update"));
        for (SqlOp.ReadRow r : out) versions.add(r.key() + '\u0000' + w);
        return f.equals("update") ? new SqlOp.Update(table, where, w, out) : new SqlOp.Delete(table, where, w, out);
    }

    private List<SqlOp.ReadRow> readRows(JsonNode rows, String table, int line, String what, boolean withValue) {
        List<SqlOp.ReadRow> out = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (JsonNode r : rows) {
            row(r, line, what);
            String key = fields.text(r, "key", line, what + " row");
            if (!keys.add(key)) throw fail(line, what + ": key " + key + " appears twice in one statement's rows");
            claimKey(key, table, line);
            String writer = fields.text(r, "writer", line, what + " row " + key);
            Map<String, Object> v = withValue ? fields.value(r.get("value"), line, key) : null;
            out.add(new SqlOp.ReadRow(key, writer, v));
        }
        return List.copyOf(out);
    }

    private void claimKey(String key, String table, int line) {
        String prev = tableOfKey.putIfAbsent(key, table);
        if (prev != null && !prev.equals(table)) {
            throw fail(line, "key " + key + " is in table " + table + " here but in table " + prev + " earlier");
        }
    }

    /** Every read must name a version that exists: (key, writer) written by init or by a statement with that id. */
    private void checkReads() {
        for (SqlTxn t : txns) {
            for (SqlOp op : t.ops()) {
                List<SqlOp.ReadRow> rows = op instanceof SqlOp.Select s ? s.rows()
                        : op instanceof SqlOp.Update u ? u.rows() : op instanceof SqlOp.Delete d ? d.rows() : List.of();
                for (SqlOp.ReadRow r : rows) {
                    if (!versions.contains(r.key() + '\u0000' + r.writer())) {
                        throw fail(lineOf.get(t), "txn " + t.id() + " " + op.f() + " on " + op.table() + " reads key "
                                + r.key() + " from writer \"" + r.writer() + "\", but no statement "
                                + (r.writer().equals(SqlHistory.INIT) ? "(no init row)" : "with that write id")
                                + " wrote that key");
                    }
                }
            }
        }
    }

    private void checkSessions() {
        Set<Long> pos = new HashSet<>();
        for (SqlTxn t : txns) {
            if (!pos.add(((long) t.session() << 32) | (t.index() & 0xffffffffL))) {
                throw fail(lineOf.get(t), "txn " + t.id() + ": session " + t.session() + " already has index " + t.index());
            }
        }
    }

    private void row(JsonNode r, int line, String what) {
        if (!r.isObject()) throw fail(line, what + ": a row is an object {key, writer, value}, got " + r);
        fields.known(r, ROW, line, what + " row");
    }

    private InputException fail(int line, String message) {
        return fields.fail(line, message);
    }
}
