package isostress.checker.history;

import isostress.checker.model.CheckOptions;
import isostress.checker.CheckInput;
import isostress.checker.Checker;
import isostress.checker.sql.SqlHistory;
import isostress.checker.sql.SqlHistoryReader;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The history fuzzer shared by {@link HistoryFuzzTest} (in every build) and {@link HistoryFuzzBench} (long runs):
 * real seed histories in every format, mutated as fuzzers do (AFL's havoc stage: bit flips, inserted and deleted
 * bytes, splices of another seed, plus a dictionary of format tokens), and structured mutations aimed at what broke
 * the readers before: deep nesting, integers beyond 64 bits, invalid UTF-8, wrong-typed values, single-object
 * operations, nemesis events. {@link #check} is the property: the reader returns a history, which the checker then
 * checks (a verdict or an {@link InputException}), or it throws an {@link InputException} naming the file and the
 * line (the byte, for the binary formats); never another Throwable, and never slowly.
 */
final class HistoryFuzz {
    private HistoryFuzz() {
    }

    /** What reads a seed: one of the history formats, or the isostress-sql reader. */
    enum Target { JSONL, EDN, TEXT, DBCOP, COBRA, SQL, CHRONOS }

    /** A seed history: its bytes, how it is read, and the file name used in messages. */
    record Seed(String name, Target target, byte[] bytes) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** One mutation; positions are taken modulo the input's length when applied. */
    sealed interface Mutation permits Flip, Insert, Delete, Truncate, Splice, Repeat {
    }

    /** Flips bit {@code bit} of the byte at {@code pos}. */
    record Flip(int pos, int bit) implements Mutation {
    }

    /** Inserts {@code bytes} at {@code pos} (a token, invalid UTF-8, a huge number). */
    record Insert(int pos, Bytes bytes) implements Mutation {
    }

    /** Replaces {@code len} bytes at {@code pos} by {@code with}: a deletion when it is empty, else a wrong type. */
    record Delete(int pos, int len, Bytes with) implements Mutation {
    }

    /** Cuts the input at {@code pos}. */
    record Truncate(int pos) implements Mutation {
    }

    /** Puts {@code len} bytes of seed {@code other} from {@code from} at {@code pos}. */
    record Splice(int pos, int other, int from, int len) implements Mutation {
    }

    /** Inserts {@code unit} {@code times} times at {@code pos}: deep nesting, long numbers, long lines. */
    record Repeat(int pos, Bytes unit, int times) implements Mutation {
    }

    /** A byte string with a readable toString, for failure reports. */
    record Bytes(byte[] b) {
        static Bytes of(String s) {
            return new Bytes(s.getBytes(StandardCharsets.UTF_8));
        }

        static Bytes raw(int... v) {
            byte[] b = new byte[v.length];
            for (int i = 0; i < v.length; i++) b[i] = (byte) v[i];
            return new Bytes(b);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("\"");
            for (byte x : b) sb.append(x >= 32 && x < 127 ? String.valueOf((char) x) : String.format("\\x%02x", x));
            return sb.append('"').toString();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes && Arrays.equals(b, ((Bytes) o).b);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(b);
        }
    }

    /**
     * A seed, the mutations applied to it in order, and whether it goes through a file and format detection. Each
     * prefix of the mutations is an input of its own: the seed after one mutation, after two, and so on, so one
     * generated case is {@link #MIN_MUTATIONS} or more inputs.
     */
    record Case(int seed, List<Mutation> mutations, boolean viaFile) {
        /** The input after the first {@code k} mutations. */
        byte[] bytes(int k) {
            return mutate(SEEDS.get(seed).bytes(), mutations.subList(0, k));
        }

        /** The same case with one mutation less, for each mutation in turn (SeededFuzz's shrinking). */
        List<Case> smaller() {
            List<Case> out = new ArrayList<>();
            for (int i = 0; i < mutations.size(); i++) {
                List<Mutation> m = new ArrayList<>(mutations);
                m.remove(i);
                out.add(new Case(seed, List.copyOf(m), viaFile));
            }
            return out;
        }

        @Override
        public String toString() {
            return SEEDS.get(seed).name() + " " + mutations + (viaFile ? " through a file" : "");
        }
    }

    /** The fewest mutations of a case, so the fewest inputs it makes. */
    static final int MIN_MUTATIONS = 3;

    /** Tokens of the formats, wrong-typed values and the operations the readers must refuse. */
    static final List<String> DICTIONARY = List.of(
            "null", "true", "false", "\"x\"", "[]", "{}", "1.5", "-1", "0", "1e400", ",", ":", "\"", "[", "]", "{", "}",
            "\"nemesis\"", "\"read\"", "\"txn\"", "\"header\"", "\"invoke\"", "\"ok\"", "\"fail\"", "\"info\"",
            "\"r\"", "\"w\"", "\"append\"", "\"cas\"", "\"f\":\"read\",", "\"process\":\"nemesis\",",
            "\"process\":\"x\",", "\"type\":\"header\",", "\"real-time\":1,", "\"initial\":[[\"w\",1,2]],",
            "\"value\":{},", "\"node\":[1],", "\"index\":1,", "\"success\":true,", "\"events\":[],",
            "nil", ":nemesis", ":read", ":f :read", ":f :txn", ":process :nemesis", ":process \"p\"",
            ":type :header", ":type :info", "#_", "#{", "#", "\\", "\\a", "\\u12", "\"s\"", ";", "#jepsen.history.Op",
            "[:r 1 nil]", "[:append 1 2]", "[:cas 1 [2 3]]", "[:incr 1 2]", "(", ")",
            "r(", "w(", "r(1,0,1,1)\n", "\n", "\r\n", "\t", " ",
            "\"type\":\"init\",", "\"where\":true,", "{\"not\":", "\"w\":\"init\",", "\"writer\":\"init\",",
            "\"level\":\"sser\",", "\"extra\":1,",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            "18446744073709551615", "99999999999999999999999999", "NaN", "Infinity", "1/0", "0x10");

    /** Ill-formed UTF-8 (Unicode Table 3-7) and well-formed multi-byte characters. */
    static final List<Bytes> ENCODINGS = List.of(
            Bytes.raw(0xFF), Bytes.raw(0xC3, 0x28), Bytes.raw(0xED, 0xA0, 0x80), Bytes.raw(0xC0, 0x80),
            Bytes.raw(0xF4, 0x90, 0x80, 0x80), Bytes.raw(0xE2, 0x82), Bytes.raw(0x80), Bytes.raw(0xF8, 0x88),
            Bytes.raw(0x00), Bytes.raw(0xEF, 0xBB, 0xBF), Bytes.of("é"), Bytes.of("€"), Bytes.of("😀"));

    /** One case in this many is written to a file and read through format detection and the Path readers. */
    static final int VIA_FILE = 400;

    /** The longest run a {@link Repeat} inserts, in bytes. */
    static final int MAX_RUN = 100_000;

    /** Units repeated into deep nesting, long numbers and long lines. */
    static final List<String> UNITS = List.of("[", "{\"a\":", "{:a ", "(", "#_", "#t ", "{\"not\":", "[[", "9", "-",
            "\"", "x", "\n", "r(1,1,1,1)\n", "#{");

    static final List<Seed> SEEDS = FuzzSeeds.all();

    /** The times a {@link Repeat} inserts its unit, around the limits readers may have (100, 1000). */
    static final List<Integer> TIMES = List.of(20, 99, 100, 101, 999, 1000, 1001, 5000, 100_000);

    /** A position is 0 once in this many draws, else uniform: truncated to nothing, inserted first. */
    static final int ZERO_POSITION = 32;

    private static final Bytes EMPTY = new Bytes(new byte[0]);

    /**
     * One fuzz case, drawn from {@code r} alone: a uniform seed and three or four mutations; one case in
     * {@value #VIA_FILE} goes through a file and format detection (a file costs ten times the rest of a case, so few
     * do; the readers are the same).
     */
    static Case randomCase(SplittableRandom r) {
        int seed = r.nextInt(SEEDS.size());
        int n = MIN_MUTATIONS + r.nextInt(2);
        List<Mutation> ms = new ArrayList<>(n);
        for (int i = 0; i < n; i++) ms.add(mutation(r));
        return new Case(seed, List.copyOf(ms), r.nextInt(VIA_FILE) == 0);
    }

    /** Flip 4, Insert 4, Delete 3, Truncate 1, Splice 1, Repeat 1 in 14: byte-level havoc first, as AFL does. */
    static Mutation mutation(SplittableRandom r) {
        int w = r.nextInt(14);
        if (w < 4) return new Flip(position(r), r.nextInt(8));
        if (w < 8) return new Insert(position(r), token(r));
        if (w < 11) return new Delete(position(r), 1 + r.nextInt(16), r.nextBoolean() ? token(r) : EMPTY);
        if (w < 12) return new Truncate(position(r));
        if (w < 13) return new Splice(position(r), r.nextInt(SEEDS.size()), position(r), 1 + r.nextInt(200));
        return new Repeat(position(r), Bytes.of(UNITS.get(r.nextInt(UNITS.size()))),
                TIMES.get(r.nextInt(TIMES.size())));
    }

    /**
     * A position, taken modulo the input's length when applied. Zero comes up more often than uniform draws would
     * give it (jqwik, used before, mixed in such edge values): a truncation to an empty input, a token before the
     * first byte.
     */
    private static int position(SplittableRandom r) {
        return r.nextInt(ZERO_POSITION) == 0 ? 0 : r.nextInt(Integer.MAX_VALUE);
    }

    /** A dictionary token, an encoding or any single byte, each a third of the time. */
    private static Bytes token(SplittableRandom r) {
        switch (r.nextInt(3)) {
            case 0: return Bytes.of(DICTIONARY.get(r.nextInt(DICTIONARY.size())));
            case 1: return ENCODINGS.get(r.nextInt(ENCODINGS.size()));
            default: return Bytes.raw(r.nextInt(256));
        }
    }

    static byte[] mutate(byte[] in, List<Mutation> ms) {
        byte[] b = in;
        for (Mutation m : ms) b = apply(b, m);
        return b;
    }

    private static byte[] apply(byte[] b, Mutation m) {
        int n = b.length;
        if (m instanceof Flip f) {
            if (n == 0) return b;
            byte[] c = b.clone();
            c[f.pos() % n] ^= (byte) (1 << f.bit());
            return c;
        }
        if (m instanceof Insert i) return splice(b, i.pos() % (n + 1), 0, i.bytes().b());
        if (m instanceof Delete d) {
            int at = d.pos() % (n + 1);
            return splice(b, at, Math.min(d.len(), n - at), d.with().b());
        }
        if (m instanceof Truncate t) return Arrays.copyOf(b, t.pos() % (n + 1));
        if (m instanceof Splice s) {
            byte[] o = SEEDS.get(s.other()).bytes();
            int from = s.from() % (o.length + 1);
            return splice(b, s.pos() % (n + 1), 0, Arrays.copyOfRange(o, from, Math.min(o.length, from + s.len())));
        }
        Repeat r = (Repeat) m;
        byte[] unit = r.unit().b();
        // At most MAX_RUN bytes. Not more, for now: 100,000 repetitions of "r(1,1,1,1)\n" make one transaction of
        // 100,000 reads, on which the mini-transaction checkers are quadratic (SaturationChecker.externalRead
        // scans the transaction's earlier ops for every read) and take minutes; 9,090 take under a second.
        int times = Math.min(r.times(), MAX_RUN / unit.length);
        byte[] run = new byte[unit.length * times];
        for (int i = 0; i < times; i++) System.arraycopy(unit, 0, run, i * unit.length, unit.length);
        return splice(b, r.pos() % (n + 1), 0, run);
    }

    private static byte[] splice(byte[] b, int at, int remove, byte[] insert) {
        byte[] c = new byte[b.length - remove + insert.length];
        System.arraycopy(b, 0, c, 0, at);
        System.arraycopy(insert, 0, c, at, insert.length);
        System.arraycopy(b, at + remove, c, at + insert.length, b.length - at - remove);
        return c;
    }

    /** What a property run met, for the report. */
    static final class Tally {
        long inputs, read, refused, checked, refusedByChecker, bytes;

        @Override
        public String toString() {
            return String.format("%,d inputs (%,d bytes): %,d refused by the reader with file:line, %,d read; of "
                    + "those %,d checked, %,d refused by the checker", inputs, bytes, refused, read, checked,
                    refusedByChecker);
        }
    }

    /** The longest one input may take to read and check: generous for a loaded machine, short of quadratic. */
    static final Duration SLOW = Duration.ofSeconds(20);

    /**
     * The property for one input: read, then check what was read. Any Throwable but a well-formed InputException
     * escapes (and fails the property), as does an input that takes longer than {@link #SLOW}.
     */
    static void check(Case c, Tally tally, Path tmp) throws IOException {
        byte[] bytes = SEEDS.get(c.seed()).bytes();
        for (int k = 1; k <= c.mutations().size(); k++) {
            bytes = apply(bytes, c.mutations().get(k - 1));
            check(c, k, bytes, tally, tmp);
        }
    }

    /** One input: case {@code c} after its first {@code k} mutations. */
    private static void check(Case c, int k, byte[] bytes, Tally tally, Path tmp) throws IOException {
        Seed seed = SEEDS.get(c.seed());
        long t0 = System.nanoTime();
        String source = "fuzz-" + seed.name();
        boolean binary = seed.target() == Target.COBRA || (seed.target() == Target.DBCOP && hasNulInHead(bytes));
        tally.inputs++;
        tally.bytes += bytes.length;
        Object read;
        try {
            if (c.viaFile()) {
                Path f = tmp.resolve(source);
                Files.write(f, bytes);
                source = f.toString();
                binary = isBinary(f);
                read = SqlHistoryReader.isSqlHistory(f) ? SqlHistoryReader.read(f) : readDetected(f);
            } else {
                read = read(seed.target(), bytes, source);
            }
        } catch (InputException e) {
            assertNamesFileAndLine(e, source, binary, c, k);
            tally.refused++;
            assertFast(t0, c, k);
            return;
        }
        tally.read++;
        try {
            if (read instanceof SqlHistory s) {
                Checker.check(new CheckInput.Sql(s, true), List.of(), CheckOptions.DEFAULTS.withSearchBudget(20_000)
                        .withSolverTimeoutMillis(2_000));
            } else {
                History h = (History) read;
                Checker.check(h, Checker.defaultLevels(h), CheckOptions.DEFAULTS.withSearchBudget(20_000)
                        .withSolverTimeoutMillis(2_000).withMaxOpenPairs(1_000_000));
            }
            tally.checked++;
        } catch (InputException e) {
            // A history no checker accepts (a value written twice, registers and lists mixed): said in one sentence.
            String src = source;
            assertTrue(e.getMessage().startsWith(source), () -> "checker message does not name " + src + ": "
                    + e.getMessage() + where(c, k));
            tally.refusedByChecker++;
        }
        assertFast(t0, c, k);
    }

    /** As the check command reads a file without --format: a reader's error says what the file was taken for. */
    private static History readDetected(Path f) throws IOException {
        FormatDetection d = FormatDetection.of(f);
        try {
            return d.format().read(f);
        } catch (InputException e) {
            throw d.explain(e);
        }
    }

    static Object read(Target t, byte[] bytes, String source) throws IOException {
        InputStream in = new ByteArrayInputStream(bytes);
        switch (t) {
            case JSONL: return HistoryFormat.JSONL.reader().read(in, source);
            case EDN: return HistoryFormat.EDN.reader().read(in, source);
            case TEXT: return HistoryFormat.TEXT.reader().read(in, source);
            case DBCOP: return HistoryFormat.DBCOP.reader().read(in, source);
            case COBRA: return HistoryFormat.COBRA.reader().read(in, source);
            case CHRONOS: return HistoryFormat.CHRONOS.reader().read(in, source);
            default:
                // As SqlHistoryReader.read(Path) does.
                return SqlHistoryReader.read(new InputStreamReader(new StrictUtf8Stream(in, source),
                        StandardCharsets.UTF_8), source);
        }
    }

    private static boolean isBinary(Path f) throws IOException {
        if (Files.isDirectory(f)) return true;
        byte[] head = new byte[4096];
        int n;
        try (InputStream in = Files.newInputStream(f)) {
            n = in.readNBytes(head, 0, head.length);
        }
        return CobraReader.looksLikeLog(head, n) || hasNulInHead(Arrays.copyOf(head, n));
    }

    private static boolean hasNulInHead(byte[] b) {
        for (int i = 0; i < Math.min(8, b.length); i++) if (b[i] == 0) return true;
        return false;
    }

    /**
     * Text formats name {@code file:line:}; binary ones (dbcop bincode, Cobra logs) have no lines and name the file
     * and the byte offset or record instead, except for the history that holds no transaction at all.
     */
    static void assertNamesFileAndLine(InputException e, String source, boolean binary, Case c, int k) {
        String m = e.getMessage();
        if (binary && !m.startsWith(source + ":" + e.line() + ":")) {
            assertTrue(m.startsWith(source + ": ") && (m.contains("byte ") || m.contains("record ")
                    || m.contains("no transactions")), () -> "binary input, message names neither file nor byte: " + m
                    + where(c, k));
        } else {
            assertTrue(e.line() >= 1 && m.startsWith(source + ":" + e.line() + ": "),
                    () -> "message does not start with " + source + ":<line>: " + m + where(c, k));
        }
        assertTrue(m.length() < 2_000, () -> "message too long (" + m.length() + " characters): "
                + m.substring(0, 300) + where(c, k));
    }

    private static void assertFast(long t0, Case c, int k) {
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < SLOW.toMillis(), () -> "took " + ms + " ms" + where(c, k));
    }

    private static String where(Case c, int k) {
        return " for " + c + " after its first " + k + " mutations";
    }
}
