package isostress.harness.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.MtcAnomaly;
import isostress.generator.KeyDistribution;
import isostress.generator.sim.AnomalyInjector;
import isostress.generator.sim.MiniSimulation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code isostress check}: verdicts, exit statuses 0/1/2/3, messages, --json and --out. */
class CheckCommandTest {
    static final Path CORPUS = Path.of("../checker/src/test/resources/corpus");

    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter(), err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    Path write(History h, String name, HistoryFormat f) throws Exception {
        Path p = dir.resolve(name);
        try (OutputStream o = Files.newOutputStream(p)) {
            f.write(h, o);
        }
        return p;
    }

    static History simulated(int txns) {
        return MiniSimulation.history(MiniSimulation.Config.serializable(txns, 4, new KeyDistribution.Uniform(10), 7));
    }

    @Test
    void validHistoryExitsZero() throws Exception {
        Path f = write(simulated(300), "valid.jsonl", HistoryFormat.JSONL);
        Run r = run("check", f.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("verdict: VALID"), r.out());
        assertTrue(r.out().contains("strict-serializable"), "default level with real time: " + r.out());
    }

    @Test
    void lostUpdateExitsOneWithAnExplainedCounterexample() {
        Run r = run("check", CORPUS.resolve("text/mtc-anomaly-lost-update.txt").toString(), "--level", "si");
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("lost-update (LostUpdate)"), r.out());
        // A lost update breaks NOCONFLICT, so parallel snapshot isolation, weaker than SI, is violated already.
        assertTrue(r.out().contains("weakest level violated: parallel-snapshot-isolation"), r.out());
        assertTrue(r.out().contains("one update was lost"), r.out());
        // Prefix consistency would need a search with a lost update: left out, and said so in one line.
        assertTrue(r.out().contains("not examined: with lost updates it takes a search"), r.out());
        assertTrue(r.out().contains("--level pc"), r.out());
    }

    /** A long fork breaks snapshot isolation, not parallel snapshot isolation, and is named. */
    @Test
    void longForkIsPsiButNotSi() {
        Run r = run("check", CORPUS.resolve("text/mtc-anomaly-long-fork.txt").toString(), "--level", "psi,si");
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().matches("(?s).*parallel-snapshot-isolation +valid.*"), r.out());
        assertTrue(r.out().matches("(?s).*snapshot-isolation +invalid.*"), r.out());
        assertTrue(r.out().contains("long-fork (LongFork)"), r.out());
        assertTrue(r.out().contains("weakest level violated: prefix"), r.out());
        Run psi = run("check", CORPUS.resolve("text/mtc-anomaly-long-fork.txt").toString(), "--level",
                "parallel-snapshot-isolation");
        assertEquals(0, psi.code(), psi.out() + psi.err());
    }

    @Test
    void jsonOutputAndOutDirectory() throws Exception {
        Path f = write(AnomalyInjector.inject(simulated(200), MtcAnomaly.WRITE_SKEW), "skew.edn", HistoryFormat.EDN);
        Path out = dir.resolve("out");
        Run r = run("check", f.toString(), "--json", "--out", out.toString(), "--level", "si,ser");
        assertEquals(1, r.code(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals("invalid", j.get("verdict").asText());
        assertEquals("valid", j.get("levels").get("snapshot-isolation").get("verdict").asText());
        assertEquals("serializable", j.get("weakest_violated").get(0).asText());
        JsonNode a = j.get("anomalies").get(0);
        assertEquals("G2-item", a.get("name").asText());
        assertEquals("WriteSkew", a.get("alias").asText());
        assertEquals("rw", a.get("steps").get(0).get("kind").asText());
        assertTrue(Files.exists(out.resolve("results.json")));
        assertTrue(Files.exists(out.resolve("anomalies/G2-item-1.txt")));
        String dot = Files.readString(out.resolve("anomalies/G2-item-1.dot"));
        assertTrue(dot.startsWith("digraph") && dot.contains("->") && dot.contains("rw"), dot);
    }

    @Test
    void unknownOutcomeIsPlacedByTheGeneralCheckerAndALimitExitsThree() throws Exception {
        // T1 (info) wrote x without a recorded read; T2 read T1's write: T1 committed. The mini-transaction checkers
        // cannot place its write; the general checker treats it as a blind write and decides.
        Path f = dir.resolve("unknown.jsonl");
        Files.writeString(f, String.join("\n",
                "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\",1,null],[\"w\",1,5]]}",
                "{\"index\":1,\"type\":\"info\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\",1,null],[\"w\",1,5]]}",
                "{\"index\":2,\"type\":\"invoke\",\"process\":2,\"f\":\"txn\",\"value\":[[\"r\",1,null]]}",
                "{\"index\":3,\"type\":\"ok\",\"process\":2,\"f\":\"txn\",\"value\":[[\"r\",1,5]]}", ""));
        Run r = run("check", f.toString(), "--level", "ser");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("checker: rw-register"), r.out());

        // Two blind writers of x; T2 also writes y, which T3 reads together with T1's x. Taking the writers in
        // completion order (T1 before T2, the cheap witness the polygraph tries first) closes a cycle T3 -rw-> T2
        // -wr-> T3, so the order stays open for the search, and no pair may stay open under the limit.
        Path g = dir.resolve("open.jsonl");
        Files.writeString(g, String.join("\n",
                "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"w\",1,1]]}",
                "{\"index\":1,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"w\",1,1]]}",
                "{\"index\":2,\"type\":\"invoke\",\"process\":2,\"f\":\"txn\",\"value\":[[\"w\",1,2],[\"w\",2,1]]}",
                "{\"index\":3,\"type\":\"ok\",\"process\":2,\"f\":\"txn\",\"value\":[[\"w\",1,2],[\"w\",2,1]]}",
                "{\"index\":4,\"type\":\"invoke\",\"process\":3,\"f\":\"txn\",\"value\":[[\"r\",1,null],[\"r\",2,null]]}",
                "{\"index\":5,\"type\":\"ok\",\"process\":3,\"f\":\"txn\",\"value\":[[\"r\",1,1],[\"r\",2,1]]}", ""));
        Run limited = run("check", g.toString(), "--level", "ser", "--max-open-pairs", "0");
        assertEquals(3, limited.code(), limited.out() + limited.err());
        assertTrue(limited.out().contains("unknown") && limited.out().contains("unordered"), limited.out());
        Run decided = run("check", g.toString(), "--level", "ser");
        assertEquals(0, decided.code(), decided.out() + decided.err());
    }

    @Test
    void badInputAndUsageExitTwo() throws Exception {
        Run missing = run("check", dir.resolve("nope.jsonl").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("no such file"), missing.err());

        Run level = run("check", CORPUS.resolve("text/mtc-anomaly-lost-update.txt").toString(), "--level", "acid");
        assertEquals(2, level.code());
        assertTrue(level.err().contains("unknown level 'acid'"), level.err());

        Run general = run("check", CORPUS.resolve("text/polysi-galera-lost-update.txt").toString());
        assertEquals(1, general.code(), general.out() + general.err());
        assertTrue(general.out().contains("checker: rw-register") && general.out().contains("lost-update"),
                general.out());

        Run noRealTime = run("check", CORPUS.resolve("text/mtc-anomaly-lost-update.txt").toString(), "--level", "sser");
        assertEquals(2, noRealTime.code());
        assertTrue(noRealTime.err().contains("no real-time order"), noRealTime.err());

        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\",1,null]]}\n"
                + "{\"index\":1,\"type\":\"ok\",\"process\":1,\"value\":[[\"r\",1,\n");
        Run malformed = run("check", bad.toString());
        assertEquals(2, malformed.code());
        assertTrue(malformed.err().contains("bad.jsonl:2"), malformed.err());

        Run badFormat = run("check", bad.toString(), "--format", "xml");
        assertEquals(2, badFormat.code());
        assertTrue(badFormat.err().contains("unknown --format 'xml'"), badFormat.err());
    }

    @Test
    void everyMiniCorpusFileGetsItsVerdictThroughTheCommandLine() throws Exception {
        try (Stream<Path> files = Files.list(CORPUS.resolve("text"))) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.getFileName().toString().startsWith("mtc-"))::iterator) {
                boolean skew = f.getFileName().toString().contains("write-skew");
                Run si = run("check", f.toString(), "--level", "si");
                assertEquals(skew ? 0 : 1, si.code(), f + ": " + si.out() + si.err());
            }
        }
    }

    @Test
    void exportWritesEdnAndTextThatReadBackAndCheckTheSame() throws Exception {
        Path run = Files.createDirectories(dir.resolve("run"));
        History h = simulated(400);
        write(h, "run/history.jsonl", HistoryFormat.JSONL);
        Run edn = run("export", "--to", "edn", run.toString());
        assertEquals(0, edn.code(), edn.out() + edn.err());
        History back = HistoryFormat.EDN.read(run.resolve("history.edn"));
        assertEquals(h.size(), back.size());
        Run text = run("export", "--to", "text", run.toString(), "--out", dir.resolve("h.txt").toString());
        assertEquals(0, text.code(), text.out() + text.err());
        assertEquals(h.size(), HistoryFormat.TEXT.read(dir.resolve("h.txt")).size());
        Run check = run("check", run.resolve("history.edn").toString(), "--level", "ser");
        assertEquals(0, check.code(), check.out() + check.err());
        Run bad = run("export", "--to", "dbcop", run.toString());
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("edn or text"), bad.err());
    }

    @Test
    void knossosRegisterHistoryIsCheckedForLinearizability() throws Exception {
        // A stale read after a completed write; exit 1 with the counterexample.
        Path bad = Path.of("../checker/src/test/resources/jepsen/cas-register-stale-read-bad.edn");
        Run b = run("check", bad.toString());
        assertEquals(1, b.code(), b.out() + b.err());
        assertTrue(b.out().matches("(?s).*linearizable +invalid.*"), b.out());
        assertTrue(b.out().contains("T2 = {r register 1} (process 1, ok, events 4..5, line 8)"), b.out());
        assertTrue(b.out().contains("the furthest linearization, T0, T1, leaves it = 2, and then T2 cannot be placed"),
                b.out());
        Run ok = run("check", "../checker/src/test/resources/jepsen/cas-register-ok.edn");
        assertEquals(0, ok.code(), ok.out() + ok.err());
        assertTrue(ok.out().matches("(?s).*linearizable +valid.*"), ok.out());
    }

    @Test
    void inputTheReadersDoNotUnderstandExitsTwoNamingFileAndLine() throws Exception {
        // Older versions printed these as "0 transactions ... verdict: VALID", or as exit 1 or 70.
        Path knossos = dir.resolve("cas-register.edn");
        Files.writeString(knossos, "{:type :invoke, :f :read, :value nil, :process 0, :index 0}\n"
                + "{:type :ok, :f :read, :value :a, :process 0, :index 1}\n");
        Run k = run("check", knossos.toString());
        assertEquals(2, k.code(), k.out() + k.err());
        assertTrue(k.err().contains("cas-register.edn:2: :read value must be an integer or nil, got :a"), k.err());
        assertTrue(k.out().isEmpty(), "no verdict: " + k.out());

        Path empty = Files.writeString(dir.resolve("empty.jsonl"), "");
        Run e = run("check", empty.toString());
        assertEquals(2, e.code(), e.out() + e.err());
        assertTrue(e.err().contains("empty.jsonl:1: no transactions"), e.err());

        Path deep = Files.writeString(dir.resolve("deep.edn"), "[".repeat(1_000_000));
        Run d = run("check", deep.toString());
        assertEquals(2, d.code(), d.out() + d.err());
        assertTrue(d.err().contains("deep.edn:1: malformed EDN: forms nest more than"), d.err());

        Path sql = dir.resolve("bad-utf8.sql.jsonl");
        Files.write(sql, concat("{\"format\":\"isostress-sql\",\"version\":1}\n\n{\"type\":\"txn\",\"id\":",
                new byte[] {(byte) 0xFF}, "}\n"));
        Run u = run("check", sql.toString());
        assertEquals(2, u.code(), u.out() + u.err());
        assertTrue(u.err().contains("bad-utf8.sql.jsonl:3: invalid UTF-8: byte 0xFF"), u.err());
        assertTrue(!u.err().contains("\tat "), "no stack trace: " + u.err());
    }

    @Test
    void nemesisEventsAreCountedInTheSummary() throws Exception {
        Path f = dir.resolve("nemesis.edn");
        Files.writeString(f, String.join("\n",
                "{:type :invoke, :f :txn, :value [[:append 1 1]], :process 0, :index 0}",
                "{:type :info, :f :start-partition, :value [\"n1\"], :process :nemesis, :index 1}",
                "{:type :ok, :f :txn, :value [[:append 1 1]], :process 0, :index 2}",
                "{:type :info, :f :stop-partition, :value nil, :process :nemesis, :index 3}", ""));
        Run r = run("check", f.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("1 transactions") && r.out().contains("; 2 nemesis events not checked"), r.out());
    }

    /** A command that overflows the stack, standing for a reader or checker on a huge input. */
    @CommandLine.Command(name = "overflow")
    static final class Overflow implements java.util.concurrent.Callable<Integer> {
        @Override
        public Integer call() {
            throw new StackOverflowError();
        }
    }

    @Test
    void anErrorExitsSeventyNotOne() {
        // picocli lets Errors escape, and an uncaught one ends the JVM with status 1, which reads as "invalid".
        CommandLine cl = Main.commandLine();
        cl.addSubcommand("overflow", new Overflow());
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        assertEquals(Main.INTERNAL, cl.execute("overflow"));
        assertTrue(err.toString().contains("internal error: java.lang.StackOverflowError"), err.toString());
    }

    static byte[] concat(String a, byte[] b, String c) {
        byte[] x = a.getBytes(java.nio.charset.StandardCharsets.UTF_8), z = c.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] out = new byte[x.length + b.length + z.length];
        System.arraycopy(x, 0, out, 0, x.length);
        System.arraycopy(b, 0, out, x.length, b.length);
        System.arraycopy(z, 0, out, x.length + b.length, z.length);
        return out;
    }

    /** The recorded sql run of the report tests: valid at its own levels, invalid as all-serializable. */
    static final Path SQL = Path.of("src/test/resources/isostress/harness/report/sql/history.jsonl");

    /**
     * An isostress-sql history goes through the same pipeline as any other: {@code --out} writes results.json (the
     * same top-level keys as a key-value history's) and anomalies/ (.txt with the SQL argument, .dot with the
     * commit-order cycle), and {@code --json} prints that results.json.
     */
    /**
     * The commit log of {@code h} (a mini-transaction history) as a witness file: each ok transaction with writes, one
     * log transaction, in a commit order its data allows: each writer after the writer of the version it read and
     * overwrote (the log's order is the version order the check takes), otherwise by id.
     */
    static List<String> witnessOf(History h) {
        java.util.Map<Long, java.util.Map<Long, Integer>> writerOf = new java.util.HashMap<>();
        for (isostress.checker.history.Txn t : h) {
            if (t.outcome() != isostress.checker.history.Outcome.OK) continue;
            for (isostress.checker.history.MicroOp m : t.ops()) {
                if (m instanceof isostress.checker.history.MicroOp.Write x) {
                    writerOf.computeIfAbsent(x.key(), k -> new java.util.HashMap<>()).put(x.value(), t.id());
                }
            }
        }
        // Writer of the version read -> the transaction that overwrote it; then a topological order, smallest id first.
        java.util.Map<Integer, List<Integer>> next = new java.util.HashMap<>();
        java.util.Map<Integer, Integer> before = new java.util.HashMap<>();
        java.util.Map<Integer, isostress.checker.history.Txn> writers = new java.util.TreeMap<>();
        for (isostress.checker.history.Txn t : h) {
            if (t.outcome() != isostress.checker.history.Outcome.OK) continue;
            java.util.Set<Long> seen = new java.util.HashSet<>();
            for (isostress.checker.history.MicroOp m : t.ops()) {
                if (m instanceof isostress.checker.history.MicroOp.Write) writers.put(t.id(), t);
                if (!(m instanceof isostress.checker.history.MicroOp.Read r) || !seen.add(r.key())) continue;
                Integer w = r.value() == null ? null : writerOf.getOrDefault(r.key(), java.util.Map.of()).get(r.value());
                boolean overwrites = t.ops().stream().anyMatch(o -> o instanceof isostress.checker.history.MicroOp.Write x
                        && x.key() == r.key());
                if (w != null && w != t.id() && overwrites) {
                    next.computeIfAbsent(w, k -> new java.util.ArrayList<>()).add(t.id());
                    before.merge(t.id(), 1, Integer::sum);
                }
            }
        }
        java.util.PriorityQueue<Integer> ready = new java.util.PriorityQueue<>();
        for (int t : writers.keySet()) if (!before.containsKey(t)) ready.add(t);
        List<String> lines = new java.util.ArrayList<>();
        while (!ready.isEmpty()) {
            isostress.checker.history.Txn t = writers.get(ready.poll());
            for (int u : next.getOrDefault(t.id(), List.of())) if (before.merge(u, -1, Integer::sum) == 0) ready.add(u);
            StringBuilder w = new StringBuilder();
            for (isostress.checker.history.MicroOp m : t.ops()) {
                if (!(m instanceof isostress.checker.history.MicroOp.Write x)) continue;
                w.append(w.length() == 0 ? "" : ",").append("[\"w\",").append(x.key()).append(',').append(x.value())
                        .append(']');
            }
            lines.add("{\"pos\":" + (lines.size() + 1) + ",\"node\":\"n1\",\"txid\":\"" + (500 + t.id())
                    + "\",\"writes\":[" + w + "]}");
        }
        return lines;
    }

    @Test
    void witnessJoinPrintsItsSummaryAndExitsZeroOneOrTwo() throws Exception {
        History h = simulated(300);
        Path f = write(h, "h.jsonl", HistoryFormat.JSONL);
        List<String> log = witnessOf(h);
        Path clean = dir.resolve("witness.jsonl");
        Files.write(clean, log);
        Run ok = run("check", f.toString(), "--witness", clean.toString());
        assertEquals(0, ok.code(), ok.out() + ok.err());
        assertTrue(ok.out().contains(String.format(java.util.Locale.ROOT, "witness: %,d log transactions; %,d matched; "
                + "info resolved 0 committed, 0 aborted; 0 lost, 0 split, 0 failed-but-committed, 0 unrecorded%n",
                log.size(), log.size())), ok.out());
        assertTrue(ok.out().contains("verdict: VALID"), ok.out());

        // One acknowledged commit dropped from the log: a lost write, exit 1, explained with the other findings.
        Path lost = dir.resolve("lost.jsonl");
        Files.write(lost, log.subList(1, log.size()));
        Path out = dir.resolve("witness-out");
        Run invalid = run("check", f.toString(), "--witness", lost.toString(), "--out", out.toString());
        assertEquals(1, invalid.code(), invalid.out() + invalid.err());
        assertTrue(invalid.out().contains("verdict: INVALID — the history disagrees with the database's commit log"),
                invalid.out());
        assertTrue(invalid.out().contains("1 lost, 0 split"), invalid.out());
        assertTrue(invalid.out().contains("witness findings: lost-write ×1"), invalid.out());
        assertTrue(invalid.out().contains("an acknowledged commit was lost"), invalid.out());
        assertTrue(Files.readString(out.resolve("anomalies/lost-write-1.txt")).startsWith("lost-write — "));
        JsonNode j = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertEquals("invalid", j.get("verdict").asText());
        assertEquals(1, j.get("witness").get("lost_write").asInt());
        assertEquals(log.size() - 1, j.get("witness").get("matched").asInt());

        // A bad witness line: exit 2 with file:line.
        Path bad = dir.resolve("bad-witness.jsonl");
        Files.write(bad, List.of(log.get(0), log.get(1), "{\"pos\":1,\"node\":\"n1\",\"txid\":\"9\",\"writes\":[]}"));
        Run two = run("check", f.toString(), "--witness", bad.toString());
        assertEquals(2, two.code(), two.out() + two.err());
        assertTrue(two.err().contains("bad-witness.jsonl:3: \"pos\" 1 does not increase within node \"n1\""),
                two.err());
        Run sql = run("check", SQL.toString(), "--witness", clean.toString());
        assertEquals(2, sql.code(), sql.out() + sql.err());
        assertTrue(sql.err().contains("--witness applies to key-value histories"), sql.err());
    }

    /**
     * With a witness, the log's per-key order is the version order: T0 (w 1 1, r 2 nil) and T1 (w 1 2, w 2 5) are
     * serializable with T0 first, but the log commits T1 first, closing T0 -rw-> T1 -ww-> T0.
     * {@code --witness-order false} searches for the order as without the log.
     */
    @Test
    void witnessOrderIsTheVersionOrderUnlessTurnedOff() throws Exception {
        Path f = dir.resolve("skew.jsonl");
        Files.write(f, List.of(
                "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"w\",1,1],[\"r\",2,null]]}",
                "{\"index\":1,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"w\",1,1],[\"r\",2,null]]}",
                "{\"index\":2,\"type\":\"invoke\",\"process\":2,\"f\":\"txn\",\"value\":[[\"w\",1,2],[\"w\",2,5]]}",
                "{\"index\":3,\"type\":\"ok\",\"process\":2,\"f\":\"txn\",\"value\":[[\"w\",1,2],[\"w\",2,5]]}"));
        Path w = dir.resolve("skew-witness.jsonl");
        Files.write(w, List.of("{\"pos\":17,\"node\":\"n1\",\"txid\":\"731\",\"writes\":[[\"w\",1,2],[\"w\",2,5]]}",
                "{\"pos\":23,\"node\":\"n1\",\"txid\":\"732\",\"writes\":[[\"w\",1,1]]}"));
        Run withOrder = run("check", f.toString(), "--witness", w.toString(), "--level", "serializable");
        assertEquals(1, withOrder.code(), withOrder.out() + withOrder.err());
        assertTrue(withOrder.out().contains("version order: the database's commit log for 2 key(s)\n"),
                withOrder.out());
        assertTrue(withOrder.out().contains("T0 overwrote key 1 = 2, written by T1, with 1 in the database's commit "
                + "order (log n1 pos 17 → pos 23)"), withOrder.out());
        Run searched = run("check", f.toString(), "--witness", w.toString(), "--level", "serializable",
                "--witness-order", "false");
        assertEquals(0, searched.code(), searched.out() + searched.err());
        assertTrue(!searched.out().contains("version order:"), searched.out());
    }

    @Test
    void sqlHistoryWritesResultsJsonAndAnomaliesLikeAnyOther() throws Exception {
        Path out = dir.resolve("sql-out");
        Run r = run("check", SQL.toString(), "--level", "serializable", "--out", out.toString());
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("serializable         invalid  cycle in so ∪ wr ∪ saturated co"), r.out());
        var m = new com.fasterxml.jackson.databind.ObjectMapper();
        var sql = m.readTree(out.resolve("results.json").toFile());
        assertEquals("invalid", sql.path("verdict").asText());
        assertEquals("commit-order-cycle", sql.path("anomalies").get(0).path("name").asText());
        var argument = sql.path("anomalies").get(0).path("argument");
        assertTrue(argument.path("let").get(1).asText().contains("UPDATE acct (s2-t8-1) WHERE grp = 0 AND NOT deleted"),
                "the statements and rows, as the SQL checker explains them: " + argument);
        assertEquals(List.of(16L, 26L), m.convertValue(argument.path("cycle"), new com.fasterxml.jackson.core.type.TypeReference<List<Long>>() {}));
        String txt = Files.readString(out.resolve("anomalies/commit-order-cycle-1.txt"));
        assertTrue(txt.contains("Let:") && txt.contains("However:") && txt.contains("a contradiction!"), txt);
        String dot = Files.readString(out.resolve("anomalies/commit-order-cycle-1.dot"));
        assertTrue(dot.contains("T16 -> T26") && dot.contains("T26 -> T16"), dot);

        Path kv = dir.resolve("kv-out");
        assertEquals(0, run("check", write(simulated(50), "v.jsonl", HistoryFormat.JSONL).toString(), "--out",
                kv.toString()).code());
        assertEquals(names(m.readTree(kv.resolve("results.json").toFile())), names(sql), "one results.json schema");
        Run json = run("check", SQL.toString(), "--level", "serializable", "--json");
        assertEquals(names(sql), names(m.readTree(json.out())), "--json prints the same document");
    }

    /** The SQL history's own-levels check is one more entry in the levels, named {@code own}. */
    @Test
    void sqlHistoryWithoutLevelIsCheckedAtEachTransactionsOwnLevel() throws Exception {
        Run r = run("check", SQL.toString(), "--json");
        assertEquals(0, r.code(), r.out() + r.err());
        var root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
        assertEquals("valid", root.path("levels").path("own").path("verdict").asText(), r.out());
        assertEquals(1, root.path("levels").size());
    }

    /** Options the SQL checker has no use for are rejected in one sentence; those it uses are honoured. */
    @Test
    void sqlHistoryRejectsOrHonoursEveryOption() throws Exception {
        Run pairs = run("check", SQL.toString(), "--max-open-pairs", "1000");
        assertEquals(2, pairs.code(), pairs.out() + pairs.err());
        assertTrue(pairs.err().contains("--max-open-pairs applies to the polygraph solver of rw-register/list-append "
                + "histories; this is an isostress-sql history"), pairs.err());
        Run none = run("check", SQL.toString(), "--level", "ser,si", "--max-anomalies", "0", "--json");
        assertEquals(1, none.code(), none.err());
        var root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(none.out());
        assertEquals(0, root.path("anomalies").size(), "--max-anomalies 0 lists none");
        assertEquals(2, root.path("anomalies_omitted").asInt(), "and counts them");
        Run budget = run("check", SQL.toString(), "--search-budget", "1");
        assertEquals(3, budget.code(), "a budget of one state is too small: unknown, not a guess\n" + budget.out());
        assertTrue(budget.out().contains("search budget of 1 states exhausted"), budget.out());
        Run level = run("check", SQL.toString(), "--level", "causal");
        assertEquals(2, level.code());
        assertTrue(level.err().contains("the SQL checker supports read-committed, read-atomic, prefix, "
                + "snapshot-isolation and serializable, not causal"), level.err());
    }

    private static java.util.Set<String> names(com.fasterxml.jackson.databind.JsonNode n) {
        java.util.Set<String> s = new java.util.TreeSet<>();
        n.fieldNames().forEachRemaining(s::add);
        return s;
    }
}
