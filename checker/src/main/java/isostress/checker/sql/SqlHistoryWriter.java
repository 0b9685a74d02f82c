package isostress.checker.sql;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Writes an {@link SqlHistory} in the {@code isostress-sql} format (docs/sql-history.md), one JSON object a line. */
public final class SqlHistoryWriter {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SqlHistoryWriter() {}

    public static void write(SqlHistory h, Path file) {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(h, w);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String toText(SqlHistory h) {
        java.io.StringWriter sw = new java.io.StringWriter();
        try {
            write(h, sw);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sw.toString();
    }

    public static void write(SqlHistory h, Writer out) throws IOException {
        line(out, headerLine(h.name(), h.tables()));
        if (!h.init().isEmpty()) line(out, initLine(h.init()));
        for (SqlTxn t : h.txns()) line(out, txnLine(t));
    }

    /** Line 1: the header, naming the campaign ({@code name} may be null) and its tables' columns. */
    public static String headerLine(String name, Map<String, List<String>> tables) {
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("format", "isostress-sql");
        header.put("version", 1);
        if (name != null) header.put("name", name);
        if (!tables.isEmpty()) header.put("tables", tables);
        return json(header);
    }

    /** The initial rows as one init line. */
    public static String initLine(List<SqlHistory.InitRow> init) {
        List<Object> rows = new ArrayList<>();
        for (SqlHistory.InitRow r : init) {
            rows.add(obj("table", r.table(), "key", r.key(), "write", SqlHistory.INIT, "value", r.value()));
        }
        return json(obj("type", "init", "rows", rows));
    }

    /** One transaction's line (recorders append these as transactions end). */
    public static String txnLine(SqlTxn t) {
        Map<String, Object> m = obj("type", "txn", "id", t.id(), "session", t.session(), "index", t.index(),
                "level", t.level().alias(), "outcome", t.outcome().jepsenName());
        if (t.start() != null) m.put("start", t.start());
        if (t.end() != null) m.put("end", t.end());
        List<Object> ops = new ArrayList<>();
        for (SqlOp op : t.ops()) ops.add(op(op));
        m.put("ops", ops);
        return json(m);
    }

    /** A predicate's {@code where} JSON, e.g. {@code {"eq":["grp",1]}}. */
    public static String json(Predicate p) {
        return json(p.toJson());
    }

    private static Map<String, Object> op(SqlOp op) {
        Map<String, Object> m = obj("f", op.f(), "table", op.table());
        if (op.where() != null) m.put("where", op.where().toJson());
        if (op.writeId() != null) m.put("w", op.writeId());
        List<Object> rows = new ArrayList<>();
        if (op instanceof SqlOp.Insert ins) {
            for (SqlOp.WriteRow r : ins.rows()) rows.add(obj("key", r.key(), "value", r.value()));
        } else {
            List<SqlOp.ReadRow> rs = op instanceof SqlOp.Select s ? s.rows()
                    : op instanceof SqlOp.Update u ? u.rows() : ((SqlOp.Delete) op).rows();
            for (SqlOp.ReadRow r : rs) {
                Map<String, Object> row = obj("key", r.key(), "writer", r.writer());
                if (!(op instanceof SqlOp.Delete)) row.put("value", r.value());
                rows.add(row);
            }
        }
        m.put("rows", rows);
        return m;
    }

    private static Map<String, Object> obj(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    private static String json(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON-serialisable: " + o, e);
        }
    }

    private static void line(Writer out, String line) throws IOException {
        out.write(line);
        out.write('\n');
    }
}
