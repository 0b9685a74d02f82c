package isostress.harness.config;

import isostress.checker.history.SeededFuzz;
import isostress.generator.workload.WorkloadType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Throws mutated campaigns at {@link CampaignLoader}: every file of configs/ and configs/known-bugs/ with one to four
 * mutations (bit flips and junk bytes, invalid UTF-8, line deletion and duplication, keys and sections inserted twice,
 * values swapped for numbers at and beyond the 32- and 64-bit limits, zero, negative, non-finite, wrong types,
 * aliases and tags, second documents, truncation, deep nesting). The property: the loader either returns a sane
 * {@link Campaign} (positive counts, finite ratios, positive bounded durations, ...) or throws a
 * {@link ConfigException} whose every problem starts with the file and a line number; never any other exception,
 * and quickly. Modelled on Caffeine's {@code CaffeineSpecFuzzer}. Cases come from {@link SeededFuzz}:
 * a failure names the case's index and seed and the smallest failing case found by dropping mutations, and
 * {@code -Disostress.fuzz.seed=N -Disostress.fuzz.case=I} replays it alone.
 */
class CampaignLoaderFuzzTest {
    static final int TRIES = 30_000;
    /** The base seed of every build; {@code -Disostress.fuzz.seed} overrides it. */
    static final long SEED = 30_000;
    /** The benchmark's, so that it covers other cases than the build. */
    static final long BENCH_SEED = 1_000_003;
    /** A position is 0 once in this many draws, else uniform: an empty file, a byte changed first. */
    private static final int ZERO_POSITION = 32;
    private static final Path CONFIGS = Path.of("..", "configs");
    private static final List<Seed> SEEDS = seeds();
    /** Longest one load may take: campaigns are at most a few KiB, so this is generous even on a loaded machine. */
    private static final long MAX_MILLIS = 5_000;
    private static final List<String> KEYS = List.of("name", "database", "workload", "check", "runs",
            "stop-on-violation", "store", "nemesis", "type", "provision", "version", "url", "user-env", "isolation",
            "settings", "nodes", "image", "timeout", "connect-timeout", "writes", "op-pause", "tables", "faults",
            "interval", "duration", "targets", "latency", "seed", "sessions", "transactions", "keys", "distribution",
            "zipf-exponent", "hot-keys", "hot-ops", "exponential-mean", "shapes", "min-ops", "max-ops", "read-ratio",
            "rmw-ratio", "rotate-after", "groups", "isolation-mix", "levels", "max-anomalies", "search-budget",
            "streaming", "R1W1", "serializable", "<<", "? x", "1", "");
    private static final List<String> VALUES = List.of("0", "-0", "-1", "1", "2", "2147483647", "2147483648",
            "-2147483648", "-2147483649", "4294967296", "9223372036854775807", "9223372036854775808",
            "-9223372036854775808", "-9223372036854775809", "18446744073709551616", "99999999999999999999999999",
            "1e400", "-1e400", "1e-400", "0.0", "0.5", "1.5", "-0.5", "NaN", ".nan", ".inf", "-.inf", "0x7fffffff",
            "0o17", "0b101", "1_000", "0s", "0ms", "-1s", "1ms", "1s", "10s", "2m", "1h", "8760h", "8761h",
            "99999999999999999999h", "9223372036854775807ms", "true", "false", "null", "~", "[]", "{}", "[1, 2]",
            "{a: 1}", "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]", "''", "\"\\0\"", "\"a\\0b\"", "\"\\uFFFF\"", "x",
            "..", ".", "/", "*a", "&a 1", "&a [1, 2]", "!!binary aGk=", "!!str 5", "!foo 1", "'", "\"", "[", "{", "|",
            ">", "- a", "mini", "sql", "list-append", "serializable", "snapshot", "read-committed", "kill",
            "[kill, pause]", "mongodb", "external", "docker", "mariadb", "embedded", "local", "zipfian", "hotspot",
            "campaign", "jdbc:postgresql://x/y", "\u00e9t\u00e9", "\uD83D\uDE00", "a: b: c", "{R1W1: 1}",
            "{serializable: 0}", "9".repeat(40), "9".repeat(2_000) + "s", "-" + "9".repeat(2_000));
    private static final List<String> LINES = List.of("---", "--- 5", "...", "%YAML 1.2", "&a", "<<: *a", "? [a, b]",
            ": x", "\t", "- x", "#", "workload:", "nemesis:", "database: x", "x: " + "[".repeat(40) + "]".repeat(40),
            "x: " + "{a: ".repeat(40) + "1" + "}".repeat(40), "[", "{", "'", "\"\\", "!!binary", "  - - - -",
            "a: &a [lol, lol, lol]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]");

    record Seed(Path file, byte[] bytes) {
        @Override
        public String toString() {
            return file.toString();
        }
    }

    /** One edit of a campaign's bytes; positions and lines are taken modulo the current size. */
    sealed interface Mutation permits FlipBit, SetByte, DeleteLine, DuplicateLines, ReplaceValue, InsertKey,
            InsertLine, Truncate {
        byte[] apply(byte[] in);
    }

    record FlipBit(int position, int bit) implements Mutation {
        public byte[] apply(byte[] in) {
            if (in.length == 0) return in;
            byte[] out = in.clone();
            out[position % in.length] ^= (byte) (1 << bit);
            return out;
        }
    }

    /** Any byte value: NUL, control characters, and 0x80-0xFF alone are invalid UTF-8. */
    record SetByte(int position, int value) implements Mutation {
        public byte[] apply(byte[] in) {
            if (in.length == 0) return new byte[] {(byte) value};
            byte[] out = in.clone();
            out[position % in.length] = (byte) value;
            return out;
        }
    }

    record DeleteLine(int line) implements Mutation {
        public byte[] apply(byte[] in) {
            List<String> l = lines(in);
            if (!l.isEmpty()) l.remove(line % l.size());
            return join(l);
        }
    }

    /** Copies {@code count} lines to another place: a key or a whole section then appears twice. */
    record DuplicateLines(int line, int count, int at) implements Mutation {
        public byte[] apply(byte[] in) {
            List<String> l = lines(in);
            if (l.isEmpty()) return in;
            int from = line % l.size();
            List<String> copy = new ArrayList<>(l.subList(from, Math.min(l.size(), from + count)));
            l.addAll(at % (l.size() + 1), copy);
            return join(l);
        }
    }

    /** The value after the line's first ':' (or the whole line) becomes {@code value}. */
    record ReplaceValue(int line, String value) implements Mutation {
        public byte[] apply(byte[] in) {
            List<String> l = lines(in);
            if (l.isEmpty()) return in;
            int i = line % l.size();
            String s = l.get(i);
            int colon = s.indexOf(':');
            l.set(i, colon >= 0 ? s.substring(0, colon + 1) + " " + value : indent(s) + value);
            return join(l);
        }
    }

    /** A key with the indentation of an existing line: often a duplicate, or a key in the wrong section. */
    record InsertKey(int line, String key, String value) implements Mutation {
        public byte[] apply(byte[] in) {
            List<String> l = lines(in);
            int i = l.isEmpty() ? 0 : line % l.size();
            l.add(i, (l.isEmpty() ? "" : indent(l.get(i))) + key + ": " + value);
            return join(l);
        }
    }

    record InsertLine(int line, String text) implements Mutation {
        public byte[] apply(byte[] in) {
            List<String> l = lines(in);
            l.add(l.isEmpty() ? 0 : line % (l.size() + 1), text);
            return join(l);
        }
    }

    /** Cuts the file, possibly inside a multi-byte character. */
    record Truncate(int position) implements Mutation {
        public byte[] apply(byte[] in) {
            return in.length == 0 ? in : Arrays.copyOf(in, position % in.length);
        }
    }

    /** A seed and its mutations; shown as the text that fails when the property does. */
    record Mutant(Seed seed, List<Mutation> mutations) {
        byte[] bytes() {
            byte[] b = seed.bytes();
            for (Mutation m : mutations) b = m.apply(b);
            return b;
        }

        /** The same mutant with one mutation less, for each mutation in turn (SeededFuzz's shrinking). */
        List<Mutant> smaller() {
            List<Mutant> out = new ArrayList<>();
            for (int i = 0; i < mutations.size(); i++) {
                List<Mutation> m = new ArrayList<>(mutations);
                m.remove(i);
                out.add(new Mutant(seed, List.copyOf(m)));
            }
            return out;
        }

        @Override
        public String toString() {
            return seed + " " + mutations + ":\n" + new String(bytes(), StandardCharsets.UTF_8);
        }
    }

    /** One mutant, drawn from {@code r} alone: a uniform seed and one to four mutations. */
    static Mutant mutant(SplittableRandom r) {
        Seed seed = SEEDS.get(r.nextInt(SEEDS.size()));
        int n = 1 + r.nextInt(4);
        List<Mutation> ms = new ArrayList<>(n);
        for (int i = 0; i < n; i++) ms.add(mutation(r));
        return new Mutant(seed, List.copyOf(ms));
    }

    /** The eight kinds equally likely, but ReplaceValue twice as likely as each of the others. */
    private static Mutation mutation(SplittableRandom r) {
        switch (r.nextInt(9)) {
            case 0: return new FlipBit(position(r), r.nextInt(8));
            case 1: return new SetByte(position(r), r.nextInt(256));
            case 2: return new DeleteLine(line(r));
            case 3: return new DuplicateLines(line(r), 1 + r.nextInt(12), line(r));
            case 4:
            case 5: return new ReplaceValue(line(r), pick(r, VALUES));
            case 6: return new InsertKey(line(r), pick(r, KEYS), pick(r, VALUES));
            case 7: return new InsertLine(line(r), pick(r, LINES));
            default: return new Truncate(position(r));
        }
    }

    /** 0 to 65,536, taken modulo the size; 0 more often than uniform (jqwik, used before, mixed in edge values). */
    private static int position(SplittableRandom r) {
        return r.nextInt(ZERO_POSITION) == 0 ? 0 : r.nextInt((1 << 16) + 1);
    }

    /** 0 to 200, taken modulo the number of lines. */
    private static int line(SplittableRandom r) {
        return r.nextInt(201);
    }

    private static <T> T pick(SplittableRandom r, List<T> from) {
        return from.get(r.nextInt(from.size()));
    }

    @Test
    void loadsASaneCampaignOrNamesFileAndLine() {
        long[] passed = {0, 0}; // loaded, rejected
        try {
            new SeededFuzz<>(SEED, TRIES, CampaignLoaderFuzzTest::mutant, Mutant::smaller).run(m -> {
                passed[check(m).equals("loaded") ? 0 : 1]++;
            });
        } finally {
            long n = passed[0] + passed[1];
            System.out.printf("CampaignLoaderFuzzTest: %,d mutated campaigns passed: %,d loaded (%.1f %%), %,d "
                    + "rejected with file:line (%.1f %%)%n", n, passed[0], 100.0 * passed[0] / Math.max(1, n),
                    passed[1], 100.0 * passed[1] / Math.max(1, n));
        }
    }

    /**
     * {@code mvn -B -pl harness -am test -Dtest=CampaignLoaderFuzzTest#benchmark
     * -Dsurefire.failIfNoSpecifiedTests=false -Dsurefire.excludedGroups= -Disostress.fuzz.tries=1000000}: the same
     * property over many more mutants, from base seed {@value #BENCH_SEED} unless {@code -Disostress.fuzz.seed}
     * says otherwise; prints tries, outcomes and campaigns per second.
     */
    @Test
    @Tag("bench")
    void benchmark() {
        long[] loaded = {0};
        long t0 = System.nanoTime();
        long tries = new SeededFuzz<>(BENCH_SEED, 1_000_000L, CampaignLoaderFuzzTest::mutant, Mutant::smaller)
                .run(m -> {
                    if (check(m).equals("loaded")) loaded[0]++;
                });
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("fuzz: %,d mutated campaigns, %,d loaded, %,d rejected, %.1f s, %,.0f per second%n", tries,
                loaded[0], tries - loaded[0], s, tries / s);
    }

    /** The property for one mutant; "loaded" or "rejected". */
    static String check(Mutant m) {
        byte[] bytes = m.bytes();
        String file = m.seed().file().toString();
        long t0 = System.nanoTime();
        String outcome;
        try {
            sane(CampaignLoader.fromBytes(m.seed().file(), bytes), m);
            outcome = "loaded";
        } catch (ConfigException e) {
            Pattern where = Pattern.compile(Pattern.quote(file) + ":[1-9][0-9]* \\S.*", Pattern.DOTALL);
            if (e.problems().isEmpty()) throw new AssertionError("no problem listed for " + m);
            for (String p : e.problems()) {
                if (!where.matcher(p).matches()) throw new AssertionError("'" + p + "' names no file and line: " + m);
            }
            outcome = "rejected";
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (ms > MAX_MILLIS) throw new AssertionError("took " + ms + " ms: " + m);
        return outcome;
    }

    /** What the runner relies on once a campaign loaded; {@code from} names the input in the failure. */
    static void sane(Campaign c, Object from) {
        List<String> bad = new ArrayList<>();
        if (!c.name().matches("[A-Za-z0-9._-]+") || c.name().equals(".") || c.name().equals("..")) bad.add("name");
        if (c.runs() < 1 || c.maxAnomalies() < 1 || c.searchBudget() < 1) bad.add("runs/max-anomalies/search-budget");
        var w = c.workload();
        if (w.sessions() < 1 || w.transactions() < 1 || w.keys() < 1 || w.groups() < 1) bad.add("workload counts");
        if (w.minOps() < 1 || w.maxOps() < w.minOps()) bad.add("min-ops/max-ops");
        if (!ratio(w.readRatio()) || !ratio(w.rmwRatio()) || w.rotateAfter() < 0) bad.add("ratios");
        if (w.shapes().values().stream().anyMatch(v -> !(v >= 0) || v.isInfinite())) bad.add("shape weights");
        if (w.isolationMix().values().stream().anyMatch(v -> !(v > 0) || v.isInfinite())) bad.add("isolation-mix");
        if (c.duration() != null && !positive(c.duration())) bad.add("duration");
        var d = c.database();
        if (!positive(d.timeout()) || !positive(d.connectTimeout()) || d.opPause().isNegative()
                || d.opPause().compareTo(CampaignLoader.MAX_DURATION) > 0 || d.nodes() < 1 || d.nodes() > 9
                || d.tables() < 1) {
            bad.add("database");
        }
        var n = c.nemesis();
        if (n != null) {
            if (n.faults().isEmpty() || !positive(n.interval()) || !positive(n.duration()) || !positive(n.latency())
                    || n.targets().stream().anyMatch(t -> t < 1 || t > d.nodes() + d.replicas().count())) {
                bad.add("nemesis");
            }
            if (c.duration() != null && c.duration().compareTo(n.interval()) <= 0) bad.add("duration vs interval");
        }
        if (c.levels().isEmpty() && w.type() != WorkloadType.SQL) bad.add("levels");
        if (!positive(c.checkTimeout()) || c.store() == null) bad.add("check.timeout/store");
        if (!bad.isEmpty()) throw new AssertionError("loaded but not sane (" + bad + "): " + from);
    }

    private static boolean ratio(double r) {
        return r >= 0 && r <= 1;
    }

    private static boolean positive(Duration d) {
        return d != null && !d.isNegative() && !d.isZero() && d.compareTo(CampaignLoader.MAX_DURATION) <= 0;
    }

    private static List<Seed> seeds() {
        try (Stream<Path> s = Files.walk(CONFIGS)) {
            List<Seed> out = new ArrayList<>();
            for (Path p : s.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                out.add(new Seed(p, Files.readAllBytes(p)));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Lines as text; bytes that are not UTF-8 survive as U+FFFD, which is itself a fine mutation. */
    static List<String> lines(byte[] in) {
        return new ArrayList<>(Arrays.asList(new String(in, StandardCharsets.UTF_8).split("\n", -1)));
    }

    static byte[] join(List<String> lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < lines.size(); i++) {
            if (i > 0) out.write('\n');
            out.writeBytes(lines.get(i).getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    private static String indent(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) == ' ') i++;
        return s.substring(0, i);
    }
}
