package isostress.harness.run;

import isostress.generator.workload.Workload;
import isostress.generator.workload.WorkloadSpec;
import isostress.generator.workload.WorkloadType;
import isostress.harness.config.Campaign;
import isostress.harness.db.ClientFactory;
import isostress.harness.db.DbNode;
import isostress.harness.db.RunningDatabase;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What one workload brings to a run, and all that differs between workloads: its transactions (generated from the
 * spec and seed), its schema on the started database, and the sessions that run it while writing its history.
 * {@link CampaignRunner} owns everything else once for every workload: the run directory, the log, leftovers
 * cleanup, the database, Ctrl-C, faults, the clock and statistics, the check, results.json and the summary.
 *
 * <p>Two drivers: {@link KeyValueDriver} for the key-value workloads (mini-transactions, rw-register, list-append,
 * cas: the {@code jsonl} history) and {@link SqlDriver} for {@code sql} (account transfers with predicates: the
 * {@code isostress-sql} history).
 */
sealed interface WorkloadDriver permits KeyValueDriver, SqlDriver {

    /** The campaign's workload with {@code seed}, generated. */
    static WorkloadDriver generate(Campaign campaign, long seed) {
        WorkloadSpec spec = campaign.workload().withSeed(seed);
        return spec.type() == WorkloadType.SQL ? SqlDriver.generate(spec, campaign)
                : KeyValueDriver.generate(spec);
    }

    WorkloadSpec spec();

    /** The transactions as the statistics count them, each with its shape (an sql transaction's: its level). */
    Workload statsView();

    /** For the log's first line: "1,000 transactions over 8 sessions". */
    String sizeLine();

    /** For the run's first line, after the database: the workload, its size and levels. */
    String describe(Campaign campaign);

    /** Creates the workload's tables and initial rows on the started database. */
    void prepare(ClientFactory clients, RunningDatabase db) throws Exception;

    /**
     * Opens the history and readies the sessions (an sql session takes its connection here, before the clock
     * starts); the caller closes it after the sessions are joined.
     */
    Recording open(Execution x) throws Exception;

    /**
     * What the sessions of one run are given.
     *
     * @param stop     true once the sessions should stop (Ctrl-C, the duration, a fatal error, a violation)
     * @param detected told when the streaming check finds a violation while the run goes on
     */
    record Execution(Campaign campaign, RunDirectory dir, ClientFactory clients, List<DbNode> nodes, RunStats stats,
                     BooleanSupplier stop, NodeOutcomes outcomes, Consumer<StreamingReport.Detection> detected) {
    }

    /** One run's history being written and its sessions, from before the clock starts until they are joined. */
    interface Recording extends AutoCloseable {
        /** The sessions, one thread each, made once the clock started ({@code schedule}: its time zero). */
        List<Runnable> sessions(Schedule schedule);

        /** Why session {@code s} stopped the run, or null; read after it ended. */
        Throwable fatal(int s);

        /** The history's clock, in nanoseconds. */
        long now();

        /** Records an event that is not a transaction (the nemesis'). */
        void side(String process, String type, String f, Map<String, Object> value);

        /**
         * After the sessions are joined and the faults healed: reads every key once more into the history
         * ({@code workload.final-read}); returns a line for the run's log, or null when the workload has none.
         */
        default String finalReads(java.time.Duration wait) throws InterruptedException {
            return null;
        }

        /** After the sessions are joined: what the streaming check saw, or null when none ran. */
        StreamingReport finish() throws IOException, InterruptedException;

        @Override
        void close() throws IOException, InterruptedException;
    }
}
