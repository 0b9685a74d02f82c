package isostress.harness.run;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import isostress.checker.CheckOptions;
import isostress.checker.Checker;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.history.InputException;
import isostress.checker.model.Result;
import isostress.generator.workload.Workload;
import isostress.generator.workload.WorkloadGenerator;
import isostress.generator.workload.WorkloadSpec;
import isostress.harness.config.Campaign;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.MariaDbAdapter;
import isostress.harness.db.PostgresAdapter;
import isostress.harness.provision.Provisioner;
import isostress.harness.provision.RunningDatabase;

import java.io.IOException;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One run of a campaign: start the database, create the table, run every session on its own thread while recording
 * the history, stop the database, check the history, write the results. The database the harness started is
 * stopped in every case: normal end, failure, or Ctrl-C (a shutdown hook).
 */
public final class CampaignRunner {
    private final Campaign campaign;
    private final PrintWriter out;
    private final boolean progress;
    private java.util.function.Consumer<RunningDatabase> onStarted = db -> { };

    public CampaignRunner(Campaign campaign, PrintWriter out, boolean progress) {
        this.campaign = campaign;
        this.out = out;
        this.progress = progress;
    }

    /** Called with the database once it is up, before the workload starts (faults and tests act on it). */
    public CampaignRunner onDatabaseStarted(java.util.function.Consumer<RunningDatabase> listener) {
        this.onStarted = listener;
        return this;
    }

    /** Runs run number {@code index} (from 0) with {@code seed}. */
    public RunOutcome run(int index, long seed) throws IOException, InterruptedException {
        RunDirectory dir = RunDirectory.create(campaign.store(), campaign.name());
        dir.writeCampaign(campaign.text());
        WorkloadSpec spec = campaign.workload().withSeed(seed);
        Workload workload = WorkloadGenerator.generate(spec);
        RunLog log = new RunLog(dir.logs().resolve("harness.log"));
        log.line("run " + (index + 1) + " of " + campaign.name() + ", seed " + seed + ", " + workload.size()
                + " transactions over " + spec.sessions() + " sessions");
        RunStats stats = new RunStats(workload);
        String description = null;
        String error = null;
        RunningDatabase db = null;
        Thread hook = null;
        try {
            db = Provisioner.of(campaign.database()).start(campaign.database(), dir.logs(), spec.sessions() + 2);
            RunningDatabase started = db;
            hook = new Thread(started::close, "isostress-stop-database");
            Runtime.getRuntime().addShutdownHook(hook);
            description = db.description();
            log.line("database: " + description);
            onStarted.accept(db);
            out.printf("run %d/%d of %s (seed %d): %s, %s, %s workload, %,d transactions, %d sessions%n", index + 1,
                    campaign.runs(), campaign.name(), seed, description, campaign.database().isolation().yamlName(),
                    spec.type().yamlName(), workload.size(), spec.sessions());
            out.flush();
            DatabaseAdapter adapter = adapter(campaign.database().type());
            try (HikariDataSource pool = pool(db, adapter, spec.sessions())) {
                try (Connection c = pool.getConnection()) {
                    c.setAutoCommit(true);
                    adapter.createSchema(c, spec.type(), workload.maxKey());
                }
                error = execute(workload, pool, adapter, dir, stats, log);
            }
        } catch (IOException | SQLException | RuntimeException e) {
            error = e instanceof RunAbortedException ? e.getMessage() : describe(e);
            log.line("error: " + error);
        } finally {
            if (db != null) db.close();
            if (hook != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // already shutting down: the hook runs
                }
            }
        }
        Result result = null;
        String unknown = null;
        if (java.nio.file.Files.exists(dir.history())) {
            try {
                History h = HistoryFormat.JSONL.read(dir.history());
                result = Checker.check(h, campaign.levels(), CheckOptions.DEFAULTS
                        .withAnomaliesPerType(campaign.maxAnomalies()).withSearchBudget(campaign.searchBudget()));
            } catch (InputException e) {
                unknown = e.getMessage();
                log.line("check: " + unknown);
            }
        }
        RunOutcome outcome = new RunOutcome(index, seed, dir, description, stats, result, unknown, error);
        RunReport.write(outcome, campaign);
        RunReport.print(outcome, campaign, out);
        log.close();
        return outcome;
    }

    /** Runs the workers; returns null, or why the run stopped early. */
    private String execute(Workload workload, HikariDataSource pool, DatabaseAdapter adapter, RunDirectory dir,
                           RunStats stats, RunLog log) throws IOException, InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        long deadline = campaign.duration() == null ? Long.MAX_VALUE
                : System.nanoTime() + campaign.duration().toNanos();
        List<SessionWorker> workers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try (HistoryRecorder recorder = new HistoryRecorder(dir.history(), DatabaseAdapter.INITIAL);
             Progress bar = Progress.start(progress, workload.size(), stats)) {
            // On Ctrl-C the history is closed (flushed) before the JVM exits: what was recorded stays checkable.
            Thread flush = new Thread(() -> {
                try {
                    recorder.close();
                } catch (IOException e) {
                    System.err.println("isostress: closing the history: " + e.getMessage());
                }
            }, "isostress-close-history");
            Runtime.getRuntime().addShutdownHook(flush);
            stats.started();
            for (int s = 0; s < workload.spec().sessions(); s++) {
                SessionWorker w = new SessionWorker(s, workload, pool, adapter, recorder, stats,
                        () -> stop.get() || System.nanoTime() > deadline);
                workers.add(w);
                Thread t = new Thread(() -> {
                    w.run();
                    if (w.fatal != null) stop.set(true); // one session's fatal error stops the others
                }, "session-" + s);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) t.join();
            stats.finished();
            try {
                Runtime.getRuntime().removeShutdownHook(flush);
            } catch (IllegalStateException e) {
                // shutting down: the hook closes the history
            }
        }
        for (SessionWorker w : workers) {
            if (w.fatal != null) {
                log.line("session failed: " + describe(w.fatal));
                return w.fatal instanceof RunAbortedException ? w.fatal.getMessage() : describe(w.fatal);
            }
        }
        return null;
    }

    private HikariDataSource pool(RunningDatabase db, DatabaseAdapter adapter, int sessions) {
        HikariConfig cfg = new HikariConfig();
        cfg.setJdbcUrl(db.jdbcUrl());
        if (db.user() != null) cfg.setUsername(db.user());
        if (db.password() != null) cfg.setPassword(db.password());
        cfg.setMaximumPoolSize(sessions + 1);
        cfg.setMinimumIdle(0);
        cfg.setAutoCommit(false);
        cfg.setConnectionTimeout(10_000);
        cfg.setPoolName("isostress");
        int iso = adapter.jdbcIsolation(campaign.database().isolation());
        cfg.setTransactionIsolation(isolationName(iso));
        // No statement may hang forever: a dead server must end the run, not stall it.
        if (adapter instanceof PostgresAdapter) {
            cfg.addDataSourceProperty("socketTimeout", "60");
            cfg.addDataSourceProperty("connectTimeout", "10");
        } else {
            cfg.addDataSourceProperty("socketTimeout", "60000");
            cfg.addDataSourceProperty("connectTimeout", "10000");
        }
        return new HikariDataSource(cfg);
    }

    private static String isolationName(int jdbc) {
        switch (jdbc) {
            case Connection.TRANSACTION_READ_UNCOMMITTED: return "TRANSACTION_READ_UNCOMMITTED";
            case Connection.TRANSACTION_READ_COMMITTED: return "TRANSACTION_READ_COMMITTED";
            case Connection.TRANSACTION_REPEATABLE_READ: return "TRANSACTION_REPEATABLE_READ";
            default: return "TRANSACTION_SERIALIZABLE";
        }
    }

    static DatabaseAdapter adapter(Campaign.DbType type) {
        return type == Campaign.DbType.POSTGRESQL ? new PostgresAdapter() : new MariaDbAdapter();
    }

    static String describe(Throwable e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
