package isostress.harness.config;

import isostress.checker.model.IsolationLevel;
import isostress.generator.workload.WorkloadSpec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A validated campaign: what database to start, what workload to run on it, what to check, how often. Built by
 * {@link CampaignLoader}; frozen once a run starts.
 *
 * @param name            names the run directory {@code store/<name>/}
 * @param source          the file it came from
 * @param database        the database
 * @param workload        the workload (its seed is the first run's; run i uses seed + i)
 * @param duration        stop a run after this long even if transactions remain (null: run them all)
 * @param levels          levels to check
 * @param maxAnomalies    counterexamples listed per anomaly name
 * @param searchBudget    states a checker search may visit
 * @param runs            how many runs
 * @param stopOnViolation what the first violation stops: nothing, its run, or its run and the campaign
 * @param streaming       check the history while it is recorded (mini-transaction workloads only)
 * @param store           the store directory
 * @param text            the YAML as written
 * @param nemesis         the faults to inject, or null for none
 * @param checkTimeout    sql workloads: wall-clock limit of each SQL check (then unknown)
 */
public record Campaign(String name, Path source, Database database, WorkloadSpec workload, Duration duration,
                       List<IsolationLevel> levels, int maxAnomalies, long searchBudget, int runs,
                       StopOnViolation stopOnViolation, boolean streaming, Path store, String text,
                       Nemesis nemesis, Duration checkTimeout) {

    /** This campaign with {@code runs} runs (the CLI's {@code --runs}). */
    public Campaign withRuns(int runs) {
        return new Campaign(name, source, database, workload, duration, levels, maxAnomalies, searchBudget, runs,
                stopOnViolation, streaming, store, text, nemesis, checkTimeout);
    }

    /** This campaign with another {@code stop-on-violation} (the CLI's {@code --stop-on-violation}). */
    public Campaign withStopOnViolation(StopOnViolation stop) {
        return new Campaign(name, source, database, workload, duration, levels, maxAnomalies, searchBudget, runs,
                stop, streaming, store, text, nemesis, checkTimeout);
    }

    /**
     * What a violation stops ({@code stop-on-violation}). Ending a run early needs the streaming check, so it
     * happens only for mini-transaction workloads; other runs end as usual and are then judged.
     */
    public enum StopOnViolation {
        /** {@code false}: every run runs to its end. */
        NEVER("false"),
        /** {@code true} or {@code run}: a run ends at its first violation, the remaining runs still run, so the
         * detection rate over all runs is measured. */
        RUN("run"),
        /** {@code campaign}: as {@code run}, and no further run starts after a violating one. */
        CAMPAIGN("campaign");

        private final String yamlName;

        StopOnViolation(String yamlName) {
            this.yamlName = yamlName;
        }

        public String yamlName() {
            return yamlName;
        }

        /** {@code true}/{@code run}, {@code false}, {@code campaign}; null for anything else. */
        public static StopOnViolation byName(String name) {
            switch (name) {
                case "true": case "run": return RUN;
                case "false": return NEVER;
                case "campaign": return CAMPAIGN;
                default: return null;
            }
        }
    }

    /** How the database is obtained. */
    public enum Provision { EMBEDDED, LOCAL, DOCKER, EXTERNAL }

    /**
     * When and where faults happen: repeatedly, wait {@code interval}, pick a fault and a target node at random
     * (from {@code seed}), hold it {@code duration}, heal it.
     *
     * @param faults   the faults to pick from ({@link isostress.harness.faults.Faults}), in the campaign's order
     * @param interval quiet time between faults
     * @param duration how long each fault lasts
     * @param targets  node numbers (1-based) faults may hit; all nodes when empty
     * @param latency  the delay a latency fault adds in each direction
     * @param seed     seeds the choice of fault and target
     */
    public record Nemesis(List<isostress.harness.faults.Fault> faults, Duration interval, Duration duration, List<Integer> targets,
                          Duration latency, long seed) {
        public Nemesis {
            faults = List.copyOf(faults);
            targets = List.copyOf(targets);
        }
    }

    /** Isolation levels a database can be asked for (SQL names, not what the checker calls them). */
    public enum Isolation {
        READ_UNCOMMITTED("read-uncommitted"), READ_COMMITTED("read-committed"), REPEATABLE_READ("repeatable-read"),
        SNAPSHOT("snapshot"), SERIALIZABLE("serializable");

        private final String yamlName;

        Isolation(String yamlName) {
            this.yamlName = yamlName;
        }

        public String yamlName() {
            return yamlName;
        }
    }

    /**
     * @param type        the database ({@link isostress.harness.db.Databases} by its name)
     * @param provision   how it is obtained
     * @param version     embedded PostgreSQL version (e.g. {@code 16.15}), or null
     * @param url         external: the JDBC URL
     * @param userEnv     external: environment variable holding the user, or null
     * @param passwordEnv external: environment variable holding the password, or null
     * @param isolation   the isolation level the clients ask for
     * @param settings    server settings (PostgreSQL {@code -c k=v}, MariaDB {@code --k=v})
     * @param nodes       how many servers (MariaDB with Galera, a MongoDB replica set): 1 is a single server
     * @param image       docker: the image to run, or null for the default (official) one
     * @param timeout     the longest one statement or connection attempt may take before the client gives up
     * @param upsert      SQL writes as upserts (INSERT ... ON CONFLICT DO UPDATE / ON DUPLICATE KEY UPDATE) rather
     *                    than UPDATE: the statement PostgreSQL 12.3's SSI bug needs
     * @param opPause     each client sleeps a random 0..opPause between the operations of a transaction (zero: none)
     * @param tables      SQL: keys spread over this many tables (key k in table k mod tables), as Jepsen's
     *                    table-count; 1 is one table
     * @param connectTimeout the longest the first connection may take before the run stops with the reason (exit 2)
     */
    public record Database(isostress.harness.db.Database type, Provision provision, String version, String url, String userEnv,
                           String passwordEnv, Isolation isolation, Map<String, String> settings, int nodes,
                           String image, Duration timeout, boolean upsert, Duration opPause, int tables,
                           Duration connectTimeout) {
        public Database {
            settings = Map.copyOf(settings);
        }

        /** A single server with the default client timeout. */
        public Database(isostress.harness.db.Database type, Provision provision, String version, String url, String userEnv,
                        String passwordEnv, Isolation isolation, Map<String, String> settings) {
            this(type, provision, version, url, userEnv, passwordEnv, isolation, settings, 1, null,
                    DEFAULT_TIMEOUT, false, Duration.ZERO, 1, DEFAULT_TIMEOUT);
        }
    }

    /**
     * Statement and connection timeout of the clients unless the campaign says otherwise; also the default
     * {@code connect-timeout} (the first connection's).
     */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
}
