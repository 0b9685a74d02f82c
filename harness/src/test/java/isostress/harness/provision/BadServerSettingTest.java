package isostress.harness.provision;

import isostress.harness.Services;
import isostress.harness.cli.Main;
import isostress.harness.config.CampaignLoader;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Provisioner;
import isostress.harness.db.mariadb.LocalMariaDbProvisioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server setting the server does not know is named from the server's own message, as soon as the
 * server gives up (it used to take zonky's full 10 s wait and end in a stack trace). Real servers: embedded
 * PostgreSQL always; a local MariaDB and Galera when installed.
 */
class BadServerSettingTest {
    @TempDir
    Path dir;

    private DatabaseSpec database(String yaml) {
        return CampaignLoader.parse(Path.of("camp.yaml"), yaml).database();
    }

    private SettingRefusedException refused(DatabaseSpec db) {
        long t0 = System.nanoTime();
        SettingRefusedException e = assertThrows(SettingRefusedException.class,
                () -> Provisioner.of(db).start(db, Files.createTempDirectory(dir, "logs"), 4).close());
        System.out.printf("%s: refused in %d ms: %s%n", db.provision(), (System.nanoTime() - t0) / 1_000_000,
                e.serverLine());
        return e;
    }

    @Test
    void embeddedPostgresQuotesItsFatalLine() {
        SettingRefusedException e = refused(database("database:\n  settings: {bogus_setting: 1}\n"));
        assertEquals("bogus_setting", e.setting());
        assertEquals("FATAL: unrecognized configuration parameter \"bogus_setting\"", e.serverLine());
        e = refused(database("database:\n  settings: {work_mem: lots}\n"));
        assertEquals("work_mem", e.setting());
        assertTrue(e.serverLine().startsWith("FATAL: invalid value for parameter \"work_mem\": \"lots\""),
                e.serverLine());
    }

    @Test
    void localMariaDbQuotesItsErrorLine() {
        Services.requireLocalMariaDb();
        SettingRefusedException e = refused(database("database:\n  type: mariadb\n  settings: {bogus_setting: 1}\n"));
        assertEquals("bogus_setting", e.setting());
        assertTrue(e.serverLine().matches("\\[ERROR] \\S*mariadbd: unknown variable 'bogus_setting=1'"),
                e.serverLine());
    }

    @Test
    void galeraNodeQuotesItsErrorLine() {
        Services.require(LocalMariaDbProvisioner.galeraAvailable(), "a local Galera cluster (mariadbd, galera-4, rsync)",
                "apt-get install -y mariadb-server galera-4 rsync");
        SettingRefusedException e = refused(database("database:\n  type: mariadb\n  nodes: 3\n"
                + "  settings: {bogus-setting: 1}\n"));
        assertEquals("bogus-setting", e.setting());
        assertTrue(e.serverLine().contains("unknown variable 'bogus-setting=1'"), e.serverLine());
    }

    @Test
    void runNamesTheSettingByFileAndLineAndExitsTwoWithoutAStackTrace() throws Exception {
        Path f = dir.resolve("camp.yaml");
        Files.writeString(f, "store: " + dir.resolve("store") + "\nworkload: {transactions: 10, sessions: 2}\n"
                + "database:\n  settings:\n    bogus_setting: 1\n");
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter(), err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        PrintStream stderr = System.err;
        ByteArrayOutputStream libraries = new ByteArrayOutputStream();
        System.setErr(new PrintStream(libraries, true));
        int code;
        try {
            code = cl.execute("run", f.toString(), "--no-progress");
        } finally {
            System.setErr(stderr);
        }
        String all = out + "" + err + libraries;
        assertEquals(2, code, all);
        assertTrue(all.contains(f + ":5 database.settings.bogus_setting: embedded PostgreSQL 16.15.0 refused it: "
                + "FATAL: unrecognized configuration parameter \"bogus_setting\""), all);
        assertFalse(all.contains("\tat ") || all.contains("Exception"), "no stack trace: " + all);
    }
}
