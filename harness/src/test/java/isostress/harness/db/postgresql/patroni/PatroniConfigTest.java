package isostress.harness.db.postgresql.patroni;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A member's configuration file and the REST API's cluster view, as Patroni 3.0.2 writes and reads them. */
class PatroniConfigTest {
    @TempDir
    Path dir;

    @Test
    void memberConfigCarriesItsAddressesAndTheSharedBootstrap() throws Exception {
        PatroniTools tools = new PatroniTools(Path.of("/usr/bin/patroni"), Path.of("/usr/bin/python3"),
                Path.of("/usr/bin/etcd"), Path.of("/usr/lib/postgresql/15/bin"), "15.20", "3.0.2");
        PatroniMember.Address a = new PatroniMember.Address("n2", "127.0.0.2", 5433, 8009);
        Map<String, String> dynamic = PatroniSettings.effective(Map.of("synchronous_mode", "true", "ttl", "20"));
        Path file = dir.resolve("n2.yml");
        PatroniConfig.write(PatroniConfig.of(a, dir.resolve("n2"), tools, 2379, dynamic,
                Map.of("max_connections", "120")), file);
        JsonNode c = new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
        assertEquals("n2", c.path("name").asText());
        assertEquals("127.0.0.2:8009", c.path("restapi").path("listen").asText());
        assertEquals("127.0.0.102:2379", c.path("etcd3").path("hosts").asText(), "member 2's own address of etcd's");
        assertEquals("127.0.0.2,127.0.0.52:5433", c.path("postgresql").path("listen").asText());
        assertEquals("127.0.0.2:5433", c.path("postgresql").path("connect_address").asText());
        assertEquals(dir.resolve("n2").resolve("data").toString(), c.path("postgresql").path("data_dir").asText());
        JsonNode dcs = c.path("bootstrap").path("dcs");
        // Numbers and booleans keep their type: Patroni compares them so.
        assertTrue(dcs.path("ttl").isNumber());
        assertEquals(20, dcs.path("ttl").asInt());
        assertEquals(2, dcs.path("loop_wait").asInt());
        // The commit-log capture's slots, which Patroni would drop when it reloads its slots after a promotion.
        assertEquals("logical", dcs.path("ignore_slots").path(0).path("type").asText());
        assertEquals("test_decoding", dcs.path("ignore_slots").path(0).path("plugin").asText());
        assertTrue(dcs.path("synchronous_mode").isBoolean() && dcs.path("synchronous_mode").asBoolean());
        assertTrue(dcs.path("postgresql").path("use_pg_rewind").asBoolean());
        assertEquals("120", dcs.path("postgresql").path("parameters").path("max_connections").asText());
    }

    @Test
    void clusterViewNamesTheRunningLeader() throws Exception {
        // GET /cluster of Patroni 3.0.2 while a replica still clones.
        List<PatroniRest.Member> m = PatroniRest.parse("{\"members\": [{\"name\": \"n1\", \"role\": \"replica\", "
                + "\"state\": \"creating replica\", \"api_url\": \"http://127.0.0.1:18001/patroni\", \"host\": "
                + "\"127.0.0.1\", \"port\": 19001, \"lag\": \"unknown\"}, {\"name\": \"n2\", \"role\": \"leader\", "
                + "\"state\": \"running\", \"host\": \"127.0.0.2\", \"port\": 19002, \"timeline\": 1}]}");
        assertEquals(2, m.size());
        assertFalse(m.get(0).running());
        assertEquals(-1, m.get(0).timeline());
        assertEquals("n2", PatroniRest.leader(m).orElseThrow().name());
        assertEquals(19002, PatroniRest.leader(m).orElseThrow().port());
        assertTrue(PatroniRest.leader(PatroniRest.parse("{\"members\": []}")).isEmpty());
    }
}
