package isostress.harness.db;

import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;
import isostress.harness.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The registry: every database is found by its name, and each SQL type names its own driver. */
class DatabasesTest {
    @Test
    void everyNameIsOneDatabaseAndCampaignsReachIt() {
        List<String> names = Databases.names();
        assertEquals(List.of("postgresql", "mariadb", "mysql", "mongodb"), names);
        assertEquals(names.size(), new HashSet<>(names).size());
        for (String n : names) {
            assertEquals(n, Databases.byName(n).name());
            String url = n.equals("mongodb") ? "mongodb://h:27017/" : n.equals("postgresql") ? "jdbc:postgresql://h/d"
                    : "jdbc:" + n + "://h/d";
            Campaign c = CampaignLoader.parse(Path.of("c.yaml"), "database: {type: " + n
                    + ", provision: external, url: \"" + url + "\", isolation: serializable}\n");
            assertSame(Databases.byName(n), c.database().type());
        }
        assertNull(Databases.byName("oracle"));
    }

    /** A database says how it can be obtained and gives a provisioner for each; messages come from the registry. */
    @Test
    void eachDatabaseProvisionsItselfAndTheMessagesListTheRegistry() {
        for (Database d : Databases.all()) {
            assertTrue(d.provisions().contains(d.defaultProvision()), d.name());
            for (Provision p : Provision.values()) {
                if (d.provisions().contains(p)) {
                    assertNull(d.provisionProblem(p), d.name() + " " + p);
                    assertTrue(d.provisioner(p) != null, d.name() + " " + p);
                } else {
                    assertThrows(IllegalArgumentException.class, () -> d.provisioner(p), d.name() + " " + p);
                }
            }
        }
        assertEquals("provision must be one of local, docker, external for mariadb; embedded is PostgreSQL's",
                Databases.byName("mariadb").provisionProblem(Provision.EMBEDDED));
        assertEquals("provision must be one of docker, external for mongodb; local is PostgreSQL's, MariaDB's and "
                + "MySQL's", Databases.byName("mongodb").provisionProblem(Provision.LOCAL));
        assertEquals("provision must be one of local, external for mysql; docker is PostgreSQL's, MariaDB's and "
                + "MongoDB's", Databases.byName("mysql").provisionProblem(Provision.DOCKER));
        ConfigException e = assertThrows(ConfigException.class, () -> CampaignLoader.parse(Path.of("c.yaml"),
                "database: {type: mongodb, provision: embedded}\n"));
        assertTrue(e.getMessage().contains("c.yaml:1 database.provision: provision must be one of docker, external "
                + "for mongodb; embedded is PostgreSQL's"), e.getMessage());
    }

    @Test
    void eachSqlTypeUsesItsOwnDriver() {
        assertEquals("org.postgresql.Driver", jdbc("postgresql").driverClass());
        assertEquals("org.mariadb.jdbc.Driver", jdbc("mariadb").driverClass());
        assertEquals("com.mysql.cj.jdbc.Driver", jdbc("mysql").driverClass());
        assertInstanceOf(com.mysql.cj.jdbc.Driver.class, jdbc("mysql").driver());
        assertInstanceOf(org.mariadb.jdbc.Driver.class, jdbc("mariadb").driver());
    }

    /** The local provisioner writes jdbc:mariadb: URLs; each driver gets its own scheme. */
    @Test
    void urlsAreRewrittenToTheDriversScheme() throws Exception {
        assertEquals("jdbc:mysql://127.0.0.1:3306/isostress", jdbc("mysql").clientUrl("jdbc:mariadb://127.0.0.1:3306/isostress"));
        assertEquals("jdbc:mariadb://h/d", jdbc("mariadb").clientUrl("jdbc:mysql://h/d"));
        assertEquals("jdbc:postgresql://h/d", jdbc("postgresql").clientUrl("jdbc:postgresql://h/d"));
        assertTrue(jdbc("mysql").driver().acceptsURL("jdbc:mysql://h/d"));
    }

    @Test
    void aTypeRefusesAnotherDatabasesUrl() {
        ConfigException e = assertThrows(ConfigException.class, () -> CampaignLoader.parse(Path.of("c.yaml"),
                "database: {type: mysql, provision: external, url: \"jdbc:postgresql://h/d\"}\n"));
        assertTrue(e.getMessage().contains("database.url: must be a jdbc:mysql: or jdbc:mariadb: URL for type mysql"),
                e.getMessage());
    }

    private static JdbcDatabase jdbc(String name) {
        return (JdbcDatabase) Databases.byName(name);
    }
}
