package isostress.harness.db.postgresql;

import isostress.harness.db.AcctDialect;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Isolation;
import isostress.harness.db.JdbcDatabase;
import isostress.harness.db.Provision;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL through pgjdbc ({@code org.postgresql:postgresql}, BSD-2-Clause), PostgreSQL's own driver. Embedded
 * (zonky's binaries, any version) by default; one server only.
 */
public final class PostgreSql extends JdbcDatabase {
    /** The sql workload's table: PostgreSQL returns written rows with RETURNING *, and SET sees the old row. */
    public static final AcctDialect ACCT = new AcctDialect(true, List.of(
            "DROP TABLE IF EXISTS " + AcctDialect.T,
            "CREATE TABLE " + AcctDialect.T + " (" + AcctDialect.COLUMN_TYPES + ")",
            "CREATE INDEX " + AcctDialect.T + "_grp ON " + AcctDialect.T + " (grp)",
            "CREATE INDEX " + AcctDialect.T + "_wid ON " + AcctDialect.T + " (wid)"),
            "INSERT INTO " + AcctDialect.T + " AS a " + AcctDialect.COLUMNS + " VALUES (?, ?, ?, FALSE, ?, NULL) "
                    + "ON CONFLICT (id) DO UPDATE SET grp = EXCLUDED.grp, bal = EXCLUDED.bal, deleted = FALSE, "
                    + "prev_wid = a.wid, wid = EXCLUDED.wid RETURNING *");

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String product() {
        return "PostgreSQL";
    }

    @Override
    public Provision defaultProvision() {
        return Provision.EMBEDDED;
    }

    @Override
    public String provisionProblem(Provision p) {
        return p == Provision.LOCAL ? "for postgresql use embedded (any version) or external" : null;
    }

    @Override
    public String defaultVersion(Provision p) {
        return p == Provision.EMBEDDED ? "16.15" : null;
    }

    @Override
    public String isolationProblem(Isolation i) {
        return null; // snapshot is repeatable read there
    }

    @Override
    public String nodesProblem(int nodes) {
        return nodes > 1 ? "postgresql runs as one server; several nodes are for mariadb (Galera) and mongodb "
                + "(a replica set)" : null;
    }

    /**
     * Standbys come from the embedded binaries only (a copy of the stopped primary's data directory), and need
     * PostgreSQL 12 or later: {@code standby.signal} and {@code primary_conninfo} in postgresql.conf replaced
     * recovery.conf in 12.
     */
    private static final Pattern MAJOR = Pattern.compile("(\\d{1,4})(\\..*)?");

    @Override
    public String replicasProblem(Provision p, String version) {
        if (p != Provision.EMBEDDED) return "replicas are started from the embedded binaries only (provision: embedded)";
        // A malformed version is the version key's own problem (reported there), not a reason to refuse replicas.
        Matcher m = MAJOR.matcher(version == null ? "" : version);
        int major = m.matches() ? Integer.parseInt(m.group(1)) : 12;
        return major < 12 ? "replicas need PostgreSQL 12 or later (standby.signal), was " + version : null;
    }

    @Override
    public int defaultPort() {
        return 5432;
    }

    @Override
    public String driverClass() {
        return "org.postgresql.Driver";
    }

    @Override
    protected List<String> schemes() {
        return List.of("jdbc:postgresql:");
    }

    @Override
    public DatabaseAdapter adapter(boolean upsert, Duration opPause, int tables) {
        return new PostgresAdapter(upsert, opPause, tables);
    }

    @Override
    public AcctDialect acct() {
        return ACCT;
    }

    @Override
    public String lockTimeoutSql() {
        return "set lock_timeout = '5s'";
    }

    /** pgjdbc counts in seconds (https://jdbc.postgresql.org/documentation/use/#connection-parameters). */
    @Override
    public Properties timeouts(Duration timeout) {
        String secs = String.valueOf(Math.max(1, (timeout.toMillis() + 999) / 1000));
        Properties p = new Properties();
        p.setProperty("connectTimeout", secs);
        p.setProperty("loginTimeout", secs);
        p.setProperty("socketTimeout", secs);
        return p;
    }

    /**
     * {@code prepareThreshold=1}: a statement becomes a named server-side statement on its first execution rather
     * than its fifth, so each session's reused statements ({@code db.Statements}) are parsed and planned once per
     * connection, as pgbench {@code -M prepared} does.
     */
    @Override
    public Properties clientProperties() {
        Properties p = new Properties();
        p.setProperty("prepareThreshold", "1");
        return p;
    }
}
