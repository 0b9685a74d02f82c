package isostress.harness.config;

import isostress.checker.model.IsolationLevel;
import isostress.generator.workload.WorkloadSpec;
import isostress.harness.db.DatabaseSpec;
import isostress.harness.faults.NemesisSpec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A validated campaign: what database to start, what workload to run on it, what to check, how often. Built by
 * {@link CampaignLoader}; frozen once a run starts.
 *
 * @param name            names the run directory {@code store/<name>/}
 * @param source          the file it came from
 * @param database        the database
 * @param workload        the workload (its seed is the first run's; run i uses seed + i)
 * @param duration        stop a run after this long even if transactions remain (null: run them all)
 * @param rate            open loop: transactions per second over all sessions, transaction t intended to start at
 *                        t / rate seconds into the run; 0: closed loop, as fast as the sessions go
 * @param levels          levels to check
 * @param maxAnomalies    counterexamples listed per anomaly name
 * @param searchBudget    states a checker search may visit
 * @param runs            how many runs
 * @param stopOnViolation what the first violation stops: nothing, its run, or its run and the campaign
 * @param streaming       check the history while it is recorded (mini, rw-register and list-append workloads)
 * @param store           the store directory
 * @param text            the YAML as written
 * @param nemesis         the faults to inject, or null for none
 * @param checkTimeout    sql workloads: wall-clock limit of each SQL check (then unknown)
 * @param witness         capture the database's commit log into witness.jsonl and join it with the history
 *                        ({@code check.witness})
 * @param finalRead       read every key once more after the run's faults are healed ({@code workload.final-read},
 *                        on by default with a nemesis), so the checker can tell lost writes
 */
public record Campaign(String name, Path source, DatabaseSpec database, WorkloadSpec workload, Duration duration,
                       double rate,
                       List<IsolationLevel> levels, int maxAnomalies, long searchBudget, int runs,
                       StopOnViolation stopOnViolation, boolean streaming, Path store, String text,
                       NemesisSpec nemesis, Duration checkTimeout, boolean witness, boolean finalRead) {

    /** This campaign with {@code runs} runs (the CLI's {@code --runs}). */
    public Campaign withRuns(int runs) {
        return new Campaign(name, source, database, workload, duration, rate, levels, maxAnomalies, searchBudget, runs,
                stopOnViolation, streaming, store, text, nemesis, checkTimeout, witness, finalRead);
    }

    /** This campaign with another {@code stop-on-violation} (the CLI's {@code --stop-on-violation}). */
    public Campaign withStopOnViolation(StopOnViolation stop) {
        return new Campaign(name, source, database, workload, duration, rate, levels, maxAnomalies, searchBudget, runs,
                stop, streaming, store, text, nemesis, checkTimeout, witness, finalRead);
    }

    /**
     * What a violation stops ({@code stop-on-violation}). Ending a run early needs the streaming check, so it
     * happens only for mini, rw-register and list-append workloads; other runs end as usual and are then judged.
     */
    /**
     * The database section the server is started with: the campaign's, plus the settings the commit-log capture
     * needs when {@code check.witness} is on for a server the harness starts (PostgreSQL's {@code wal_level},
     * MariaDB's binary log); a setting the campaign names itself wins. Kept apart from {@link #database()}, which is
     * what the file says.
     */
    public DatabaseSpec serverSpec() {
        return witness && database.provision() != isostress.harness.db.Provision.EXTERNAL
                ? database.withSettingsUnder(database.type().captureSettings()) : database;
    }

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

    /** {@link DatabaseSpec#DEFAULT_TIMEOUT}. */
    public static final Duration DEFAULT_TIMEOUT = DatabaseSpec.DEFAULT_TIMEOUT;
}
