package isostress.harness.run;

import isostress.checker.model.WitnessReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code check.witness} asked for on a MariaDB container ({@code provision: docker}): the server gets the binary log
 * and the image's user the privilege to read it, and the log joins the history clean.
 */
class DockerMariaDbWitnessTest {
    private static final String MARIADB = image();

    @TempDir
    Path store;

    private static String image() {
        String v = System.getenv("ISOSTRESS_DOCKER_MARIADB_IMAGE");
        return v == null || v.isBlank() ? "isostress/mariadb:10.11" : v;
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void containerLogIsReadAndJoined() throws Exception {
        DockerCli.requireImage(MARIADB);
        RunOutcome o = Campaigns.run(Campaigns.parse(store, "name: docker-maria-witness\n"
                + "database: {type: mariadb, provision: docker, image: \"" + MARIADB + "\", isolation: repeatable-read}\n"
                + "workload: {type: mini, sessions: 4, transactions: 2000, keys: 10, seed: 6}\n"
                + "check: {levels: [read-committed], witness: true}\n"));
        assertNull(o.error(), o.error());
        WitnessReport w = o.result().witness();
        assertNotNull(w);
        assertEquals(0, w.findingCount(), w.summary());
        assertTrue(w.matched() > 500, w.summary());
        assertFalse(Files.readString(o.dir().witness()).isEmpty());
    }
}
