package isostress.harness.run;

import isostress.generator.sql.SqlTxn;
import isostress.generator.sql.SqlWorkload;
import isostress.generator.sql.SqlWorkloadGenerator;
import isostress.generator.workload.Workload;
import isostress.generator.workload.WorkloadSpec;
import isostress.harness.config.Campaign;
import isostress.harness.db.AcctDialect;
import isostress.harness.db.JdbcClientFactory;
import isostress.harness.db.Secrets;
import isostress.harness.faults.Iptables;
import isostress.harness.db.DbNode;
import isostress.harness.provision.Leftovers;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;
import isostress.harness.sql.SqlHistoryWriter;
import isostress.harness.sql.SqlSession;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One run of an sql campaign ({@code workload.type: sql}): start the database, create the accounts table with its
 * initial rows, run every session on its own thread while writing the {@code isostress-sql} history, stop the
 * database, check the history ({@link RunCheck}: each transaction at its own level, and at each of
 * {@code check.levels}), then write results.json and print the summary as every run does ({@link RunReport}).
 */
final class SqlRun {
    private final Campaign campaign;
    private final PrintWriter out;
    private final java.util.function.Consumer<RunningDatabase> onStarted;

    /** @param onStarted told about the database once it is up, before the table is created (faults and tests) */
    SqlRun(Campaign campaign, PrintWriter out, java.util.function.Consumer<RunningDatabase> onStarted) {
        this.campaign = campaign;
        this.out = out;
        this.onStarted = onStarted;
    }

    RunOutcome run(int index, long seed) throws IOException, InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        RunInterrupt interrupt = RunInterrupt.begin(() -> stop.set(true));
        try {
            return run(index, seed, stop, interrupt);
        } finally {
            interrupt.end();
        }
    }

    private RunOutcome run(int index, long seed, AtomicBoolean stop, RunInterrupt interrupt)
            throws IOException, InterruptedException {
        RunDirectory dir = RunDirectory.create(campaign.store(), campaign.name());
        dir.writeCampaign(campaign.text());
        WorkloadSpec spec = campaign.workload().withSeed(seed);
        SqlWorkload workload = SqlWorkloadGenerator.generate(spec, campaign.database().isolation().yamlName());
        RunStats stats = new RunStats(levelsAsShapes(workload));
        RunLog log = new RunLog(dir.logs().resolve("harness.log"));
        isostress.harness.provision.Watchdog.logTo(dir.logs().resolve("harness.log"));
        log.line("run " + (index + 1) + " of " + campaign.name() + ", seed " + seed + ", " + workload.size()
                + " sql transactions over " + spec.sessions() + " sessions");
        for (String line : Leftovers.cleanUp(Iptables::removeStale)) {
            log.line("cleanup: " + line);
            out.println("isostress: " + line);
        }
        String description = null, error = null;
        RunningDatabase db = null;
        try {
            db = Provisioner.of(campaign.database()).start(campaign.database(), dir.logs(), spec.sessions() + 2);
            description = Secrets.mask(db.description());
            log.line("database: " + description);
            onStarted.accept(db);
            out.printf("run %d/%d of %s (seed %d): %s, sql workload, %,d transactions, %d sessions, levels %s%n",
                    index + 1, campaign.runs(), campaign.name(), seed, description, workload.size(), spec.sessions(),
                    spec.isolationMix().isEmpty() ? campaign.database().isolation().yamlName() : spec.isolationMix());
            out.flush();
            List<String> urls = new ArrayList<>();
            for (DbNode n : db.nodes()) urls.add(n.url());
            if (!interrupt.interrupted()) {
                try (JdbcClientFactory clients = (JdbcClientFactory) campaign.database().type().clients(campaign.database(), db, urls,
                        spec.sessions())) {
                    AcctDialect dialect = clients.database().acct();
                    try (Connection c = clients.connection(0)) {
                        dialect.createTable(c, workload.init());
                    }
                    error = execute(workload, clients, dialect, db.nodes().size(), dir, stats, log, stop);
                }
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) throw (InterruptedException) e;
            error = CampaignRunner.describe(campaign, e);
            log.line("error: " + error);
        } finally {
            if (db != null) db.close();
        }
        isostress.checker.model.Result result = null;
        String unchecked = null;
        if (interrupt.interrupted()) {
            // As in CampaignRunner: what failed while winding down is a consequence of the interrupt.
            if (error != null) log.line("interrupted; the error after it is not the run's: " + error);
            error = null;
            unchecked = RunReport.interruptedReason(dir);
            log.line(unchecked);
        } else if (Files.exists(dir.history())) {
            try {
                result = RunCheck.check(dir.history(), campaign);
            } catch (Exception e) {
                unchecked = CampaignRunner.describe(e);
                log.line("check: " + unchecked);
            }
        }
        RunOutcome o = new RunOutcome(index, seed, dir, description, stats, result, unchecked, error, List.of(),
                Map.of(), null, interrupt.interrupted());
        RunReport.write(o, campaign);
        RunReport.print(o, out);
        log.close();
        return o;
    }

    /** Runs the sessions; returns null, or why the run stopped early. */
    private String execute(SqlWorkload workload, JdbcClientFactory clients, AcctDialect dialect, int nodes,
                           RunDirectory dir, RunStats stats, RunLog log, AtomicBoolean stop)
            throws IOException, InterruptedException, java.sql.SQLException {
        long deadline = campaign.duration() == null ? Long.MAX_VALUE
                : System.nanoTime() + campaign.duration().toNanos();
        List<SqlSession> sessions = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try (SqlHistoryWriter history = new SqlHistoryWriter(dir.history(), campaign.name(), workload.init())) {
            int n = workload.sessions().size();
            for (int s = 0; s < n; s++) {
                SqlSession w = new SqlSession(s, s % nodes, n, workload.sessions().get(s), clients, dialect, history,
                        () -> stop.get() || System.nanoTime() > deadline, campaign.database().opPause(),
                        stats::record);
                sessions.add(w);
            }
            for (SqlSession w : sessions) w.connect();
            stats.started();
            for (int s = 0; s < n; s++) {
                SqlSession w = sessions.get(s);
                Thread t = new Thread(() -> {
                    w.run();
                    if (w.fatal != null) stop.set(true); // one session's fatal error stops the others
                }, "sql-session-" + s);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) t.join();
            stats.finished();
        }
        for (SqlSession w : sessions) {
            if (w.fatal != null) {
                log.line("session failed: " + CampaignRunner.describe(w.fatal));
                return CampaignRunner.describe(w.fatal);
            }
        }
        return null;
    }

    /** Statistics per level: each transaction's shape is its history level name. */
    private static Workload levelsAsShapes(SqlWorkload w) {
        int sessions = w.sessions().size();
        byte[] shape = new byte[w.size()];
        List<String> names = new ArrayList<>();
        for (List<SqlTxn> s : w.sessions()) {
            for (SqlTxn t : s) {
                String level = SqlSession.historyLevel(t.isolation());
                if (!names.contains(level)) names.add(level);
                shape[t.index() * sessions + t.session()] = (byte) names.indexOf(level);
            }
        }
        return Workload.ofShapes(w.spec(), names.toArray(new String[0]), shape);
    }
}
