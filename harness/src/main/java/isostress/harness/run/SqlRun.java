package isostress.harness.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import isostress.generator.sql.SqlTxn;
import isostress.generator.sql.SqlWorkload;
import isostress.generator.sql.SqlWorkloadGenerator;
import isostress.generator.workload.Workload;
import isostress.generator.workload.WorkloadSpec;
import isostress.harness.config.Campaign;
import isostress.harness.config.Secrets;
import isostress.harness.db.JdbcClientFactory;
import isostress.harness.provision.DbNode;
import isostress.harness.provision.Provisioner;
import isostress.harness.provision.RunningDatabase;
import isostress.harness.sql.AcctDialect;
import isostress.harness.sql.SqlHistoryWriter;
import isostress.harness.sql.SqlSession;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One run of an sql campaign ({@code workload.type: sql}): start the database, create the accounts table with its
 * initial rows, run every session on its own thread while writing the {@code isostress-sql} history, stop the
 * database, check the history with the SQL checker (each transaction at its own level, and at each of
 * {@code check.levels}), write results.json and print the summary.
 */
final class SqlRun {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
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
        for (String line : isostress.harness.provision.Leftovers.cleanUp()) {
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
        SqlVerdicts verdicts = null;
        String unchecked = null;
        if (interrupt.interrupted()) {
            // As in CampaignRunner: what failed while winding down is a consequence of the interrupt.
            if (error != null) log.line("interrupted; the error after it is not the run's: " + error);
            error = null;
            unchecked = RunReport.interruptedReason(dir);
            log.line(unchecked);
        } else if (Files.exists(dir.history())) {
            try {
                verdicts = SqlCheck.check(dir.history(), campaign.levels(), campaign.searchBudget(),
                        campaign.checkTimeout());
            } catch (Exception e) {
                unchecked = CampaignRunner.describe(e);
                log.line("check: " + unchecked);
            }
        }
        RunOutcome o = new RunOutcome(index, seed, dir, description, stats, null, unchecked, error, List.of(),
                Map.of(), null, verdicts, interrupt.interrupted());
        write(o, workload);
        print(o);
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

    private void write(RunOutcome o, SqlWorkload workload) throws IOException {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("campaign", campaign.name());
        root.put("run", o.index() + 1);
        root.put("seed", o.seed());
        if (o.database() != null) root.put("database", o.database());
        root.put("isolation", campaign.database().isolation().yamlName());
        WorkloadSpec w = workload.spec();
        ObjectNode wl = root.putObject("workload");
        wl.put("type", w.type().yamlName());
        wl.put("sessions", w.sessions());
        wl.put("transactions", w.transactions());
        wl.put("keys", w.keys());
        wl.put("groups", w.groups());
        wl.set("isolation_mix", MAPPER.valueToTree(w.isolationMix()));
        if (o.error() != null) root.put("error", o.error());
        if (o.interrupted()) root.put("interrupted", true);
        root.put("exit_status", o.exitStatus());
        Map<String, Object> stats = RunReport.stats(o.stats());
        stats.put("by_level", stats.remove("by_shape"));
        root.set("stats", MAPPER.valueToTree(stats));
        ObjectNode check = root.putObject("check");
        if (o.sql() == null) {
            check.put("verdict", "unknown");
            check.put("reason", o.unchecked() != null ? o.unchecked() : "no history was recorded");
        } else {
            o.sql().writeJson(check);
        }
        MAPPER.writeValue(o.dir().results().toFile(), root);
        try {
            isostress.harness.report.HtmlReport.write(o.dir().path());
        } catch (Exception | OutOfMemoryError e) {
            // As for the other workloads: the report is for people, the verdict is already in results.json.
            System.err.println("warning: report.html not written: " + e);
        }
    }

    private void print(RunOutcome o) {
        RunStats s = o.stats();
        Map<String, Double> lat = s.latencyMs();
        if (s.attempted() > 0) {
            out.printf(Locale.ROOT, "  %,d transactions in %.1f s: %,d committed, %,d aborted (%.1f%%), %,d unknown; "
                    + "latency ms p50 %.2f p99 %.2f max %.1f%n", s.attempted(), s.seconds(), s.committed(),
                    s.aborted(), 100 * s.abortRate(), s.unknown(), lat.get("p50"), lat.get("p99"), lat.get("max"));
            Map<String, String> per = new LinkedHashMap<>();
            s.byShape().forEach((level, m) -> per.put(level, m.get("committed") + "/" + m.get("attempted")
                    + " committed"));
            out.println("  by level: " + per);
        }
        if (o.error() != null) out.println("  ERROR: the run stopped: " + o.error());
        if (o.sql() == null) {
            out.println("  verdict: UNKNOWN — " + (o.unchecked() != null ? o.unchecked() : "no history"));
        } else {
            out.println("  verdict: " + o.sql().verdict().jsonName().toUpperCase(Locale.ROOT));
            for (SqlVerdicts.Check c : o.sql().checks()) {
                out.printf("    %-20s %-8s %s%n", c.level().equals("own") ? "own levels" : "all " + c.level(),
                        c.verdict().jsonName(), c.reason() == null ? "" : c.reason());
            }
            for (SqlVerdicts.Check c : o.sql().checks()) {
                if (c.verdict() == isostress.checker.model.Verdict.INVALID && c.text() != null) {
                    out.println("  counterexample (" + c.level() + "):");
                    for (String line : c.text().split("\n")) out.println("    " + line);
                    break;
                }
            }
        }
        out.println("  " + o.dir().closingLine());
        out.flush();
    }
}
