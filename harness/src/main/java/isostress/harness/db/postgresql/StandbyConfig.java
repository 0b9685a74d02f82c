package isostress.harness.db.postgresql;

import isostress.harness.db.DbNode;
import isostress.harness.db.Replicas;

import java.util.List;
import java.util.Map;

/**
 * What makes a copy of a stopped primary's data directory start as a hot standby streaming from it, by major
 * version: from PostgreSQL 12 an empty {@code standby.signal} file plus {@code primary_conninfo} as an ordinary
 * setting; before 12 a {@code recovery.conf} file with {@code standby_mode = 'on'} and {@code primary_conninfo}
 * (PostgreSQL 12 release notes, "recovery.conf settings are now ordinary configuration parameters"). The embedded
 * standbys write both into a directory; the Docker ones carry the files into the container and the settings on the
 * command line.
 *
 * @param major    the server's major version (11, 12, ...)
 * @param conninfo how the standby reaches its primary (libpq connection string, no single quotes)
 */
record StandbyConfig(int major, String conninfo) {
    StandbyConfig {
        if (conninfo.contains("'")) throw new IllegalArgumentException("a quote in primary_conninfo: " + conninfo);
    }

    /** The major version of a {@code server_version_num} (110007 is 11, 160015 is 16). */
    static int major(int serverVersionNum) {
        return serverVersionNum / 10000;
    }

    /** Files to put in the data directory, name to content. */
    Map<String, String> files() {
        return major >= 12 ? Map.of("standby.signal", "")
                : Map.of("recovery.conf", "standby_mode = 'on'\nprimary_conninfo = '" + conninfo + "'\n");
    }

    /** Settings (name, value) for the standby's server; hot_standby is on by default from 10, set anyway. */
    List<Map.Entry<String, String>> settings() {
        return major >= 12 ? List.of(Map.entry("hot_standby", "on"), Map.entry("primary_conninfo", conninfo))
                : List.of(Map.entry("hot_standby", "on"));
    }

    /** For people: {@code what} "with 2 streaming replica(s) on ports n2 41235, n3 41236 (...)". */
    static String describe(String what, List<? extends DbNode> standbys, Replicas replicas) {
        StringBuilder ports = new StringBuilder();
        for (DbNode s : standbys) {
            ports.append(ports.length() == 0 ? "" : ", ").append(s.name()).append(' ').append(s.clientPort());
        }
        String sync = replicas.synchronousStandbyNames();
        return what + " with " + standbys.size() + " streaming replica(s) on ports " + ports + " ("
                + (sync.isEmpty() ? "asynchronous" : "synchronous_standby_names '" + sync + "'") + ", reads from "
                + replicas.readFrom().yamlName() + ")";
    }
}
