package isostress.harness.db.mysql;

import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Provision;
import isostress.harness.db.mariadb.InnoDbDatabase;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * MySQL through MySQL Connector/J ({@code com.mysql:mysql-connector-j}, GPL-2.0 with the Universal FOSS Exception),
 * the driver MySQL users run, so a campaign sees MySQL's errors as their applications do. {@code provision: local}
 * starts the machine's MariaDB server and speaks to it with Connector/J (how the tests run it); a real MySQL server
 * is {@code provision: external}.
 */
public final class MySql extends InnoDbDatabase {
    @Override
    public String name() {
        return "mysql";
    }

    @Override
    public String product() {
        return "MySQL";
    }

    /** MariaDB's image would answer as MariaDB, not MySQL: a MySQL server in Docker is the user's, and external. */
    @Override
    public Set<Provision> provisions() {
        return Set.of(Provision.LOCAL, Provision.EXTERNAL);
    }

    @Override
    public String driverClass() {
        return "com.mysql.cj.jdbc.Driver";
    }

    /** The local provisioner's jdbc:mariadb: URLs are rewritten to Connector/J's jdbc:mysql:. */
    @Override
    protected List<String> schemes() {
        return List.of("jdbc:mysql:", "jdbc:mariadb:");
    }

    @Override
    public DatabaseAdapter adapter(boolean upsert, Duration opPause, int tables) {
        return new MySqlAdapter(upsert, opPause, tables);
    }
}
