package isostress.harness.run;

import isostress.checker.model.WitnessReport;
import isostress.harness.Services;
import isostress.harness.config.Campaign;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code check.witness} on a MariaDB the harness did not start ({@code provision: external}, a local mariadbd with
 * the binary log standing in): a user who may not read the log as a replica is told what to grant before the
 * workload; granted it, the run reads the log and joins it clean.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ExternalMariaDbWitnessTest {
    private static final String USER = "isouser", PASSWORD = "pw";

    @TempDir
    static Path dir;
    static RunningDatabase server;

    @TempDir
    Path store;

    @BeforeAll
    static void startMariaDb() throws Exception {
        Services.requireLocalMariaDb();
        Campaign c = Campaigns.parse(dir, "name: ext-maria-server\ndatabase: {type: mariadb, provision: local}\n"
                + "check: {witness: true}\n");
        server = Provisioner.of(c.database()).start(c.serverSpec(), dir.resolve("server-logs"), 20);
        // A user of the workload's database only, as an external server's may be.
        asRoot("CREATE USER '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
        asRoot("GRANT ALL ON isostress.* TO '" + USER + "'@'%'");
    }

    @AfterAll
    static void stopMariaDb() {
        if (server != null) server.close();
    }

    /** mariadb-install-db's root has no password (the provisioner installs it so) and may connect over TCP. */
    private static void asRoot(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:"
                + server.nodes().get(0).clientPort() + "/", "root", ""); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private RunOutcome run(String name) throws Exception {
        return Campaigns.run(Campaigns.parse(store, "name: " + name + "\n"
                + "database: {type: mariadb, provision: external, isolation: repeatable-read, url: "
                + "\"jdbc:mariadb://" + USER + ":" + PASSWORD + "@127.0.0.1:" + server.nodes().get(0).clientPort()
                + "/isostress\"}\n"
                + "workload: {type: mini, sessions: 4, transactions: 1000, keys: 10, seed: 3}\n"
                + "check: {levels: [read-committed], witness: true}\n"));
    }

    private static void assertRefused(RunOutcome refused) {
        assertNotNull(refused.error());
        assertTrue(refused.error().startsWith("check.witness needs a user who may read the binary log as a replica "
                + "does, and " + USER + " may not"), refused.error());
        assertTrue(refused.error().contains("GRANT REPLICATION SLAVE, BINLOG MONITOR ON *.* TO " + USER),
                refused.error());
        assertEquals(2, refused.exitStatus());
        assertEquals(0, refused.stats().attempted(), "no transaction ran");
    }

    @Test
    void userWhoMayNotReadTheLogIsToldBeforeTheWorkloadThenTheRunIsJoined() throws Exception {
        assertRefused(run("ext-maria-nopriv")); // SHOW MASTER STATUS is refused
        asRoot("GRANT BINLOG MONITOR ON *.* TO '" + USER + "'@'%'");
        assertRefused(run("ext-maria-monitor")); // the log's position is seen, the dump is refused

        asRoot("GRANT REPLICATION SLAVE ON *.* TO '" + USER + "'@'%'");
        RunOutcome o = run("ext-maria-repl");
        assertNull(o.error(), o.error());
        WitnessReport w = o.result().witness();
        assertNotNull(w);
        assertEquals(0, w.findingCount(), w.summary());
        assertTrue(w.matched() > 300, w.summary());
    }
}
