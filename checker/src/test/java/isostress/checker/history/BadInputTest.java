package isostress.checker.history;

import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.model.IsolationLevel;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Malformed input is reported with the file, the line and what was expected; nothing is silently checked. */
class BadInputTest {
    static final String OK1 = "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\",1,null],[\"w\",1,5]]}\n"
            + "{\"index\":1,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\",1,null],[\"w\",1,5]]}\n";

    static InputException fails(HistoryFormat f, String text) {
        return assertThrows(InputException.class,
                () -> f.reader().read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "h." + f.cliName()));
    }

    static void expect(InputException e, int line, String fragment) {
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith("h."), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), "'" + fragment + "' not in: " + e.getMessage());
    }

    @Test
    void truncatedJsonLine() {
        expect(fails(HistoryFormat.JSONL, OK1 + "{\"index\":2,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"val"),
                3, "JSON");
    }

    @Test
    void wrongTypes() {
        expect(fails(HistoryFormat.JSONL, "{\"index\":\"zero\",\"type\":\"invoke\",\"process\":1,\"value\":[]}\n"), 1,
                "\"index\" must be an integer");
        expect(fails(HistoryFormat.JSONL, OK1 + "{\"index\":2,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\","
                + "\"value\":[[\"r\",[1],1]]}\n"), 3, "the key must be a scalar");
        expect(fails(HistoryFormat.JSONL, "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\","
                + "\"value\":[[\"w\",1,null]]}\n"), 1, "value must be an integer");
        expect(fails(HistoryFormat.JSONL, "[1,2]\n"), 1, "expected a JSON object");
    }

    @Test
    void unknownMicroOpAndType() {
        expect(fails(HistoryFormat.JSONL, "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\","
                + "\"value\":[[\"incr\",1,2]]}\n"), 1, "unknown micro-op \"incr\"");
        expect(fails(HistoryFormat.JSONL, "{\"index\":0,\"type\":\"done\",\"process\":1,\"f\":\"txn\",\"value\":[]}\n"),
                1, "unknown \"type\" \"done\"");
        expect(fails(HistoryFormat.EDN, "{:index 0 :type :invoke :process 1 :f :txn :value [[:inc 1 2]]}\n"), 1,
                "unknown micro-op :inc");
    }

    @Test
    void pairingErrors() {
        expect(fails(HistoryFormat.JSONL, "{\"index\":0,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[]}\n"), 1,
                "no invocation in flight");
        expect(fails(HistoryFormat.JSONL, "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[]}\n"
                + "{\"index\":1,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[]}\n"), 2, "has not completed");
        expect(fails(HistoryFormat.JSONL, OK1 + "{\"index\":1,\"type\":\"invoke\",\"process\":2,\"f\":\"txn\","
                + "\"value\":[]}\n"), 3, "not greater than the previous");
    }

    @Test
    void malformedEdnAndText() {
        expect(fails(HistoryFormat.EDN, "{:index 0, :type :invoke,\n :process 1 :value [[:r 1 nil]]"), 2, "malformed EDN");
        expect(fails(HistoryFormat.TEXT, "r(1,0,1,1)\nw(1,1,1)\n"), 2, "expected ','");
        expect(fails(HistoryFormat.TEXT, "r(1,0,1,1)\nx(1,1,1,1)\n"), 2, "expected r(key,value,session,txn)");
        expect(fails(HistoryFormat.TEXT, "r(1,a,1,1)\n"), 1, "expected an integer value");
    }

    @Test
    void pendingInvocationsBecomeInfoNotErrors() throws Exception {
        History h = HistoryFormat.JSONL.reader().read(new ByteArrayInputStream((OK1
                + "{\"index\":2,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\",1,null]]}\n")
                .getBytes(StandardCharsets.UTF_8)), "h.jsonl");
        assertEquals(2, h.size());
        assertEquals(Outcome.INFO, h.outcome(1));
        assertTrue(h.txn(1).pending());
    }

    @Test
    void duplicateWrittenValueIsReportedAsSuch() throws Exception {
        History h = HistoryFormat.JSONL.reader().read(new ByteArrayInputStream((OK1
                + "{\"index\":2,\"type\":\"invoke\",\"process\":2,\"f\":\"txn\",\"value\":[[\"r\",1,null],[\"w\",1,5]]}\n"
                + "{\"index\":3,\"type\":\"ok\",\"process\":2,\"f\":\"txn\",\"value\":[[\"r\",1,5],[\"w\",1,5]]}\n")
                .getBytes(StandardCharsets.UTF_8)), "h.jsonl");
        InputException e = assertThrows(InputException.class,
                () -> Checker.check(h, List.of(IsolationLevel.SERIALIZABLE), CheckOptions.DEFAULTS));
        expect(e, 4, "duplicate written value");
        assertTrue(e.getMessage().contains("already written by T0 (line 2)"), e.getMessage());
    }

    @Test
    void nonMiniTransactionHistoryNamesTheFirstOffendingTransaction() throws Exception {
        History h = HistoryFormat.JSONL.reader().read(new ByteArrayInputStream((OK1
                + "{\"index\":2,\"type\":\"invoke\",\"process\":2,\"f\":\"txn\",\"value\":[[\"w\",2,7]]}\n"
                + "{\"index\":3,\"type\":\"ok\",\"process\":2,\"f\":\"txn\",\"value\":[[\"w\",2,7]]}\n")
                .getBytes(StandardCharsets.UTF_8)), "h.jsonl");
        // The mini-transaction checkers refuse it, naming the blind write; the facade sends it to the general checker.
        InputException e = assertThrows(InputException.class, () -> isostress.checker.mini.MiniChecker.check(h,
                List.of(IsolationLevel.SERIALIZABLE), CheckOptions.DEFAULTS));
        expect(e, 4, "transaction T1 (process 2) writes key 2 without reading it first");
        assertEquals(Checker.RW_REGISTER, Checker.check(h, List.of(IsolationLevel.SERIALIZABLE),
                CheckOptions.DEFAULTS).shape());
    }

    @Test
    void registersAndListsInOneHistoryAreRefused() throws Exception {
        History h = HistoryFormat.JSONL.reader().read(new ByteArrayInputStream((OK1
                + "{\"index\":2,\"type\":\"invoke\",\"process\":2,\"f\":\"txn\",\"value\":[[\"append\",2,7]]}\n"
                + "{\"index\":3,\"type\":\"ok\",\"process\":2,\"f\":\"txn\",\"value\":[[\"append\",2,7]]}\n")
                .getBytes(StandardCharsets.UTF_8)), "h.jsonl");
        InputException e = assertThrows(InputException.class,
                () -> Checker.check(h, List.of(IsolationLevel.SERIALIZABLE), CheckOptions.DEFAULTS));
        assertTrue(e.getMessage().contains("mixes register operations"), e.getMessage());
        assertTrue(e.line() > 0, e.getMessage());
    }

    @Test
    void formatDetection() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("fmt");
        java.nio.file.Path a = java.nio.file.Files.writeString(dir.resolve("a.log"), OK1);
        java.nio.file.Path b = java.nio.file.Files.writeString(dir.resolve("b.log"), "; comment\n{:index 0}");
        java.nio.file.Path c = java.nio.file.Files.writeString(dir.resolve("c.log"), "r(1,0,1,1)\n");
        java.nio.file.Path d = java.nio.file.Files.writeString(dir.resolve("d.log"), "hello\n");
        assertEquals(HistoryFormat.JSONL, HistoryFormat.detect(a));
        assertEquals(HistoryFormat.EDN, HistoryFormat.detect(b));
        assertEquals(HistoryFormat.TEXT, HistoryFormat.detect(c));
        assertThrows(InputException.class, () -> HistoryFormat.detect(d));
    }
}
