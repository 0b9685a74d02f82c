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
 * @param stopOnViolation stop repeating after the first invalid run
 * @param store           the store directory
 * @param text            the YAML as written
 */
public record Campaign(String name, Path source, Database database, WorkloadSpec workload, Duration duration,
                       List<IsolationLevel> levels, int maxAnomalies, long searchBudget, int runs,
                       boolean stopOnViolation, Path store, String text) {

    /** The database types. */
    public enum DbType { POSTGRESQL, MARIADB, MYSQL }

    /** How the database is obtained. */
    public enum Provision { EMBEDDED, LOCAL, EXTERNAL }

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
     * @param type        the database
     * @param provision   how it is obtained
     * @param version     embedded PostgreSQL version (e.g. {@code 16.15}), or null
     * @param url         external: the JDBC URL
     * @param userEnv     external: environment variable holding the user, or null
     * @param passwordEnv external: environment variable holding the password, or null
     * @param isolation   the isolation level the clients ask for
     * @param settings    server settings (PostgreSQL {@code -c k=v}, MariaDB {@code --k=v})
     */
    public record Database(DbType type, Provision provision, String version, String url, String userEnv,
                           String passwordEnv, Isolation isolation, Map<String, String> settings) {
        public Database {
            settings = Map.copyOf(settings);
        }
    }
}
