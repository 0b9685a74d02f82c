package isostress.harness.db.postgresql;

import isostress.harness.db.AcctDialect;
import isostress.harness.db.CommitLogCapture;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.db.Isolation;
import isostress.harness.db.JdbcDatabase;
import isostress.harness.db.Provision;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import isostress.harness.db.postgresql.patroni.PatroniProvisioner;
import isostress.harness.provision.ExternalProvisioner;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * PostgreSQL through pgjdbc ({@code org.postgresql:postgresql}, BSD-2-Clause), PostgreSQL's own driver. Embedded
 * (zonky's binaries, any version) by default, or local (the machine's installed binaries,
 * {@link InstalledBinaries}), docker or external; one server, with hot standbys when isostress starts it. Or a
 * cluster under Patroni ({@code provision: patroni}, {@link PatroniProvisioner}) whose clients follow the primary.
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
    public Set<Provision> provisions() {
        return Set.of(Provision.EMBEDDED, Provision.LOCAL, Provision.PATRONI, Provision.DOCKER, Provision.EXTERNAL);
    }

    @Override
    public Provisioner provisioner(Provision p) {
        switch (p) {
            case EMBEDDED: return new HostPostgresProvisioner(new ZonkyBinaries());
            case LOCAL: return new HostPostgresProvisioner(new InstalledBinaries());
            case PATRONI: return new PatroniProvisioner();
            case DOCKER: return new DockerPostgresProvisioner();
            default: return new ExternalProvisioner();
        }
    }

    /**
     * The installed binaries {@code provision: local} starts (a directory with initdb, pg_ctl and postgres), or
     * Patroni's members run (those and the tools Patroni calls, of one major version).
     */
    @Override
    public String binDirProblem(Provision p, String binDir) {
        if (p == Provision.PATRONI) return PatroniProvisioner.binDirProblem(binDir);
        if (p != Provision.LOCAL) {
            return "only applies to provision: local or patroni (the installed PostgreSQL to start), was provision: "
                    + p.yamlName();
        }
        return InstalledBinaries.problem(java.nio.file.Path.of(binDir));
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
        return nodes > 1 ? "postgresql runs as one server unless provision is patroni (a Patroni cluster); several "
                + "nodes are also for mariadb (Galera) and mongodb (a replica set)" : null;
    }

    /** A Patroni cluster has any number of members; every other provision one server (with replicas). */
    @Override
    public String nodesProblem(Provision p, int nodes) {
        return p == Provision.PATRONI ? null : nodesProblem(nodes);
    }

    @Override
    public String settingProblem(String key, String value) {
        // PostgreSQL takes any text for a custom setting, so a misspelt value would silently mean "off".
        if (key.equals(PostgresAdapter.LOG_SNAPSHOTS) && PostgresAdapter.booleanValue(value) == null) {
            return "must be on or off (true/false, yes/no, 1/0), was '" + value + "'";
        }
        return null;
    }

    @Override
    public String patroniSettingProblem(Provision p, String key, String value) {
        if (p != Provision.PATRONI) return "only applies to provision: patroni, was provision: " + p.yamlName();
        return PatroniProvisioner.settingProblem(key, value);
    }

    @Override
    public String patroniProgramProblem(Provision p, String program) {
        if (p != Provision.PATRONI) return "only applies to provision: patroni, was provision: " + p.yamlName();
        return PatroniProvisioner.programProblem(program);
    }

    /**
     * Standbys come from the embedded binaries (any version: recovery.conf before 12, standby.signal from 12) and from
     * Docker; an external server's are the user's to run.
     */
    @Override
    public String replicasProblem(Provision p, String version) {
        if (p == Provision.PATRONI) {
            return "a Patroni cluster's standbys are its members: give database.nodes instead of replicas";
        }
        return p == Provision.EXTERNAL ? "replicas are started by isostress (provision: embedded, local or docker); for an "
                + "external server name its nodes instead" : null;
    }

    /** Logical decoding of the primary's log and, from PostgreSQL 16 on, each standby's ({@link PostgresCommitLogs}). */
    @Override
    public boolean capturesCommitLog() {
        return true;
    }

    /**
     * Logical decoding needs {@code wal_level = logical} (a restart to change; the WAL then also logs what decoding
     * needs of each row). Slots and WAL senders keep their defaults (10 each since PostgreSQL 10): the capture takes
     * one slot and no sender (and one more on each standby). {@code hot_standby_feedback} (read by standbys only)
     * keeps the primary's vacuum from removing catalog rows a standby's slot still decodes with, which would
     * invalidate that slot (the "conflict with recovery" of logical decoding on standbys).
     */
    @Override
    public Map<String, String> captureSettings() {
        return Map.of("wal_level", "logical", "hot_standby_feedback", "on");
    }

    @Override
    public Optional<CommitLogCapture> capture(RunningDatabase db, Path witness) throws IOException {
        // A failover manager moves the primary: every member is watched, and whichever is a primary is read.
        if (db.failover().isPresent()) return Optional.of(FollowingCommitLogs.start(db, witness));
        return Optional.of(PostgresCommitLogs.start(db, witness));
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

    /** With {@link PostgresAdapter#LOG_SNAPSHOTS} among the settings, each transaction logs its snapshot. */
    @Override
    protected DatabaseAdapter adapter(DatabaseSpec spec) {
        return new PostgresAdapter(spec.upsert(), spec.opPause(), spec.tables(),
                PostgresAdapter.logSnapshots(spec.settings()));
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
