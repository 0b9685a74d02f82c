package isostress.harness.db.mysql;

import isostress.harness.db.AcctDialect;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Isolation;
import isostress.harness.db.JdbcDatabase;
import isostress.harness.db.Provision;
import isostress.harness.db.mariadb.MariaDb;
import isostress.harness.db.mariadb.MySqlFamily;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

/**
 * MySQL through MySQL Connector/J ({@code com.mysql:mysql-connector-j}, GPL-2.0 with the Universal FOSS Exception),
 * the driver MySQL users run, so a campaign sees MySQL's errors as their applications do. {@code provision: local}
 * starts the machine's MariaDB server and speaks to it with Connector/J (how the tests run it); a real MySQL server
 * is {@code provision: external}.
 */
public final class MySql extends JdbcDatabase {
    @Override
    public String name() {
        return "mysql";
    }

    @Override
    public String product() {
        return "MySQL";
    }

    @Override
    public Provision defaultProvision() {
        return Provision.LOCAL;
    }

    @Override
    public String provisionProblem(Provision p) {
        return MySqlFamily.provisionProblem(name(), p);
    }

    @Override
    public String isolationProblem(Isolation i) {
        return MySqlFamily.isolationProblem(name(), i);
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

    /**
     * MariaDB's: InnoDB's left-to-right SET. It deletes with DELETE ... RETURNING, which MariaDB has and MySQL does
     * not, so the sql workload runs against a MariaDB server only (a MySQL server rejects the statement and the run
     * stops with its error).
     */
    @Override
    public AcctDialect acct() {
        return MariaDb.ACCT;
    }

    @Override
    public String lockTimeoutSql() {
        return MySqlFamily.LOCK_TIMEOUT;
    }

    @Override
    public Properties timeouts(Duration timeout) {
        return MySqlFamily.timeouts(timeout);
    }
}
