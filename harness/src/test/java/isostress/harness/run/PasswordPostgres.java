package isostress.harness.run;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Isolation;
import isostress.harness.db.Provision;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;

/**
 * An embedded PostgreSQL that checks passwords, for campaigns with {@code provision: external} against it: its own
 * pg_hba.conf (zonky's initdb trusts everyone) lets the superuser in on trust and asks everyone else for a
 * SCRAM password; role {@link #USER} owns database {@link #DATABASE}.
 */
final class PasswordPostgres implements AutoCloseable {
    static final String USER = "isouser", DATABASE = "isodb";
    private final RunningDatabase db;

    PasswordPostgres(Path dir, String password) throws Exception {
        this(dir, password, Map.of());
    }

    /** With {@code settings} added to the server's. */
    PasswordPostgres(Path dir, String password, Map<String, String> settings) throws Exception {
        Path hba = dir.resolve("pg_hba.conf");
        Files.writeString(hba, "local all all trust\n"
                + "host all postgres 127.0.0.1/32 trust\nhost all postgres ::1/128 trust\n"
                + "host all all 127.0.0.1/32 scram-sha-256\nhost all all ::1/128 scram-sha-256\n");
        DatabaseSpec spec = new DatabaseSpec(isostress.harness.db.Databases.byName("postgresql"), Provision.EMBEDDED,
                "16.15", null, null, null, Isolation.SERIALIZABLE, with(settings, "hba_file", hba.toString()));
        db = Provisioner.of(spec).start(spec, dir.resolve("server-logs"), 20);
        try (Connection c = DriverManager.getConnection(db.jdbcUrl()); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + USER + " LOGIN PASSWORD '" + password + "'");
            s.execute("CREATE DATABASE " + DATABASE + " OWNER " + USER);
        }
    }

    private static Map<String, String> with(Map<String, String> settings, String key, String value) {
        Map<String, String> all = new java.util.HashMap<>(settings);
        all.put(key, value);
        return all;
    }

    /** Runs {@code sql} as the superuser. */
    void asSuperuser(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl()); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    int port() {
        return db.nodes().get(0).clientPort();
    }

    @Override
    public void close() {
        db.close();
    }
}
