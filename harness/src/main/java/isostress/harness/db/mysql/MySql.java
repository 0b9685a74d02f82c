package isostress.harness.db.mysql;

import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.mariadb.InnoDbDatabase;

import java.time.Duration;
import java.util.List;

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
