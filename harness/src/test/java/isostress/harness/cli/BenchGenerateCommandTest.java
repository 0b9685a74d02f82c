package isostress.harness.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code bench generate} writes histories that {@code check} reads (format detected) with the store's verdicts. */
class BenchGenerateCommandTest {
    @Test
    void siStoreHistoriesAreSnapshotIsolationNotSerializableInBothFormats(@TempDir Path dir) throws Exception {
        for (String format : new String[] {"chronos", "text"}) {
            Path f = dir.resolve("si." + format);
            CheckCommandTest.Run g = CheckCommandTest.run("bench", "generate", "--store", "si", "--txns", "1000",
                    "--sessions", "8", "--keys", "30", "--format", format, "--out", f.toString());
            assertEquals(0, g.code(), g.err());
            assertTrue(g.out().startsWith("generated 1,000 transactions (si store"), g.out());
            assertTrue(Files.size(f) > 0);
            CheckCommandTest.Run si = CheckCommandTest.run("check", "--level", "snapshot-isolation", f.toString());
            assertEquals(Main.VALID, si.code(), si.out() + si.err());
            assertTrue(si.out().contains("(" + format + ", 1,000 transactions"), si.out());
            CheckCommandTest.Run ser = CheckCommandTest.run("check", "--level", "serializable", f.toString());
            assertEquals(1, ser.code(), ser.out() + ser.err());
        }
        Path f = dir.resolve("ser.json");
        assertEquals(0, CheckCommandTest.run("bench", "generate", "--store", "ser", "--txns", "1000", "--keys", "30",
                "--out", f.toString()).code());
        assertEquals(Main.VALID, CheckCommandTest.run("check", "--level", "serializable", f.toString()).code());
        Path rc = dir.resolve("rc.txt");
        assertEquals(0, CheckCommandTest.run("bench", "generate", "--store", "rc", "--txns", "1000", "--keys", "30",
                "--format", "text", "--out", rc.toString()).code());
        assertEquals(Main.VALID, CheckCommandTest.run("check", "--level", "read-committed", rc.toString()).code());
        assertEquals(1, CheckCommandTest.run("check", "--level", "read-atomic", rc.toString()).code());
    }

    @Test
    void listAppendHistoriesHaveTheStoresVerdictsInBothFormats(@TempDir Path dir) throws Exception {
        for (String format : new String[] {"chronos", "jsonl"}) {
            Path f = dir.resolve("si-la." + format);
            CheckCommandTest.Run g = CheckCommandTest.run("bench", "generate", "--workload", "list-append", "--store",
                    "si", "--txns", "1000", "--sessions", "8", "--keys", "30", "--appends-per-key", "20", "--format",
                    format, "--out", f.toString());
            assertEquals(0, g.code(), g.err());
            assertTrue(g.out().startsWith("generated 1,000 transactions (si store, list-append"), g.out());
            CheckCommandTest.Run si = CheckCommandTest.run("check", "--level", "snapshot-isolation", f.toString());
            assertEquals(Main.VALID, si.code(), si.out() + si.err());
            assertTrue(si.out().contains("(" + format + ", 1,000 transactions"), si.out());
            assertEquals(1, CheckCommandTest.run("check", "--level", "serializable", f.toString()).code());
        }
        Path ser = dir.resolve("ser-la.json");
        assertEquals(0, CheckCommandTest.run("bench", "generate", "--workload", "list-append", "--store", "ser",
                "--txns", "1000", "--keys", "30", "--out", ser.toString()).code());
        assertEquals(Main.VALID, CheckCommandTest.run("check", "--level", "serializable", ser.toString()).code());
    }

    @Test
    void badOptionsAreUsageErrors(@TempDir Path dir) {
        CheckCommandTest.Run r = CheckCommandTest.run("bench", "generate", "--store", "pc", "--txns", "10", "--out",
                dir.resolve("x").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("unknown --store 'pc': use si, ser or rc"), r.err());
        r = CheckCommandTest.run("bench", "generate", "--workload", "list-append", "--format", "text", "--txns", "10",
                "--out", dir.resolve("x").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--format text does not hold list-append histories: use chronos or jsonl"),
                r.err());
        r = CheckCommandTest.run("bench", "generate", "--appends-per-key", "5", "--txns", "10", "--out",
                dir.resolve("x").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--appends-per-key is for --workload list-append"), r.err());
    }
}
