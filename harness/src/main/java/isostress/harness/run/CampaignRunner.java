package isostress.harness.run;

import isostress.checker.history.InputException;
import isostress.checker.model.Result;
import isostress.generator.workload.WorkloadSpec;
import isostress.harness.config.Campaign;
import isostress.harness.config.CampaignLoader;
import isostress.harness.db.CannotConnectException;
import isostress.harness.db.ClientFactory;
import isostress.harness.db.ClientUrls;
import isostress.harness.db.Secrets;
import isostress.harness.faults.FaultFigures;
import isostress.harness.faults.FaultRecord;
import isostress.harness.faults.Iptables;
import isostress.harness.faults.Nemesis;
import isostress.harness.faults.TcpProxy;
import isostress.harness.db.DbNode;
import isostress.harness.provision.Leftovers;
import isostress.harness.db.Provisioner;
import isostress.harness.db.RunningDatabase;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One run of a campaign, whatever its workload: start the database, create the workload's tables, run every session
 * on its own thread while recording the history (and, for mini-transactions, checking it as it grows:
 * {@link StreamingCheck}), stop the database, check the history, write the results. What differs between workloads
 * (their transactions, schema, sessions and history format) is the {@link WorkloadDriver}'s; the rest is here, once. The database the harness started is stopped in every case: normal end,
 * failure, Ctrl-C ({@link RunInterrupt}: the run ends in the same order, without the check) or SIGKILL (the
 * {@link isostress.harness.provision.Watchdog}). {@link #runAll} repeats runs and sums them up
 * ({@link CampaignSummary}).
 */
public final class CampaignRunner {
    /** The longest read replicas may take to replay the new table before the workload starts. */
    static final java.time.Duration REPLICA_CATCH_UP = java.time.Duration.ofSeconds(60);
    private final Campaign campaign;
    private final PrintWriter out;
    private final boolean progress;
    private java.util.function.Consumer<RunningDatabase> onStarted = db -> { };
    private List<FaultRecord> faults = List.of();
    private Map<String, Object> nodeSummary = Map.of();
    private StreamingReport streaming;

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

    /**
     * Runs the campaign's runs with seeds {@code baseSeed}, {@code baseSeed + 1}, ...; stops after an
     * infrastructure error, and after a violating run when {@code stop-on-violation: campaign}. After several runs,
     * prints the summary and writes {@code store/<name>/campaign-summary.json}.
     */
    public List<RunOutcome> runAll(long baseSeed) throws IOException, InterruptedException {
        List<RunOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < campaign.runs(); i++) {
            RunOutcome o = run(i, baseSeed + i);
            outcomes.add(o);
            if (o.error() != null || o.interrupted() || RunInterrupt.shuttingDown()) break;
            if (o.violation() && campaign.stopOnViolation() == Campaign.StopOnViolation.CAMPAIGN
                    && i + 1 < campaign.runs()) {
                out.println("stopping the campaign: run " + (i + 1) + " found a violation (stop-on-violation: "
                        + "campaign)");
                break;
            }
        }
        if (campaign.runs() > 1) {
            CampaignSummary summary = CampaignSummary.of(campaign, outcomes);
            summary.print(out);
            summary.write(campaign.store().resolve(campaign.name()).resolve("campaign-summary.json"));
        }
        out.flush();
        return outcomes;
    }

    /** Runs run number {@code index} (from 0) with {@code seed}. */
    public RunOutcome run(int index, long seed) throws IOException, InterruptedException {
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
        faults = List.of();
        nodeSummary = Map.of();
        streaming = null;
        RunDirectory dir = RunDirectory.create(campaign.store(), campaign.name());
        dir.writeCampaign(campaign.text());
        WorkloadDriver driver = WorkloadDriver.generate(campaign, seed);
        WorkloadSpec spec = driver.spec();
        RunLog log = new RunLog(dir.logs().resolve("harness.log"));
        isostress.harness.provision.Watchdog.logTo(dir.logs().resolve("harness.log"));
        log.line("run " + (index + 1) + " of " + campaign.name() + ", seed " + seed + ", " + driver.sizeLine());
        for (String line : Leftovers.cleanUp(Iptables::removeStale)) {
            log.line("cleanup: " + line);
            out.println("isostress: " + line);
        }
        RunStats stats = new RunStats(driver.statsView(), campaign.rate());
        String description = null;
        String error = null;
        RunningDatabase db = null;
        RunWitness witness = null;
        List<TcpProxy> proxies = List.of();
        try {
            db = Provisioner.of(campaign.database()).start(campaign.serverSpec(), dir.logs(), spec.sessions() + 2);
            description = Secrets.mask(db.description());
            log.line("database: " + description);
            onStarted.accept(db);
            out.printf("run %d/%d of %s (seed %d): %s, %s%n", index + 1, campaign.runs(), campaign.name(), seed,
                    description, driver.describe(campaign));
            out.flush();
            proxies = proxies(db);
            List<String> urls = new ArrayList<>();
            Map<String, String> nodeAt = new HashMap<>();
            for (int i = 0; i < db.nodes().size(); i++) {
                DbNode n = db.nodes().get(i);
                urls.add(proxies.isEmpty() ? n.url() : ClientUrls.via(n.url(), "127.0.0.1", proxies.get(i).port()));
                nodeAt.put(n.host() + ":" + n.clientPort(), n.name());
                if (!proxies.isEmpty()) nodeAt.put("127.0.0.1:" + proxies.get(i).port(), n.name());
            }
            if (!interrupt.interrupted()) {
                try (ClientFactory clients = ReadRouting.of(campaign.database().type().clients(campaign.database(),
                        db, urls, nodeAt, spec.sessions()), campaign.database().replicas())) {
                    driver.prepare(clients, db);
                    db.awaitReplicas(REPLICA_CATCH_UP); // every read node starts from the same state
                    // After the schema, so its initial rows are not in the log; closed before the server stops.
                    try (RunWitness w = RunWitness.start(campaign, db, dir)) {
                        witness = w;
                        error = execute(driver, clients, db, proxies, dir, stats, log, stop, w);
                    }
                    if (witness.problem() != null) {
                        log.line("witness: " + witness.problem());
                        if (error == null) error = witness.problem();
                    } else if (witness.joinable() != null) {
                        log.line("witness: " + witness.transactions() + " log transactions in " + witness.joinable());
                    }
                }
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) throw (InterruptedException) e;
            error = e instanceof RunAbortedException ? e.getMessage() : describe(campaign, e);
            log.line("error: " + error);
        } finally {
            for (TcpProxy p : proxies) p.close();
            if (db != null) db.close();
        }
        Result result = null;
        String unknown = null;
        if (interrupt.interrupted()) {
            // What failed while winding down (a session whose connection closed, a server that was starting) is a
            // consequence of the interrupt, not what ended the run; the log keeps it.
            if (error != null) log.line("interrupted; the error after it is not the run's: " + error);
            error = null;
            unknown = RunReport.interruptedReason(dir);
            log.line(unknown);
        } else if (java.nio.file.Files.exists(dir.history())) {
            try {
                result = RunCheck.check(dir.history(), campaign, witness == null ? null : witness.joinable(),
                        witness == null ? null : witness.parsed());
            } catch (InputException e) {
                unknown = e.getMessage();
                log.line("check: " + unknown);
            } catch (IllegalArgumentException e) { // a level the SQL checker does not decide
                unknown = describe(e);
                log.line("check: " + unknown);
            }
        }
        faults = withFigures(dir, faults, log);
        RunOutcome outcome = new RunOutcome(index, seed, dir, description, stats, result, unknown, error, faults,
                nodeSummary, streaming, interrupt.interrupted());
        RunReport.write(outcome, campaign);
        RunReport.print(outcome, out);
        log.close();
        return outcome;
    }

    /**
     * The faults on a failover-managed cluster with what each cost the clients ({@link FaultFigures}), read from the
     * complete history; as they are elsewhere, or when the history cannot be read (the log says why).
     */
    private static List<FaultRecord> withFigures(RunDirectory dir, List<FaultRecord> faults, RunLog log) {
        if (faults.stream().allMatch(f -> f.leaderBefore() == null) || !java.nio.file.Files.exists(dir.history())) {
            return faults;
        }
        try {
            if (isostress.checker.sql.SqlHistoryReader.isSqlHistory(dir.history())) return faults;
            return FaultFigures.of(isostress.checker.history.HistoryFormat.JSONL.read(dir.history()), faults);
        } catch (IOException | RuntimeException e) {
            log.line("faults: no new-primary or no-commit figures, the history could not be read: " + e.getMessage());
            return faults;
        }
    }

    /** A proxy in front of each node when the faults act on the client link. */
    private List<TcpProxy> proxies(RunningDatabase db) throws IOException {
        if (!Nemesis.needsProxy(campaign.nemesis())) return List.of();
        List<TcpProxy> out = new ArrayList<>();
        for (DbNode n : db.nodes()) out.add(new TcpProxy(n.host(), n.clientPort()));
        return out;
    }

    /** Runs the sessions (and the nemesis); returns null, or why the run stopped early. */
    private String execute(WorkloadDriver driver, ClientFactory clients, RunningDatabase db, List<TcpProxy> proxies,
                           RunDirectory dir, RunStats stats, RunLog log, AtomicBoolean stop, RunWitness witness)
            throws Exception {
        long deadline = campaign.duration() == null ? Long.MAX_VALUE
                : System.nanoTime() + campaign.duration().toNanos();
        List<Thread> threads = new ArrayList<>();
        List<DbNode> nodes = db.nodes();
        List<String> names = new ArrayList<>();
        for (DbNode n : nodes) names.add(n.name());
        NodeOutcomes outcomes = new NodeOutcomes(names);
        Nemesis nemesis = null;
        WorkloadDriver.Execution x = new WorkloadDriver.Execution(campaign, dir, clients, nodes, stats,
                () -> stop.get() || System.nanoTime() > deadline, outcomes, d -> detected(d, stop, log));
        int sessions;
        try (WorkloadDriver.Recording recording = driver.open(x);
             Progress bar = Progress.start(progress, driver.statsView().size(), stats)) {
            stats.started(dir.latencyLog());
            witness.historyClock(recording::now); // its account of when each log was read is in the history's time
            List<Runnable> workers = recording.sessions(new Schedule(stats.startNanos(), campaign.rate()));
            sessions = workers.size();
            for (int s = 0; s < sessions; s++) {
                Runnable w = workers.get(s);
                int session = s;
                Thread t = new Thread(() -> {
                    w.run();
                    if (recording.fatal(session) != null) stop.set(true); // one session's fatal error stops the others
                }, "session-" + s);
                threads.add(t);
                t.start();
            }
            try {
                if (campaign.nemesis() != null) {
                    nemesis = new Nemesis(campaign.nemesis(), nodes, proxies, new Nemesis.EventSink() {
                        public long now() {
                            return recording.now();
                        }

                        public void event(String f, java.util.Map<String, Object> value) {
                            recording.side("nemesis", "info", f, value);
                            log.line("nemesis: " + f + " " + value);
                        }
                    }, db.failover().orElse(null));
                    nemesis.start();
                }
                for (Thread t : threads) t.join();
                if (nemesis != null) {
                    nemesis.close(); // heals the fault in progress: the final reads come after every fault
                    faults = nemesis.records();
                }
                if (campaign.finalRead() && !stop.get()) finalReads(db, recording, log);
                streaming = recording.finish();
                stats.finished();
                nodeSummary = outcomes.summary(faults, recording.now());
            } finally {
                if (nemesis != null) nemesis.close();
            }
            for (int s = 0; s < sessions; s++) {
                Throwable fatal = recording.fatal(s);
                if (fatal != null) {
                    log.line("session failed: " + describe(fatal));
                    return fatal instanceof RunAbortedException ? fatal.getMessage() : describe(fatal);
                }
            }
        }
        return null;
    }

    /**
     * Reads every key once more, once a primary answers: the history's last word on each key, which the checker
     * holds the acknowledged writes against (lost-write).
     */
    private static void finalReads(RunningDatabase db, WorkloadDriver.Recording recording, RunLog log)
            throws InterruptedException {
        Duration wait = Duration.ofSeconds(120);
        if (db.failover().isPresent() && db.failover().get().awaitPrimary(wait).isEmpty()) {
            log.line("final reads: no primary within " + wait.toSeconds() + " s; reading anyway");
        }
        String line = recording.finalReads(wait);
        if (line != null) log.line(line);
    }

    /**
     * The streaming check found a violation: say so, and with stop-on-violation end the run. Sessions see the stop
     * before their next transaction, so each finishes the one under way and the history stays complete; the
     * end-of-run check then finds the violation again (the prefix was sound) and decides the verdict.
     */
    private void detected(StreamingReport.Detection d, AtomicBoolean stop, RunLog log) {
        boolean stopping = campaign.stopOnViolation() != Campaign.StopOnViolation.NEVER;
        String line = "violation detected while running at " + CampaignSummary.seconds(d.detectedNs() / 1e9) + " ("
                + (d.txn() == null ? "counterexample not listed"
                        : d.txn() + " completed " + CampaignSummary.seconds(d.latencyNs() / 1e9) + " earlier")
                + "): " + d.anomaly() + " — "
                + (stopping ? "stopping (stop-on-violation)" : "continuing (stop-on-violation: false)");
        if (stopping) stop.set(true);
        log.line(line);
        synchronized (out) {
            out.println("  " + line);
            out.flush();
        }
    }

    /** As {@link #describe(Throwable)}; a setting the server refused is named by file, line and key path. */
    static String describe(Campaign c, Throwable e) {
        if (e instanceof isostress.harness.provision.SettingRefusedException) {
            var refused = (isostress.harness.provision.SettingRefusedException) e;
            return refused.located(CampaignLoader.where(c, refused.keyPath()));
        }
        return describe(e);
    }

    /**
     * One line for an error that stopped a run: a {@link CannotConnectException}'s or a plain IOException's
     * sentence as it is, else the exception and, when it wraps another (HikariCP's "Connection is not available"
     * does), the root cause.
     */
    static String describe(Throwable e) {
        // Ours: a sentence for people, its class name adds nothing.
        if (e instanceof CannotConnectException || e.getClass() == IOException.class) return e.getMessage();
        String m = e.getMessage();
        String line = e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        if (root != e && root.getMessage() != null && (m == null || !m.contains(root.getMessage()))) {
            line += " (cause: " + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
        }
        return line;
    }
}
