package isostress.harness.run;

import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.model.Verdict;
import isostress.harness.Services;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.DbNode;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import isostress.harness.db.postgresql.patroni.PatroniProvisioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static isostress.checker.model.IsolationLevel.SERIALIZABLE;
import static isostress.checker.model.IsolationLevel.STRICT_SERIALIZABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A 3-member Patroni cluster with etcd: a serializable campaign on its primary, checked, and nothing left after. */
class PatroniClusterTest {
    private static final Pattern ADDRESS = Pattern.compile("(127\\.0\\.0\\.\\d+):(\\d+)");

    @TempDir
    Path store;

    /**
     * A start-up that fails names only the logs' directory, which goes with the temporary directory: so a failing
     * test prints the end of every log it wrote (etcd's and each member's) before the directory is removed.
     */
    @RegisterExtension
    final TestExecutionExceptionHandler logsOnFailure = (context, failure) -> {
        try (var files = Files.walk(store)) {
            for (Path log : files.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
                List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
                System.out.println("---- " + store.relativize(log) + ", last lines of " + lines.size());
                lines.subList(Math.max(0, lines.size() - 60), lines.size()).forEach(System.out::println);
            }
        }
        throw failure;
    };

    private static void requirePatroni() {
        Services.require(PatroniProvisioner.available(), "a Patroni cluster (patroni, etcd and PostgreSQL 15)",
                PatroniProvisioner.install());
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void serializableCampaignOnTheLeaderIsValidAndLeavesNothingBehind() throws Exception {
        requirePatroni();
        // The members run the Patroni program the campaign names (database.patroni-program): here Debian's Patroni
        // behind a few lines that first print a mark, which must then be in every member's log. The program is
        // run as user postgres, so it goes where that user can read it.
        Path program = Files.createTempFile("isostress-patroni-program", ".py");
        try {
            Files.writeString(program, "import sys\nprint('" + PROGRAM_MARK + "', flush=True)\n"
                    + "from patroni.__main__ import main\nsys.exit(main())\n");
            Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rw-r--r--"));
            campaignOnTheLeader(program);
        } finally {
            Files.deleteIfExists(program);
        }
    }

    private static final String PROGRAM_MARK = "the Patroni program of PatroniClusterTest";

    private void campaignOnTheLeader(Path program) throws Exception {
        RunOutcome o = Campaigns.run(Campaigns.parse(store, "name: patroni\n"
                + "database: {type: postgresql, provision: patroni, nodes: 3, isolation: serializable,\n"
                + "  patroni-program: '" + program + "'}\n"
                + "workload: {type: rw-register, sessions: 4, transactions: 1000000, keys: 20, seed: 3, duration: 8s}\n"
                + "check: {levels: [serializable, strict-serializable]}\n"));
        assertNull(o.error(), o.error());
        System.out.println("patroni: " + o.database() + "; " + o.stats().committed() + " committed");
        assertTrue(o.database().contains("Patroni 3.0.2 cluster of 3 PostgreSQL 15")
                && o.database().contains("leader n")
                && o.database().contains("replicas streaming in"), o.database());
        assertTrue(o.stats().committed() > 100, "committed " + o.stats().committed());
        assertEquals(Verdict.VALID, o.result().level(SERIALIZABLE).verdict(), o.result().anomalyCounts().toString());
        assertEquals(Verdict.VALID, o.result().level(STRICT_SERIALIZABLE).verdict());
        History h = HistoryFormat.JSONL.read(o.dir().history());
        assertTrue(h.size() > 100, "history of " + h.size());
        for (String log : List.of("etcd.log", "n1-patroni.log", "n2-patroni.log", "n3-patroni.log")) {
            assertTrue(Files.size(o.dir().logs().resolve(log)) > 0, log + " is empty");
        }
        for (String log : List.of("n1-patroni.log", "n2-patroni.log", "n3-patroni.log")) {
            assertTrue(Files.readString(o.dir().logs().resolve(log), StandardCharsets.ISO_8859_1)
                    .contains(PROGRAM_MARK), log + " does not show the campaign's Patroni program");
        }
        assertNothingLeft();
        List<String> busy = new ArrayList<>();
        Matcher m = ADDRESS.matcher(o.database());
        int ports = 0;
        while (m.find()) {
            ports++;
            try (ServerSocket s = new ServerSocket(Integer.parseInt(m.group(2)), 1,
                    InetAddress.getByName(m.group(1)))) {
                s.getLocalPort();
            } catch (IOException e) {
                busy.add(m.group() + ": " + e.getMessage());
            }
        }
        assertEquals(4, ports, "three members and etcd in " + o.database());
        assertEquals(List.of(), busy, "ports still in use");
    }

    /**
     * The cluster's URL reaches the primary, and after the primary's member crashes (Patroni and PostgreSQL killed
     * at once) a new connection through the same URL reaches the replica Patroni promoted, which takes writes.
     */
    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void theClustersUrlFollowsThePrimaryAcrossAFailover() throws Exception {
        requirePatroni();
        DatabaseSpec spec = Campaigns.parse(store, "name: patroni-failover\n"
                + "database: {type: postgresql, provision: patroni, nodes: 3}\n").database();
        try (RunningDatabase db = Provisioner.of(spec).start(spec, store.resolve("logs"), 4)) {
            String before = primaryAddress(db);
            DbNode leader = db.nodes().stream().filter(n -> n.host().equals(before)).findFirst().orElseThrow();
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                 Statement st = c.createStatement()) {
                st.execute("CREATE TABLE t (k int PRIMARY KEY)");
                leader.kill();
                assertThrows(SQLException.class, () -> st.execute("INSERT INTO t VALUES (1)"));
            }
            long t0 = System.nanoTime();
            String after = null;
            while (after == null && System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(90)) {
                try {
                    after = primaryAddress(db);
                } catch (SQLException e) {
                    Thread.sleep(250); // no primary yet
                }
            }
            assertNotEquals(null, after, "no primary within 90 s of the crash");
            assertNotEquals(before, after, "the URL still reaches the crashed member");
            System.out.println("patroni: " + leader.name() + " (" + before + ") crashed; the URL reached the new "
                    + "primary " + after + " after " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                 Statement st = c.createStatement()) {
                st.execute("INSERT INTO t VALUES (2)");
                try (ResultSet rs = st.executeQuery("SELECT pg_is_in_recovery()")) {
                    rs.next();
                    assertFalse(rs.getBoolean(1), "the URL reached a standby");
                }
            }
        }
        assertNothingLeft();
    }

    /** The address of the server the cluster's URL reaches. */
    private static String primaryAddress(RunningDatabase db) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT host(inet_server_addr())")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** No process names a cluster directory of this harness's, and no such directory is left. */
    static void assertNothingLeft() throws IOException {
        String mine = "isostress-patroni-" + ProcessHandle.current().pid() + "-";
        List<String> left = ProcessHandle.allProcesses()
                .map(p -> p.info().commandLine().orElse(""))
                .filter(c -> c.contains(mine)).toList();
        assertEquals(List.of(), left, "processes of the cluster still running");
        try (var dirs = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertEquals(List.of(), dirs.filter(p -> p.getFileName().toString().startsWith(mine)).toList());
        }
    }
}
