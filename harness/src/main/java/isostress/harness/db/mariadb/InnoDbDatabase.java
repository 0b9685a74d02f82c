package isostress.harness.db.mariadb;

import isostress.harness.db.AcctDialect;
import isostress.harness.db.Isolation;
import isostress.harness.db.JdbcDatabase;
import isostress.harness.db.Provision;
import isostress.harness.db.Provisioner;
import isostress.harness.provision.ExternalProvisioner;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * What MariaDB and MySQL share whichever driver speaks to them: InnoDB's isolation levels (no snapshot level), the
 * lock wait setting, the local and docker provisioning through MariaDB's server, the sql workload's table, and
 * connection timeouts in milliseconds (both Connector/Js:
 * https://mariadb.com/kb/en/about-mariadb-connector-j/#optional-url-parameters,
 * https://dev.mysql.com/doc/connector-j/en/connector-j-connp-props-networking.html). Each subclass names its driver
 * and its error codes.
 */
public abstract class InnoDbDatabase extends JdbcDatabase {
    /**
     * The sql workload's table. MariaDB (10.5+) has DELETE ... RETURNING but no UPDATE ... RETURNING, so written rows
     * are read back by write id; its SET assignments run left to right, so {@code prev_wid = wid} before
     * {@code wid = ?} copies the old value (checked by SqlWorkloadMariaDbTest). MySQL has no DELETE ... RETURNING, so
     * the sql workload runs against a MariaDB server only (a MySQL server rejects the statement and the run stops with
     * its error).
     */
    public static final AcctDialect ACCT = new AcctDialect(false, List.of(
            "DROP TABLE IF EXISTS " + AcctDialect.T,
            "CREATE TABLE " + AcctDialect.T + " (" + AcctDialect.COLUMN_TYPES + ", KEY " + AcctDialect.T + "_grp (grp), "
                    + "KEY " + AcctDialect.T + "_wid (wid)) ENGINE=InnoDB"),
            "INSERT INTO " + AcctDialect.T + " " + AcctDialect.COLUMNS + " VALUES (?, ?, ?, FALSE, ?, NULL) ON "
                    + "DUPLICATE KEY UPDATE grp = VALUES(grp), bal = VALUES(bal), deleted = FALSE, prev_wid = wid, "
                    + "wid = VALUES(wid)");

    /** InnoDB's lock wait, in seconds. */
    static final String LOCK_TIMEOUT = "set session innodb_lock_wait_timeout = 5";

    /** The machine's mariadbd (one server or a Galera cluster). */
    @Override
    public final Provision defaultProvision() {
        return Provision.LOCAL;
    }

    /** The machine's mariadbd, MariaDB's image, or a server someone else runs. */
    @Override
    public Set<Provision> provisions() {
        return Set.of(Provision.LOCAL, Provision.DOCKER, Provision.EXTERNAL);
    }

    @Override
    public Provisioner provisioner(Provision p) {
        if (!provisions().contains(p)) throw new IllegalArgumentException(provisionProblem(p)); // MySQL: no docker
        switch (p) {
            case LOCAL: return new LocalMariaDbProvisioner();
            case DOCKER: return new DockerMariaDbProvisioner();
            case EXTERNAL: return new ExternalProvisioner();
            default: throw new IllegalArgumentException(provisionProblem(p));
        }
    }

    /** InnoDB has read uncommitted, read committed, repeatable read and serializable. */
    @Override
    public final String isolationProblem(Isolation i) {
        return i == Isolation.SNAPSHOT ? name() + " has no snapshot isolation level; use repeatable-read "
                + "(with settings: {innodb_snapshot_isolation: ON} on MariaDB 10.11+ for first-committer-wins)" : null;
    }

    @Override
    public final AcctDialect acct() {
        return ACCT;
    }

    @Override
    public final String lockTimeoutSql() {
        return LOCK_TIMEOUT;
    }

    /** connectTimeout and socketTimeout in milliseconds. */
    @Override
    public final Properties timeouts(Duration timeout) {
        Properties p = new Properties();
        p.setProperty("connectTimeout", String.valueOf(timeout.toMillis()));
        p.setProperty("socketTimeout", String.valueOf(timeout.toMillis()));
        return p;
    }
}
