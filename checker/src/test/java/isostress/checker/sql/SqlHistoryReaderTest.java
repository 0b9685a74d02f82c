package isostress.checker.sql;

import isostress.checker.history.InputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reader and writer of the isostress-sql format: round trips, detection, and errors that name the line. */
class SqlHistoryReaderTest {
    static final String HEADER = "{\"format\":\"isostress-sql\",\"version\":1}\n";
    static final String INIT = "{\"type\":\"init\",\"rows\":[{\"table\":\"acc\",\"key\":\"acc:1\",\"write\":\"init\",\"value\":{\"id\":1,\"grp\":0,\"deleted\":false}}]}\n";

    @Test
    void roundTripsRandomHistories() {
        Random rnd = new Random(7);
        for (int i = 0; i < 300; i++) {
            SqlGen g = new SqlGen(rnd, new SqlGen.Shape(2, 3, 3, 8, 3, 3, 2, 3, SqlGen.LEVELS, 0.1, 0.1));
            SqlHistory h = g.history();
            String text = SqlHistoryWriter.toText(h);
            SqlHistory back = SqlHistoryReader.read(text, "h.jsonl");
            assertEquals(h.txns(), back.txns(), text);
            assertEquals(h.init(), back.init(), text);
            assertEquals(text, SqlHistoryWriter.toText(back));
        }
    }

    @Test
    void readsTheDocumentedExample(@TempDir Path dir) throws Exception {
        String text = HEADER.replace("}", ",\"name\":\"demo\",\"tables\":{\"acc\":[\"id\",\"grp\",\"deleted\"]}}") + INIT
                + "\n"
                + "{\"type\":\"txn\",\"id\":17,\"session\":3,\"index\":4,\"level\":\"ser\",\"outcome\":\"ok\",\"start\":1200,\"end\":1900,\"ops\":["
                + "{\"f\":\"select\",\"table\":\"acc\",\"where\":{\"and\":[{\"eq\":[\"grp\",0]},{\"not\":{\"eq\":[\"deleted\",true]}}]},"
                + "\"rows\":[{\"key\":\"acc:1\",\"writer\":\"init\",\"value\":{\"id\":1,\"grp\":0,\"deleted\":false}}]},"
                + "{\"f\":\"update\",\"table\":\"acc\",\"where\":{\"in\":[\"id\",[1,2]]},\"w\":\"w9\",\"rows\":[{\"key\":\"acc:1\",\"writer\":\"init\",\"value\":{\"id\":1,\"grp\":2,\"deleted\":false}}]}]}\n";
        Path f = dir.resolve("h.jsonl");
        Files.writeString(f, text);
        assertTrue(SqlHistoryReader.isSqlHistory(f));
        SqlHistory h = SqlHistoryReader.read(f);
        assertEquals("demo", h.name());
        assertEquals(1, h.txns().size());
        SqlOp.Select s = (SqlOp.Select) h.txns().get(0).ops().get(0);
        assertEquals("grp = 0 AND NOT deleted", s.where().sql());
        assertTrue(s.where().test(SqlHist.row("grp", 0, "deleted", false)));
        assertFalse(s.where().test(null));
        Path other = dir.resolve("o.jsonl");
        Files.writeString(other, "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[]}\n");
        assertFalse(SqlHistoryReader.isSqlHistory(other));
    }

    static InputException fails(String text) {
        return assertThrows(InputException.class, () -> SqlHistoryReader.read(text, "h.sql.jsonl"));
    }

    static void expect(String text, int line, String fragment) {
        InputException e = fails(text);
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith("h.sql.jsonl:" + line + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), "'" + fragment + "' not in: " + e.getMessage());
    }

    static String txn(long id, int session, int index, String ops) {
        return "{\"type\":\"txn\",\"id\":" + id + ",\"session\":" + session + ",\"index\":" + index
                + ",\"level\":\"rc\",\"outcome\":\"ok\",\"ops\":[" + ops + "]}\n";
    }

    static final String INS = "{\"f\":\"insert\",\"table\":\"acc\",\"w\":\"w1\",\"rows\":[{\"key\":\"acc:2\",\"value\":{\"grp\":1}}]}";

    @Test
    void errorsNameTheLine() {
        expect("{\"format\":\"other\"}\n", 1, "expected the header");
        expect(HEADER + INIT + "{not json\n", 3, "malformed JSON");
        expect(HEADER + txn(1, 0, 0, "{\"f\":\"merge\",\"table\":\"acc\",\"rows\":[]}"), 2, "unknown op");
        expect(HEADER + txn(1, 0, 0, INS) + txn(2, 0, 1, INS), 3, "duplicate write id \"w1\" (first on line 2)");
        expect(HEADER + txn(1, 0, 0, "") + "\n" + txn(1, 1, 0, ""), 4, "duplicate transaction id 1");
        expect(HEADER + INIT + txn(1, 0, 0, "{\"f\":\"select\",\"table\":\"acc\",\"where\":true,\"rows\":[{\"key\":\"acc:1\",\"writer\":\"w7\",\"value\":{}}]}"),
                3, "reads key acc:1 from writer \"w7\"");
        expect(HEADER + txn(1, 0, 0, "{\"f\":\"select\",\"table\":\"acc\",\"where\":{\"like\":[\"a\",1]},\"rows\":[]}"), 2, "unknown operator");
        expect(HEADER + txn(1, 0, 0, "").replace("\"rc\"", "\"cc\""), 2, "expected \"level\"");
        expect(HEADER + txn(1, 0, 0, "") + INIT, 3, "init line after the first transaction");
        expect(HEADER + txn(1, 0, 0, "") + txn(2, 0, 0, ""), 3, "session 0 already has index 0");
        expect(HEADER + INIT + txn(1, 0, 0, INS.replace("acc:2", "acc:1").replace("\"table\":\"acc\"", "\"table\":\"other\"")),
                3, "key acc:1 is in table other here but in table acc earlier");
    }
}
