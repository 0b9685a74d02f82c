package isostress.harness.provision;

import isostress.harness.config.Campaign;

import java.nio.file.Path;

/** A database someone else runs: its JDBC URL, with user and password from the environment variables named. */
final class ExternalProvisioner implements Provisioner {
    @Override
    public RunningDatabase start(Campaign.Database db, Path logs, int maxClients) {
        String user = db.userEnv() == null ? null : System.getenv(db.userEnv());
        String password = db.passwordEnv() == null ? null : System.getenv(db.passwordEnv());
        return new RunningDatabase() {
            public String jdbcUrl() { return db.url(); }
            public String user() { return user; }
            public String password() { return password; }
            public String description() { return "external " + db.type().name().toLowerCase() + " at " + masked(db.url()); }
            public java.util.List<DbNode> nodes() {
                int port = db.type() == Campaign.DbType.POSTGRESQL ? 5432 : db.type() == Campaign.DbType.MONGODB ? 27017 : 3306;
                return java.util.List.of(ExternalNode.of("n1", db.url(), port));
            }
            public void close() { }
        };
    }

    /** The URL with any password parameter hidden. */
    static String masked(String url) {
        return url.replaceAll("(?i)(password=)[^&;]*", "$1****");
    }
}
