package isostress.harness.db.mariadb;

import isostress.harness.db.AcctDialect;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Isolation;
import isostress.harness.db.JdbcDatabase;
import isostress.harness.db.Provision;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

/**
 * MariaDB through MariaDB Connector/J ({@code org.mariadb.jdbc:mariadb-java-client}, LGPL-2.1), MariaDB's own driver:
 * it knows MariaDB's and Galera's error codes. The machine's mariadbd by default ({@code provision: local}), one
 * server or a Galera cluster.
 */
public final class MariaDb extends JdbcDatabase {
    /**
     * The sql workload's table. MariaDB (10.5+) has DELETE ... RETURNING but no UPDATE ... RETURNING, so written rows
     * are read back by write id; its SET assignments run left to right, so {@code prev_wid = wid} before
     * {@code wid = ?} copies the old value (checked by SqlWorkloadMariaDbTest).
     */
    public static final AcctDialect ACCT = new AcctDialect(false, List.of(
            "DROP TABLE IF EXISTS " + AcctDialect.T,
            "CREATE TABLE " + AcctDialect.T + " (" + AcctDialect.COLUMN_TYPES + ", KEY " + AcctDialect.T + "_grp (grp), "
                    + "KEY " + AcctDialect.T + "_wid (wid)) ENGINE=InnoDB"),
            "INSERT INTO " + AcctDialect.T + " " + AcctDialect.COLUMNS + " VALUES (?, ?, ?, FALSE, ?, NULL) ON "
                    + "DUPLICATE KEY UPDATE grp = VALUES(grp), bal = VALUES(bal), deleted = FALSE, prev_wid = wid, "
                    + "wid = VALUES(wid)");

    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    public String product() {
        return "MariaDB";
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
        return "org.mariadb.jdbc.Driver";
    }

    /** Connector/J 3 takes jdbc:mysql: only with permitMysqlScheme; such URLs are rewritten to jdbc:mariadb:. */
    @Override
    protected List<String> schemes() {
        return List.of("jdbc:mariadb:", "jdbc:mysql:");
    }

    @Override
    public DatabaseAdapter adapter(boolean upsert, Duration opPause, int tables) {
        return new MariaDbAdapter(upsert, opPause, tables);
    }

    @Override
    public AcctDialect acct() {
        return ACCT;
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
