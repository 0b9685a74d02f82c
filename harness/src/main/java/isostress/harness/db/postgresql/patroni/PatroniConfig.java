package isostress.harness.db.postgresql.patroni;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One member's Patroni configuration file (Patroni 3.0's YAML): its name, REST API and PostgreSQL addresses, the
 * etcd to use, and the bootstrap section every member carries (the first to win the race initialises the cluster with
 * it). PostgreSQL's parameters go into the dynamic configuration ({@code bootstrap.dcs.postgresql.parameters}), so all
 * members share them, as Patroni requires for settings such as max_connections that a replica needs at least as high
 * as its primary. Authentication is trust on loopback: the members and the harness are on one machine, and the run's
 * subject is replication and failover, not passwords.
 */
final class PatroniConfig {
    static final String SCOPE = "isostress";
    static final String SUPERUSER = "postgres", PASSWORD = "isostress", REPLICATOR = "replicator";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private PatroniConfig() {
    }

    /**
     * The configuration of {@code member}, as a tree.
     *
     * @param dynamic    Patroni's dynamic settings ({@link PatroniSettings#effective})
     * @param parameters PostgreSQL's parameters for every member
     */
    static Map<String, Object> of(PatroniMember.Address member, Path dir, PatroniTools tools, int etcdPort,
                                  Map<String, String> dynamic, Map<String, String> parameters) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("scope", SCOPE);
        root.put("name", member.name());
        String rest = member.host() + ":" + member.restPort();
        root.put("restapi", Map.of("listen", rest, "connect_address", rest));
        // The member's own address of etcd's (PatroniMember.Address); use_proxies: take it as given, rather than
        // switch to the address etcd advertises.
        root.put("etcd3", Map.of("hosts", member.etcdHost() + ":" + etcdPort, "use_proxies", true));
        Map<String, Object> dcs = new LinkedHashMap<>();
        dynamic.forEach((k, v) -> dcs.put(k, typed(v)));
        // The commit-log capture's slots (test_decoding), made on whichever member is found a primary: Patroni drops
        // a slot it does not know when it reloads its list of slots (as it does right after a promotion), which cut
        // the log of a newly promoted member; ignore_slots leaves them alone. No other slot uses test_decoding.
        dcs.put("ignore_slots", List.of(Map.of("type", "logical", "plugin", "test_decoding")));
        Map<String, Object> dcsPg = new LinkedHashMap<>();
        // pg_rewind lets a failed primary rejoin as a replica without a new base backup.
        dcsPg.put("use_pg_rewind", true);
        dcsPg.put("parameters", new LinkedHashMap<>(parameters));
        dcs.put("postgresql", dcsPg);
        Map<String, Object> bootstrap = new LinkedHashMap<>();
        bootstrap.put("dcs", dcs);
        bootstrap.put("initdb", List.of(Map.of("encoding", "UTF8")));
        root.put("bootstrap", bootstrap);
        Map<String, Object> pg = new LinkedHashMap<>();
        String address = member.host() + ":" + member.pgPort();
        // The members' address, and the clients' (PatroniMember.Address).
        pg.put("listen", member.host() + "," + member.clientHost() + ":" + member.pgPort());
        // Patroni's own connections to its PostgreSQL through the socket: a partition cuts the members' address.
        pg.put("use_unix_socket", true);
        pg.put("connect_address", address);
        pg.put("data_dir", dir.resolve("data").toString());
        pg.put("bin_dir", tools.binDir().toString());
        pg.put("pgpass", dir.resolve("pgpass").toString());
        Map<String, Object> auth = new LinkedHashMap<>();
        auth.put("superuser", Map.of("username", SUPERUSER, "password", PASSWORD));
        auth.put("replication", Map.of("username", REPLICATOR, "password", PASSWORD));
        auth.put("rewind", Map.of("username", SUPERUSER, "password", PASSWORD));
        pg.put("authentication", auth);
        // The socket in the member's own directory: Debian's /var/run/postgresql is the system cluster's.
        pg.put("parameters", Map.of("unix_socket_directories", dir.toString()));
        pg.put("pg_hba", List.of("local all all trust", "host all all 127.0.0.0/8 trust",
                "host replication all 127.0.0.0/8 trust"));
        root.put("postgresql", pg);
        return root;
    }

    /** Writes {@code config} to {@code file}. */
    static void write(Map<String, Object> config, Path file) throws IOException {
        Files.writeString(file, YAML.writeValueAsString(config));
    }

    /** A setting's value as YAML should carry it: Patroni compares numbers and booleans by type. */
    private static Object typed(String v) {
        if (v.equals("true") || v.equals("false")) return Boolean.valueOf(v);
        try {
            return Long.valueOf(v);
        } catch (NumberFormatException e) {
            return v;
        }
    }
}
