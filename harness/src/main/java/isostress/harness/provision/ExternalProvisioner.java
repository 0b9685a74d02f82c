package isostress.harness.provision;

import isostress.harness.config.Campaign;
import isostress.harness.config.Secrets;
import isostress.harness.db.ClientUrls;

import java.nio.file.Path;
import java.util.List;

/**
 * A database someone else runs: its URL, with user and password from the environment variables named or, failing
 * those, from the URL's user part ({@code jdbc:postgresql://user:password@host/db}). JDBC drivers get the URL without
 * its user part (they do not read one); MongoDB's driver reads it itself.
 */
final class ExternalProvisioner implements Provisioner {
    @Override
    public RunningDatabase start(Campaign.Database db, Path logs, int maxClients) {
        boolean jdbc = db.type() != Campaign.DbType.MONGODB;
        String[] info = jdbc ? ClientUrls.userInfo(db.url()) : null;
        String user = db.userEnv() != null ? System.getenv(db.userEnv()) : info == null ? null : info[0];
        String password = db.passwordEnv() != null ? System.getenv(db.passwordEnv()) : info == null ? null : info[1];
        String url = jdbc ? ClientUrls.withoutUserInfo(db.url()) : db.url();
        int port = db.type() == Campaign.DbType.POSTGRESQL ? 5432 : db.type() == Campaign.DbType.MONGODB ? 27017 : 3306;
        ExternalNode node = ExternalNode.of("n1", url, port);
        return new RunningDatabase() {
            public String jdbcUrl() { return url; }
            public String user() { return user; }
            public String password() { return password; }
            public String description() {
                return "external " + db.type().name().toLowerCase() + " at " + Secrets.mask(db.url());
            }
            public List<DbNode> nodes() { return List.of(node); }
            public void close() { }
        };
    }
}
