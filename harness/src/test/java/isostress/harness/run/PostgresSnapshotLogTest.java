package isostress.harness.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code database.settings: {isostress.log_snapshots: on}} on embedded PostgreSQL: every transaction first has the
 * server log its snapshot, tied by the log line prefix's virtual xid to the transaction's statements; without the
 * setting no such line and no extra statement.
 */
class PostgresSnapshotLogTest {
    @TempDir
    Path store;

    /** {@code 2026-11-28 00:30:26.864 UTC [14848] 3/17 0 LOG:  isostress snapshot 740:745:741,743}. */
    private static final Pattern SNAPSHOT = Pattern.compile(
            "\\[(\\d+)] (\\d+/\\d+) \\d+ LOG:  isostress snapshot (\\d+):(\\d+):([\\d,]*)$");
    private static final Pattern STATEMENT = Pattern.compile(
            "\\[(\\d+)] (\\d+/\\d+) \\d+ LOG:  (?:statement|execute [^:]*): (.*)$");

    static String yaml(String settings) {
        return "name: pg-snapshots\n"
                + "database: {type: postgresql, provision: embedded, isolation: serializable, settings: {"
                + settings + "log_statement: all, log_line_prefix: '%m [%p] %v %x '}}\n"
                + "workload: {type: rw-register, sessions: 4, transactions: 400, keys: 10, min-ops: 2, max-ops: 4,"
                + " seed: 3}\n"
                + "check: {levels: [serializable], witness: false}\n";
    }

    private static List<String> log(RunOutcome o) throws Exception {
        return Files.readAllLines(o.dir().path().resolve("logs").resolve("postgresql.log"));
    }

    @Test
    void eachTransactionLogsItsSnapshotFirst() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml("isostress.log_snapshots: on, ")));
        assertNull(o.error(), o.error());
        List<String> lines = log(o);
        // Per virtual transaction: its snapshot line and the statements logged for it, in log order.
        Map<String, List<String>> byVxid = new HashMap<>();
        int snapshots = 0;
        for (String line : lines) {
            Matcher s = SNAPSHOT.matcher(line);
            if (s.find()) {
                snapshots++;
                long xmin = Long.parseLong(s.group(3)), xmax = Long.parseLong(s.group(4));
                assertTrue(xmin <= xmax, line);
                byVxid.computeIfAbsent(s.group(1) + " " + s.group(2), k -> new ArrayList<>()).add("snapshot");
                continue;
            }
            Matcher m = STATEMENT.matcher(line);
            if (m.find()) byVxid.computeIfAbsent(m.group(1) + " " + m.group(2), k -> new ArrayList<>()).add(m.group(3));
        }
        assertEquals(o.stats().attempted(), snapshots, "one snapshot line per transaction");
        int workload = 0;
        for (Map.Entry<String, List<String>> e : byVxid.entrySet()) {
            List<String> t = e.getValue();
            if (t.stream().noneMatch(x -> x.startsWith("SELECT v FROM isostress_kv")
                    || x.startsWith("UPDATE isostress_kv"))) {
                continue;
            }
            workload++;
            // BEGIN (when the driver logs it), the DO block, then the snapshot it logged, before any read or write.
            int doAt = -1;
            for (int i = 0; i < t.size() && doAt < 0; i++) {
                if (t.get(i).startsWith("DO $$BEGIN RAISE LOG 'isostress snapshot")) doAt = i;
            }
            assertTrue(doAt >= 0 && doAt + 1 < t.size() && t.get(doAt + 1).equals("snapshot"), e.getKey() + ": " + t);
            for (int i = 0; i < doAt; i++) assertTrue(t.get(i).equals("BEGIN"), e.getKey() + ": " + t);
        }
        assertEquals(o.stats().attempted(), workload, "every transaction's statements under one virtual xid");
    }

    @Test
    void withoutTheSettingNothingIsAdded() throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, yaml("")));
        assertNull(o.error(), o.error());
        for (String line : log(o)) {
            assertTrue(!line.contains("isostress snapshot") && !line.contains("RAISE LOG"), line);
        }
    }
}
