package isostress.harness.config;

import isostress.harness.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static isostress.harness.config.CampaignLoaderTest.FILE;
import static isostress.harness.config.CampaignLoaderTest.hasProblem;
import static isostress.harness.config.CampaignLoaderTest.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Campaign YAML the loader used to accept silently or crash on. Each case names the old behaviour;
 * each now gives one problem with file, line and key path.
 */
class CampaignYamlEdgeCasesTest {
    @TempDir
    Path dir;

    @Test
    void duplicateSectionsAndKeysNameBothLines() {
        // Old: the second workload: replaced the first, so sessions: 2 was silently dropped.
        List<String> p = problems("workload:\n  sessions: 2\nname: x\nworkload:\n  keys: 5\n");
        hasProblem(p, "camp.yaml:4 workload:", "duplicate key (first at line 1)");
        p = problems("workload:\n  keys: 1\n  type: mini\n  keys: 2\n");
        hasProblem(p, "camp.yaml:4 workload.keys:", "duplicate key (first at line 2)");
        p = problems("check: {levels: [serializable], levels: [snapshot-isolation]}\n");
        hasProblem(p, "camp.yaml:1 check.levels:", "duplicate key (first at line 1)");
        // The same key in different mappings is not a duplicate.
        CampaignLoader.parse(FILE, "workload: {seed: 1}\nnemesis: {faults: [kill], seed: 1}\n");
    }

    @Test
    void aSecondDocumentIsRejected() {
        // Old: everything after --- was ignored.
        hasProblem(problems("name: a\n---\nname: b\n"), "camp.yaml:3", "a second YAML document");
        hasProblem(problems("name: a\n--- 5\n"), "camp.yaml:2", "a second YAML document");
        assertEquals("a", CampaignLoader.parse(FILE, "---\nname: a\n...\n").name(), "one explicit document is fine");
    }

    @Test
    void integersBeyondTheirRangeAreNotWrapped() {
        // Old: seed 2^64 read as 0 (Jackson's asLong of a BigInteger), silently.
        hasProblem(problems("workload: {seed: 18446744073709551616}\n"), "camp.yaml:1 workload.seed:",
                "must be <= 9223372036854775807, was 18446744073709551616");
        hasProblem(problems("workload:\n  seed: -9223372036854775809\n"), "camp.yaml:2 workload.seed:",
                "must be >= -9223372036854775808");
        hasProblem(problems("workload: {transactions: 2147483648}\n"), "camp.yaml:1 workload.transactions:",
                "must be <= 2147483647");
        hasProblem(problems("runs: 99999999999999999999999\n"), "camp.yaml:1 runs:", "must be <= 1000000");
        assertEquals(Long.MIN_VALUE, CampaignLoader.parse(FILE, "workload: {seed: -9223372036854775808}\n")
                .workload().seed());
    }

    @Test
    void zeroAndOverlongDurations() {
        // Old: duration: 0s ran nothing and said VALID; 99999999999999999999s crashed with NumberFormatException.
        hasProblem(problems("workload: {duration: 0s}\n"), "camp.yaml:1 workload.duration:", "must be more than 0");
        hasProblem(problems("database: {timeout: 0ms}\n"), "camp.yaml:1 database.timeout:", "must be more than 0");
        hasProblem(problems("nemesis: {faults: [kill], latency: 0s}\n"), "camp.yaml:1 nemesis.latency:",
                "must be more than 0");
        hasProblem(problems("workload: {duration: 99999999999999999999s}\n"), "camp.yaml:1 workload.duration:",
                "must be at most 8760h");
        hasProblem(problems("nemesis: {faults: [kill], interval: 9999999999999h}\n"), "camp.yaml:1 nemesis.interval:",
                "must be at most 8760h");
        hasProblem(problems("workload: {duration: -5s}\n"), "camp.yaml:1 workload.duration:", "must look like");
        assertEquals(Duration.ZERO, CampaignLoader.parse(FILE, "database: {op-pause: 0ms}\n").database().opPause(),
                "op-pause 0 means no pause");
        assertEquals(Duration.ofDays(365), CampaignLoader.parse(FILE, "workload: {duration: 8760h}\n").duration());
    }

    @Test
    void durationNotLongerThanTheNemesisIntervalIsReported() {
        // Old: computed after the problems were thrown, so it never fired and the run saw no fault.
        hasProblem(problems("workload: {duration: 5s}\nnemesis: {faults: [kill], interval: 10s}\n"),
                "camp.yaml:1 workload.duration:", "is not longer than nemesis.interval (10000 ms)");
        CampaignLoader.parse(FILE, "workload: {duration: 11s}\nnemesis: {faults: [kill], interval: 10s}\n");
    }

    @Test
    void nonFiniteNumbersAreRejected() {
        // Old: 1e400 read as Infinity; read-ratio .inf and a shape weight of NaN were accepted.
        hasProblem(problems("workload: {zipf-exponent: 1e400, distribution: zipfian}\n"),
                "camp.yaml:1 workload.zipf-exponent:", "must be a finite number");
        hasProblem(problems("workload: {read-ratio: -1e400}\n"), "camp.yaml:1 workload.read-ratio:", "finite");
        hasProblem(problems("name: x\nworkload: {read-ratio: .inf}\n"), "camp.yaml:2", "malformed YAML");
        hasProblem(problems("workload:\n  shapes: {R1W1: NaN}\n"), "camp.yaml:2 workload.shapes.R1W1:",
                "weight must be a number >= 0");
    }

    @Test
    void aliasesAreRejectedAndCannotExplode() {
        // Old: Jackson read *n as the text 'n' (name: *n became "n").
        hasProblem(problems("name: &n x\nstore: *n\n"), "camp.yaml:2 store:", "YAML aliases (*n) are not supported");
        StringBuilder lol = new StringBuilder("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i < 10; i++) {
            lol.append("a").append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 9; j++) lol.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
            lol.append("]\n");
        }
        List<String> p = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> problems(lol.toString()));
        hasProblem(p, "camp.yaml:2 a1[0]:", "YAML aliases (*a0)");
    }

    @Test
    void deepNestingStopsAtSixteenLevels() {
        String deep = "workload: " + "[".repeat(100_000) + "]".repeat(100_000) + "\n";
        List<String> p = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> problems(deep));
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).startsWith("camp.yaml:1 "), p.toString());
        assertTrue(p.get(0).contains("nested deeper than 16 levels") || p.get(0).contains("malformed YAML"), p.get(0));
    }

    @Test
    void hugeNumbersTakeLinearTimeAndShortMessages() {
        String digits = "9".repeat(500_000);
        List<String> p = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> problems("workload:\n  seed: " + digits + "\n  duration: " + digits + "s\n"));
        // Jackson's YAML resolver reads so long a number as text.
        hasProblem(p, "camp.yaml:2 workload.seed:", "must be an integer, was '999");
        hasProblem(p, "camp.yaml:3 workload.duration:", "must be at most 8760h");
        assertTrue(p.stream().allMatch(s -> s.length() < 300), p.toString());
    }

    @Test
    void manyKeysAndElementsTakeLinearTime() {
        StringBuilder keys = new StringBuilder("workload:\n"), levels = new StringBuilder("check:\n  levels:\n");
        for (int i = 0; i < 10_000; i++) {
            keys.append("  k").append(i).append(": 1\n");
            levels.append("    - level").append(i).append('\n');
        }
        // About a second on an idle machine; the bound leaves room for a loaded one, not for quadratic time.
        List<String> p = assertTimeoutPreemptively(Duration.ofSeconds(15), () -> problems(keys + "" + levels));
        assertEquals(20_000, p.size());
        hasProblem(p, "camp.yaml:10001 workload.k9999:", "unknown key");
        hasProblem(p, "camp.yaml:20003 check.levels[9999]:", "unknown level 'level9999'");
    }

    @Test
    void invalidUtf8NamesTheFileAndLine() throws Exception {
        // Old: "MalformedInputException: Input length = 1", no file, no line.
        Path f = dir.resolve("camp.yaml");
        byte[] head = "name: x\nworkload:\n  type: ".getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new byte[head.length + 2];
        System.arraycopy(head, 0, bytes, 0, head.length);
        bytes[head.length] = (byte) 0xC3; // a lead byte followed by a newline, not a continuation byte
        bytes[head.length + 1] = '\n';
        Files.write(f, bytes);
        List<String> p = assertThrows(ConfigException.class, () -> CampaignLoader.load(f)).problems();
        assertEquals(List.of(f + ":3 invalid UTF-8 (byte 0xC3, byte 9 of the line): a campaign is UTF-8 text"), p);
    }

    @Test
    void binaryJunkAndControlCharactersAreMalformed() throws Exception {
        Path f = dir.resolve("junk.yaml");
        Files.write(f, new byte[] {'n', 'a', 'm', 'e', ':', ' ', 1, 2, 3, '\n'});
        List<String> p = assertThrows(ConfigException.class, () -> CampaignLoader.load(f)).problems();
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).startsWith(f + ":1 malformed YAML"), p.toString());
    }

    @Test
    void storeNameAndKeysThatWouldBreakLater() {
        // Old: a NUL in store crashed with InvalidPathException; name: .. wrote the run into store's parent;
        // zipfian with 2^30 keys tried to allocate an 8 GiB table.
        hasProblem(problems("store: \"a\\0b\"\n"), "camp.yaml:1 store:", "is not a usable path");
        hasProblem(problems("name: ..\n"), "camp.yaml:1 name:", "names a directory");
        hasProblem(problems("workload: {distribution: zipfian, keys: 1073741824}\n"), "camp.yaml:1 workload.keys:",
                "at most 10000000");
        hasProblem(problems("name: x\n" + "#".repeat(CampaignText.MAX_CHARS)), "camp.yaml:1", "at most 1048576");
    }

    @Test
    void runRejectsABadCampaignWithExitTwoNoStackTraceAndNoRunDirectory() throws Exception {
        Path store = dir.resolve("store");
        Path f = dir.resolve("camp.yaml");
        Files.writeString(f, "store: " + store + "\nworkload:\n  duration: 0s\nworkload:\n"
                + "  seed: 18446744073709551616\n");
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter(), err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute("run", f.toString(), "--no-progress");
        String all = out + "" + err;
        assertEquals(2, code, all);
        assertTrue(all.contains(f + ":4 workload: duplicate key (first at line 2)"), all);
        assertFalse(all.contains("Exception") || all.contains("\tat "), "no stack trace: " + all);
        assertFalse(Files.exists(store), "no run directory");
    }
}
