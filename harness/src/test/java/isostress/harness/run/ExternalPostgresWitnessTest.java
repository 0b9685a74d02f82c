package isostress.harness.run;

import isostress.checker.model.WitnessReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code check.witness} on a server the harness did not start ({@code provision: external}, an embedded PostgreSQL
 * with {@code wal_level = logical} standing in): a user without the REPLICATION privilege is told so before the
 * workload; with it, the run reads the log through a temporary slot, which is gone once the run ends.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ExternalPostgresWitnessTest {
    @TempDir
    static Path dir;
    static PasswordPostgres pg;

    @TempDir
    Path store;

    @BeforeAll
    static void startPostgres() throws Exception {
        pg = new PasswordPostgres(dir, "pw", Map.of("wal_level", "logical"));
    }

    @AfterAll
    static void stopPostgres() {
        if (pg != null) pg.close();
    }

    private RunOutcome run(String name) throws Exception {
        return Campaigns.run(Campaigns.parse(store, "name: " + name + "\n"
                + "database: {type: postgresql, provision: external, isolation: serializable, url: "
                + "\"jdbc:postgresql://isouser:pw@127.0.0.1:" + pg.port() + "/" + PasswordPostgres.DATABASE + "\"}\n"
                + "workload: {type: mini, sessions: 4, transactions: 1000, keys: 10, seed: 3}\n"
                + "check: {witness: true}\n"));
    }

    @Test
    void userWithoutReplicationIsToldBeforeTheWorkloadThenTheRunIsJoined() throws Exception {
        RunOutcome refused = run("ext-norepl");
        assertNotNull(refused.error());
        assertTrue(refused.error().startsWith("check.witness needs a user with the REPLICATION privilege"),
                refused.error());
        assertTrue(refused.error().contains("ALTER ROLE isouser REPLICATION"), refused.error());
        assertEquals(2, refused.exitStatus());
        assertEquals(0, refused.stats().attempted(), "no transaction ran");

        pg.asSuperuser("ALTER ROLE " + PasswordPostgres.USER + " REPLICATION");
        RunOutcome o = run("ext-repl");
        assertNull(o.error(), o.error());
        WitnessReport w = o.result().witness();
        assertNotNull(w);
        assertEquals(0, w.findingCount(), w.summary());
        assertTrue(w.matched() > 300, w.summary());
        // The temporary slot went with the capture's connection: nothing holds the server's WAL after the run.
        pg.asSuperuser("DO $$ BEGIN IF (SELECT count(*) FROM pg_replication_slots) > 0 THEN "
                + "RAISE EXCEPTION 'a replication slot is left'; END IF; END $$");
    }
}
