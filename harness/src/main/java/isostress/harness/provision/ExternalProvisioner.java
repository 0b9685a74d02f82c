package isostress.harness.provision;

import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.DbNode;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import isostress.harness.db.Secrets;

import java.nio.file.Path;
import java.util.List;

/**
 * A database someone else runs: its URL, with user and password from the environment variables named or, failing
 * those, from the URL's user part ({@code jdbc:postgresql://user:password@host/db}). JDBC drivers get the URL without
 * its user part (they do not read one); MongoDB's driver reads it itself.
 */
public final class ExternalProvisioner implements Provisioner {
    @Override
    public RunningDatabase start(DatabaseSpec db, Path logs, int maxClients) {
        String[] external = db.type().externalUrl(db.url());
        String url = external[0];
        String user = db.userEnv() != null ? System.getenv(db.userEnv()) : external[1];
        String password = db.passwordEnv() != null ? System.getenv(db.passwordEnv()) : external[2];
        ExternalNode node = ExternalNode.of("n1", url, db.type().defaultPort());
        return new RunningDatabase() {
            public String jdbcUrl() { return url; }
            public String user() { return user; }
            public String password() { return password; }
            public String description() {
                return "external " + db.type().name() + " at " + Secrets.mask(db.url());
            }
            public List<DbNode> nodes() { return List.of(node); }
            public void close() { }
        };
    }
}
