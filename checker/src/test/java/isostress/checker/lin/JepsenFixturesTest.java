package isostress.checker.lin;

import isostress.checker.model.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.explain.ResultJson;
import isostress.checker.explain.TextRenderer;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.history.InputException;
import isostress.checker.model.Anomaly;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hand-written Jepsen fixtures (test resources {@code jepsen/}, the expected verdict in each name,
 * as Porcupine's {@code c10-ok.txt}/{@code c10-bad.txt}), keys of any scalar type, and the counterexample's content.
 */
class JepsenFixturesTest {
    static final Path DIR = Path.of("src/test/resources/jepsen");

    @TestFactory
    Stream<DynamicTest> verdictInTheFileName() throws Exception {
        return Files.list(DIR).sorted().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
            History h = HistoryFormat.detect(f).read(f);
            Result r = Checker.check(h, Checker.defaultLevels(h), CheckOptions.DEFAULTS);
            Verdict want = f.getFileName().toString().contains("-bad.") ? Verdict.INVALID : Verdict.VALID;
            assertEquals(want, r.verdict(), f + ": " + r.levels());
            if (h.registerOps()) {
                assertEquals(java.util.List.of(IsolationLevel.LINEARIZABLE), r.requested());
                assertEquals(want == Verdict.VALID, isostress.checker.reference.RegisterBruteForce.linearizable(h));
            }
        }));
    }

    @Test
    void counterexampleNamesTheOpThatCannotBePlacedAndTheShortestPrefix() throws Exception {
        History h = HistoryFormat.EDN.read(DIR.resolve("cas-register-thin-air-bad.edn"));
        Result r = Checker.check(h);
        assertEquals(1, r.anomalies().size());
        Anomaly a = r.anomalies().get(0);
        assertEquals("nonlinearizable", a.name());
        assertEquals(3, a.txns().get(0).id(), "the read of 7 is the op that cannot be placed");
        String text = TextRenderer.render(a);
        assertTrue(text.contains("No order of the events up to index 7 (line 10) is legal for key register; the "
                + "furthest linearization, T0, T1, leaves it = 2, and then T3 cannot be placed."), text);
        assertTrue(text.contains("T3 (r register 7, ok) cannot be linearized"), text);
    }

    @Test
    void independentKeysKeepTheirSpellingInTextAndJson() throws Exception {
        History h = HistoryFormat.EDN.read(DIR.resolve("independent-bad.edn"));
        Result r = Checker.check(h);
        Anomaly a = r.anomalies().get(0);
        assertTrue(TextRenderer.render(a).contains("T2 = {cas :y nil 5}"), TextRenderer.render(a));
        String json = ResultJson.toString(r).replaceAll("\\s", "");
        assertTrue(json.contains("\"key\":\":y\""), json);
        assertTrue(json.contains("[\"cas\",\":y\",[null,5]]"), json);
    }

    @Test
    void searchBudgetGivesUnknownNotAGuess() throws Exception {
        History h = HistoryFormat.EDN.read(DIR.resolve("cas-register-ok.edn"));
        Result r = Checker.check(h, Checker.defaultLevels(h), CheckOptions.DEFAULTS.withSearchBudget(3));
        assertEquals(Verdict.UNKNOWN, r.verdict());
        assertTrue(r.level(IsolationLevel.LINEARIZABLE).reason().startsWith("search budget of 3 steps exhausted"),
                r.level(IsolationLevel.LINEARIZABLE).reason());
        Result full = Checker.check(h, Checker.defaultLevels(h), CheckOptions.DEFAULTS);
        assertEquals(Verdict.VALID, full.verdict());
        assertTrue((Long) full.stats().get("search_steps") > 3, full.stats().toString());
    }

    @Test
    void keysOfAnyScalarType() throws Exception {
        // Keyword, string, boolean, float and integer keys are distinct keys of one history.
        History h = edn("{:index 0, :type :invoke, :process 0, :f :txn, :value [[:w :x 1] [:w \"x\" 2] [:w true 3] "
                + "[:w 1.5 5] [:w 7 6]]}\n"
                + "{:index 1, :type :ok, :process 0, :f :txn, :value [[:w :x 1] [:w \"x\" 2] [:w true 3] "
                + "[:w 1.5 5] [:w 7 6]]}\n");
        java.util.List<String> names = new java.util.ArrayList<>();
        for (int o = 0; o < h.opCount(); o++) names.add(h.keyName(h.opKey(o)));
        assertEquals(java.util.List.of(":x", "\"x\"", "true", "1.5", "7"), names);
        assertEquals(7, h.opKey(4), "integer keys keep their value as id");
        History j = HistoryFormat.JSONL.reader().read(new ByteArrayInputStream(("{\"index\":0,\"type\":\"invoke\","
                + "\"process\":0,\"f\":\"txn\",\"value\":[[\"w\",\"x\",1],[\"r\",\"x\",null]]}\n")
                .getBytes(StandardCharsets.UTF_8)), "h.jsonl");
        assertEquals(j.opKey(0), j.opKey(1));
        assertEquals("\"x\"", j.keyName(j.opKey(0)));
    }

    @Test
    void keywordKeysSurviveAnEdnRoundTrip() throws Exception {
        History h = HistoryFormat.EDN.read(DIR.resolve("elle-rw-register-keywords-bad.edn"));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        HistoryFormat.EDN.write(h, out);
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("[:w :x 1] [:w :y 1]"), text);
        History back = edn(text);
        assertEquals(h.keyName(h.opKey(0)), back.keyName(back.opKey(0)));
        assertEquals(Checker.check(h).verdict(), Checker.check(back).verdict());
    }

    @TestFactory
    Stream<DynamicTest> registerHistoriesRoundTripThroughEdnAndJsonl() throws Exception {
        return Files.list(DIR).sorted().filter(f -> !f.getFileName().toString().startsWith("elle-"))
                .flatMap(f -> Stream.of(HistoryFormat.EDN, HistoryFormat.JSONL).map(fmt ->
                        DynamicTest.dynamicTest(f.getFileName() + " -> " + fmt.cliName(), () -> {
                            History h = HistoryFormat.detect(f).read(f);
                            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                            fmt.write(h, out);
                            History back = fmt.reader().read(new ByteArrayInputStream(out.toByteArray()), "back");
                            assertTrue(back.registerOps());
                            assertEquals(h.independentRegisters(), back.independentRegisters());
                            // Equal but for source lines (the fixtures have comment lines).
                            assertEquals(h.txns().toString().replaceAll("line=\\d+", ""),
                                    back.txns().toString().replaceAll("line=\\d+", ""),
                                    out.toString(StandardCharsets.UTF_8));
                            // JSON has no keywords: an EDN :x is written as the string ":x" (JsonlWriter.key).
                            if (fmt == HistoryFormat.EDN || f.toString().endsWith(".jsonl")) {
                                assertEquals(h.keyNames(), back.keyNames());
                            }
                            assertEquals(Checker.check(h).verdict(), Checker.check(back).verdict());
                        })));
    }

    @Test
    void badRegisterOpsGetOneSentence() {
        assertMessage("{:index 0, :type :invoke, :process 0, :f :write, :value :a}\n",
                "h.edn:1: :write value must be an integer, got :a (register values are integers)");
        assertMessage("{:index 0, :type :invoke, :process 0, :f :write, :value [:x 1]}\n"
                        + "{:index 1, :type :invoke, :process 1, :f :write, :value 2}\n",
                "h.edn:2: this op is a single-register op (:f :read, :write or :cas) but the op at line 1 is an "
                        + "independent register op ([key value] tuple); a history holds one kind");
        assertMessage("{:index 0, :type :invoke, :process 0, :f :cas, :value [1 2.5]}\n",
                "h.edn:1: :cas value must be [old new] with integers (old may be nil), got [1, 2.5] (register values are integers)");
        assertMessage("{:index 0, :type :invoke, :process 0, :f :txn, :value [[:w :x 1]]}\n"
                        + "{:index 1, :type :invoke, :process 1, :f :txn, :value [[:w -9223372036854775808 1]]}\n",
                "h.edn:2: integer key -9223372036854775808 and non-integer keys in one history are not supported "
                        + "(their ids would collide)");
        assertMessage("{:index 0, :type :invoke, :process 0, :f :txn, :value [[:w nil 1]]}\n",
                "h.edn:1: a key must be a scalar (integer, keyword, string, boolean, character or float), got nil");
    }

    private static void assertMessage(String edn, String message) {
        InputException e = assertThrows(InputException.class, () -> edn(edn));
        assertEquals(message, e.getMessage());
    }

    private static History edn(String s) throws Exception {
        return HistoryFormat.EDN.reader().read(new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8)), "h.edn");
    }
}
