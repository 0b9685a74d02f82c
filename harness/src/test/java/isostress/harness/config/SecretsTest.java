package isostress.harness.config;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Isolation;
import isostress.harness.db.Provision;
import isostress.harness.db.Secrets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@link Secrets#mask} hides, by form and by value, and what it leaves alone. */
class SecretsTest {
    @AfterEach
    void forget() {
        Secrets.register(new DatabaseSpec(isostress.harness.db.Databases.byName("postgresql"), Provision.EMBEDDED, "16.15",
                null, null, null, Isolation.SERIALIZABLE, java.util.Map.of()));
    }

    @Test
    void urlForms() {
        assertEquals("jdbc:postgresql://u:***@h:5432/db", Secrets.mask("jdbc:postgresql://u:p%40ss@h:5432/db"));
        assertEquals("mongodb://admin:***@h1:27017,h2/?replicaSet=rs0",
                Secrets.mask("mongodb://admin:s3cr3t@h1:27017,h2/?replicaSet=rs0"));
        assertEquals("jdbc:mariadb://h/db?user=u&password=***&x=1",
                Secrets.mask("jdbc:mariadb://h/db?user=u&password=pw&x=1"));
        assertEquals("jdbc:mariadb://h/db?password=***", Secrets.mask("jdbc:mariadb://h/db?password=pw"));
        assertEquals("jdbc:sqlserver://h;user=u;password=***;db=x",
                Secrets.mask("jdbc:sqlserver://h;user=u;password=pw;db=x"));
        assertEquals("url: \"jdbc:postgresql://u:***@h/db\"\n", Secrets.mask("url: \"jdbc:postgresql://u:pw@h/db\"\n"));
    }

    @Test
    void leavesOrdinaryUrlsAlone() {
        for (String s : new String[] {"jdbc:postgresql://h:5432/db?user=u", "jdbc:mariadb://h1:3306,h2:3306/db",
                "mongodb://h:27017/?directConnection=true", "jdbc:postgresql://h:5432/db?user=a@b.c", "keys: 100"}) {
            assertEquals(s, Secrets.mask(s));
        }
        assertNull(Secrets.mask(null));
    }

    @Test
    void registeredValuesAnywhere() {
        String yaml = "name: x\ndatabase: {type: postgresql, provision: external, "
                + "url: \"jdbc:postgresql://u:Pw%2Fx@h/db\", "
                + "settings: {ssl_passphrase_command: \"echo HUNTER2\", api_token: T0K3N, work_mem: 64MB}}\n";
        Campaign c = CampaignLoader.parse(Path.of("c.yaml"), yaml);
        String error = "FATAL: bad password Pw/x for user u; T0K3N was rejected; command 'echo HUNTER2' failed";
        String masked = Secrets.mask(error);
        assertFalse(masked.contains("Pw/x") || masked.contains("T0K3N") || masked.contains("HUNTER2"), masked);
        assertEquals("64MB", c.database().settings().get("work_mem"));
        assertTrue(Secrets.mask(yaml).contains("work_mem: 64MB"), "a setting that is no secret stays");
        assertFalse(Secrets.mask(c.text()).contains("T0K3N"));
    }

    @Test
    void aLaterCampaignReplacesTheSecretsOfAnEarlierOne() {
        CampaignLoader.parse(Path.of("a.yaml"), "name: a\ndatabase: {type: postgresql, provision: external, "
                + "url: \"jdbc:postgresql://h/db?password=wrong\"}\n");
        assertEquals("***", Secrets.mask("wrong"));
        CampaignLoader.parse(Path.of("b.yaml"), "name: b\ndatabase: {type: postgresql, provision: external, "
                + "url: \"jdbc:postgresql://h/db?password=right\"}\n");
        assertEquals("a wrong turn", Secrets.mask("a wrong turn"));
        assertEquals("***", Secrets.mask("right"));
    }

    @Test
    void aVeryShortPasswordIsHiddenInItsUrlOnly() {
        CampaignLoader.parse(Path.of("m.yaml"), "name: m\ndatabase: {type: mongodb, provision: external, "
                + "isolation: snapshot, url: \"mongodb://u:p@h:27017/\"}\n");
        assertEquals("mongodb://u:***@h:27017/: is mongod up?", Secrets.mask("mongodb://u:p@h:27017/: is mongod up?"));
    }

    @Test
    void secretKeys() {
        for (String k : new String[] {"password", "ssl_passphrase_command", "api_token", "client_secret",
                "ssl_key_file"}) {
            assertTrue(Secrets.secretKey(k), k);
        }
        for (String k : new String[] {"work_mem", "innodb_snapshot_isolation", "deadlock_timeout"}) {
            assertFalse(Secrets.secretKey(k), k);
        }
    }

    @Test
    void loaderProblemsDoNotQuoteThePassword() {
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class, () -> CampaignLoader.parse(
                Path.of("c.yaml"), "name: x\ndatabase: {type: postgresql, provision: external, "
                        + "url: \"jdbc:mysql://u:HUNTER2@h/db\"}\n"));
        assertFalse(e.getMessage().contains("HUNTER2"), e.getMessage());
    }
}
