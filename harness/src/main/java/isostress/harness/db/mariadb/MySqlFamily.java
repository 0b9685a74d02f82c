package isostress.harness.db.mariadb;

import isostress.harness.db.Isolation;
import isostress.harness.db.Provision;

import java.time.Duration;
import java.util.Properties;

/**
 * What MariaDB and MySQL share whichever driver speaks to them: InnoDB's isolation levels (no snapshot level), the
 * lock wait setting, the local and docker provisioning through MariaDB's server, and connection timeouts in
 * milliseconds (both Connector/Js: https://mariadb.com/kb/en/about-mariadb-connector-j/#optional-url-parameters,
 * https://dev.mysql.com/doc/connector-j/en/connector-j-connp-props-networking.html).
 */
public final class MySqlFamily {
    /** InnoDB's lock wait, in seconds. */
    public static final String LOCK_TIMEOUT = "set session innodb_lock_wait_timeout = 5";

    private MySqlFamily() {
    }

    /** Embedded is PostgreSQL's only. */
    public static String provisionProblem(String type, Provision p) {
        return p == Provision.EMBEDDED ? "embedded is PostgreSQL's (zonky); for " + type + " use local "
                + "(Debian's mariadbd) or external" : null;
    }

    /** InnoDB has read uncommitted, read committed, repeatable read and serializable. */
    public static String isolationProblem(String type, Isolation i) {
        return i == Isolation.SNAPSHOT ? type + " has no snapshot isolation level; use repeatable-read "
                + "(with settings: {innodb_snapshot_isolation: ON} on MariaDB 10.11+ for first-committer-wins)" : null;
    }

    /** connectTimeout and socketTimeout in milliseconds. */
    public static Properties timeouts(Duration timeout) {
        Properties p = new Properties();
        p.setProperty("connectTimeout", String.valueOf(timeout.toMillis()));
        p.setProperty("socketTimeout", String.valueOf(timeout.toMillis()));
        return p;
    }
}
