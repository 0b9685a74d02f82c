package isostress.harness.config;

import org.junit.jupiter.api.Test;

import static isostress.harness.config.CampaignLoaderTest.FILE;
import static isostress.harness.config.CampaignLoaderTest.hasProblem;
import static isostress.harness.config.CampaignLoaderTest.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code check.witness}: where it is on by default, where it may be asked for, and the settings it brings. */
class CheckWitnessLoaderTest {
    private static Campaign parse(String yaml) {
        return CampaignLoader.parse(FILE, yaml);
    }

    @Test
    void defaultFollowsProvisionAndWorkload() {
        assertEquals(CheckWitness.ON_BY_DEFAULT, parse("name: x\n").witness(), "embedded PostgreSQL, mini");
        assertFalse(parse("workload: {type: cas}\n").witness(), "single-register histories are not joined");
        assertFalse(parse("database: {type: postgresql, provision: external, url: 'jdbc:postgresql://h/db'}\n")
                .witness(), "an external server is not reconfigured unasked");
        assertEquals(CheckWitness.ON_BY_DEFAULT, parse("database: {type: mariadb}\n").witness(), "local MariaDB");
        assertEquals(CheckWitness.ON_BY_DEFAULT, parse("database: {type: mariadb, nodes: 3}\n").witness(),
                "a local Galera cluster");
        assertFalse(parse("database: {type: mariadb, provision: external, url: 'jdbc:mariadb://h/db'}\n").witness(),
                "an external MariaDB is not read unasked");
        assertFalse(parse("database: {type: mysql}\n").witness(), "mysql has no capture");
        assertFalse(parse("check: {witness: false}\n").witness());
    }

    @Test
    void askedForItSetsWalLevelUnlessTheCampaignSetsIt() {
        Campaign c = parse("check: {witness: true}\n");
        assertTrue(c.witness());
        assertEquals("logical", c.serverSpec().settings().get("wal_level"));
        assertEquals("replica", parse("database: {settings: {wal_level: replica}}\ncheck: {witness: true}\n")
                .serverSpec().settings().get("wal_level"), "the campaign's own setting wins");
        assertNull(parse("check: {witness: false}\n").serverSpec().settings().get("wal_level"));
        Campaign external = parse("database: {type: postgresql, provision: external, url: 'jdbc:postgresql://h/db'}\n"
                + "check: {witness: true}\n");
        assertTrue(external.witness());
        assertNull(external.serverSpec().settings().get("wal_level"), "an external server is checked, not configured");
    }

    @Test
    void askedForOnMariaDbItTurnsTheBinaryLogOn() {
        Campaign c = parse("database: {type: mariadb, nodes: 3}\ncheck: {witness: true}\n");
        assertTrue(c.witness());
        assertEquals("mariadb-bin", c.serverSpec().settings().get("log_bin"));
        assertEquals("ROW", c.serverSpec().settings().get("binlog_format"));
        assertEquals("FULL", c.serverSpec().settings().get("binlog_row_image"));
        assertEquals("ON", c.serverSpec().settings().get("log_slave_updates"));
        assertNull(parse("database: {type: mariadb}\ncheck: {witness: false}\n").serverSpec().settings()
                .get("log_bin"));
        Campaign external = parse("database: {type: mariadb, provision: external, url: 'jdbc:mariadb://h/db'}\n"
                + "check: {witness: true}\n");
        assertTrue(external.witness());
        assertNull(external.serverSpec().settings().get("log_bin"), "an external server is checked, not configured");
    }

    @Test
    void databasesWithoutCaptureAndOtherWorkloadsAreRefused() {
        hasProblem(problems("database: {type: mysql}\ncheck:\n  witness: true\n"), "camp.yaml:3 check.witness",
                "needs a database whose commit log isostress reads (postgresql or mariadb), was mysql");
        hasProblem(problems("workload: {type: cas}\ncheck:\n  witness: true\n"), "camp.yaml:3 check.witness",
                "applies to the mini, rw-register and list-append workloads");
        hasProblem(problems("check:\n  witness: yes-please\n"), "camp.yaml:2 check.witness", "must be true or false");
    }
}
