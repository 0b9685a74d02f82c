package isostress.checker.history;

import isostress.checker.history.HistoryFuzz.Seed;
import isostress.checker.history.HistoryFuzz.Target;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The seed histories of {@link HistoryFuzz}: test resources (fuzz/README.md), writer output, dbcop, Cobra, SQL, Chronos. */
final class FuzzSeeds {
    private FuzzSeeds() {
    }

    /** Every seed, in a fixed order (cases name seeds by index). */
    static List<Seed> all() {
        try {
            List<Seed> s = new ArrayList<>();
            for (String f : List.of("corpus/elle/paper-example.edn", "corpus/elle/si-without-g-single.edn",
                    "fuzz/elle-nemesis-slice.edn", "fuzz/knossos-cas-register.edn")) {
                s.add(new Seed(name(f), Target.EDN, resource("/" + f)));
            }
            for (String f : List.of("mtc-anomaly-write-skew.txt", "mtc-anomaly-long-fork.txt",
                    "mtc-galera-lost-update.txt", "polysi-galera-lost-update.txt",
                    "isovista-postgres-12.3-ser-bug.txt")) {
                s.add(new Seed(f, Target.TEXT, resource("/corpus/text/" + f)));
            }
            // Histories the checker's own writers produce: every op kind, outcomes, headers, nemesis events.
            for (long seed = 0; seed < 6; seed++) {
                History h = RoundTripTest.random(seed * 7 + 1);
                s.add(new Seed("writer-" + seed + ".jsonl", Target.JSONL, write(h, HistoryFormat.JSONL)));
                s.add(new Seed("writer-" + seed + ".edn", Target.EDN, write(h, HistoryFormat.EDN)));
            }
            // elle-cli's JSON input: the same ops as one JSON array, on one line and pretty-printed.
            String lines = JsonArrayOpsTest.jsonl(RoundTripTest.random(3));
            s.add(new Seed("array-line.json", Target.JSONL, JsonArrayOpsTest.oneLine(lines)
                    .getBytes(StandardCharsets.UTF_8)));
            s.add(new Seed("array-pretty.json", Target.JSONL, JsonArrayOpsTest.pretty(JsonArrayOpsTest.jsonl(
                    RoundTripTest.random(4))).getBytes(StandardCharsets.UTF_8)));
            s.add(new Seed("header.jsonl", Target.JSONL, ("{\"type\":\"header\",\"real-time\":false,"
                    + "\"initial-default\":0,\"initial\":[[\"w\",3,9]]}\n" + BadInputTest.OK1
                    + "{\"index\":2,\"type\":\"info\",\"process\":\"nemesis\",\"f\":\"kill\",\"value\":{\"n1\":1}}\n")
                    .getBytes(StandardCharsets.UTF_8)));
            s.add(new Seed("writer-text.txt", Target.TEXT, write(HistoryFormat.TEXT.reader().read(
                    new ByteArrayInputStream(resource("/corpus/text/mtc-galera-lost-update.txt")), "t"), HistoryFormat.TEXT)));
            s.add(new Seed("dbcop-lost-update.json", Target.DBCOP, resource("/formats/dbcop-lost-update.json")));
            s.add(new Seed("dbcop-legacy.json", Target.DBCOP, DbcopReaderTest.LEGACY.getBytes(StandardCharsets.UTF_8)));
            s.add(new Seed("history.bincode", Target.DBCOP, DbcopReaderTest.legacyBincode()));
            s.add(new Seed("T2.log", Target.COBRA, new CobraReaderTest.Log().start(100)
                    .read(CobraReader.INIT_TXN_ID, CobraReader.INIT_WRITE_ID, 7, 777).write(1001, 7, 555).commit(100)
                    .start(101).read(100, 1001, 7, 555).write(1002, 8, 1).commit(101).start(102).write(1003, 8, 2)
                    .abort(102).bytes.toByteArray()));
            byte[] sql = resource("/isostress/checker/sql/pg16-sql-mixed-seed1.jsonl");
            // The recording's first transactions: its 15 KB whole costs ten times more to check for little more.
            s.add(new Seed("sql-head.jsonl", Target.SQL, firstLines(sql, 6)));
            s.add(new Seed("sql-head-20.jsonl", Target.SQL, firstLines(sql, 20)));
            // Chronos/TimeKiller JSON, key-value and list (added last: cases name seeds by index).
            s.add(new Seed("chronos-write-skew.json", Target.CHRONOS,
                    ChronosReaderTest.WRITE_SKEW.getBytes(StandardCharsets.UTF_8)));
            s.add(new Seed("chronos-list.json", Target.CHRONOS, ChronosReaderTest.LIST.getBytes(StandardCharsets.UTF_8)));
            return List.copyOf(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static byte[] write(History h, HistoryFormat f) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        f.write(h, out);
        return out.toByteArray();
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = FuzzSeeds.class.getResourceAsStream(name)) {
            if (in == null) throw new IOException("test resource " + name + " not found");
            return in.readAllBytes();
        }
    }

    private static byte[] firstLines(byte[] b, int lines) {
        int i = 0;
        for (int seen = 0; i < b.length && seen < lines; i++) if (b[i] == '\n') seen++;
        return Arrays.copyOf(b, i);
    }
}
