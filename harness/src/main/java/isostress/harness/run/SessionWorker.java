package isostress.harness.run;

import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.generator.workload.Workload;
import isostress.generator.workload.WorkloadType;
import isostress.harness.db.ClientFactory;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Failure;
import isostress.harness.db.TxnClient;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Runs one session's transactions in order on one client bound to one node, recording each invocation before it
 * starts and its completion after it ends.
 *
 * <p>Outcomes come from the client ({@link TxnClient}) and {@link Failure}'s one rule: an abort is {@code fail}; an
 * unknown commit outcome is {@code info}, after which the session continues under a new process id (Jepsen's
 * convention: the old connection's state is unknown). A database that cannot be reached is a {@code fail} (nothing
 * was sent); without faults it stops the run, under faults the session waits and tries again until the run ends. An
 * unexpected error stops the run after the transaction is recorded: {@code fail} before COMMIT, {@code info} at it.
 *
 * <p>Under {@code workload.rate} each transaction waits for its slot in the {@link Schedule} and its latency counts
 * from that slot (its intended start), not from when the session got round to it. Each transaction also adds where
 * its time went (waiting for the slot, the database client, the recorder) to {@link RunStats#stages}.
 */
final class SessionWorker implements Runnable {
    private final int session;
    private final int node;
    private final String nodeName;
    private final Workload workload;
    private final TxnDispatch dispatch;
    private final ClientFactory clients;
    private final HistoryRecorder recorder;
    private final RunStats stats;
    private final BooleanSupplier stop;
    private final boolean underFaults;
    private final NodeOutcomes outcomes;
    private final Schedule schedule;
    /** Only CAS workloads read it: the others skip remembering reads (a boxed put per read). */
    private final boolean remembers;
    private final Map<Long, Long> lastRead = new HashMap<>();
    private final DatabaseAdapter.CasExpectations cas = key -> lastRead.getOrDefault(key, DatabaseAdapter.INITIAL);
    private long process;
    private TxnClient client;
    volatile Throwable fatal;

    /**
     * @param node        index of the node this session talks to
     * @param nodeName    its name for the history, or null for a single-server database
     * @param underFaults true when a nemesis runs: an unreachable database is expected, not fatal
     */
    SessionWorker(int session, int node, String nodeName, Workload workload, TxnDispatch dispatch,
                  ClientFactory clients,
                  HistoryRecorder recorder, RunStats stats, BooleanSupplier stop, boolean underFaults,
                  NodeOutcomes outcomes, Schedule schedule) {
        this.outcomes = outcomes;
        this.schedule = schedule;
        this.remembers = workload.spec().type() == WorkloadType.CAS;
        this.session = session;
        this.node = node;
        this.nodeName = nodeName;
        this.workload = workload;
        this.dispatch = dispatch;
        this.clients = clients;
        this.recorder = recorder;
        this.stats = stats;
        this.stop = stop;
        this.underFaults = underFaults;
        this.process = session;
    }

    /** The process id the session records its transactions under now (it grows after each {@code info}). */
    long process() {
        return process;
    }

    @Override
    public void run() {
        try {
            for (int t = dispatch.next(session); t >= 0 && !stop.getAsBoolean(); t = dispatch.next(session)) {
                runTxn(t, workload.ops(t));
            }
        } catch (Throwable e) {
            fatal = e;
        } finally {
            if (client != null) client.close();
        }
    }

    private void runTxn(int t, List<MicroOp> ops) throws InterruptedException {
        long intended = schedule.open() ? schedule.intended(t) : 0;
        long waited = schedule.open() ? waitUntil(intended) : 0;
        if (stop.getAsBoolean()) return; // stopped while waiting for the slot: never invoked
        long begin = System.nanoTime();
        if (!schedule.open()) intended = begin;
        long invoked = recorder.now();
        if (client == null) client = clients.open(session, node);
        long p = client.process(process, ops); // a routing client records reads on a replica as their own process
        recorder.invoke(p, ops);
        long sent = System.nanoTime();
        Outcome o;
        long answered, recorded;
        try {
            List<MicroOp> done = client.run(ops, cas);
            answered = System.nanoTime();
            o = Outcome.OK;
            recorder.complete(p, o, done, null, ranOn());
            recorded = System.nanoTime();
            if (remembers) remember(done);
        } catch (TxnClient.Unreachable e) {
            answered = System.nanoTime();
            o = Outcome.FAIL;
            recorder.complete(p, o, ops, e.getMessage(), ranOn()); // never reached the database
            finish(t, o, intended, begin, waited, sent, answered, System.nanoTime(), invoked);
            if (!underFaults) throw new RunAbortedException(e.getMessage(), e);
            Thread.sleep(100); // the node is down or cut off: do not spin while the fault lasts
            return;
        } catch (TxnClient.TxnFailure e) {
            answered = System.nanoTime();
            Failure f = e.failure();
            o = f.outcome();
            // An unknown outcome keeps what was observed (reads happened); an abort took no effect.
            recorder.complete(p, o, f.inDoubt() && e.observed() != null ? e.observed() : ops,
                    f.stopsRun() ? e.toString() : e.getMessage(), ranOn());
            finish(t, o, intended, begin, waited, sent, answered, System.nanoTime(), invoked);
            if (f.inDoubt()) process += workload.spec().sessions();
            if (f.stopsRun()) {
                throw new RunAbortedException("transaction of session " + session + " failed with an unexpected "
                        + "error (" + e.code() + ")" + (f.inDoubt() ? " at COMMIT, recorded as info (it may have "
                        + "committed)" : " before COMMIT") + ": " + e.getMessage(), e);
            }
            return;
        }
        finish(t, o, intended, begin, waited, sent, answered, recorded, invoked);
    }

    /**
     * Records a completed transaction's outcome, latencies and stages (nanoTimes: intended start, start, invocation
     * recorded, client answered, completion recorded; {@code invoked} on the recorder's clock).
     */
    private void finish(int t, Outcome o, long intended, long begin, long waited, long sent, long answered,
                        long recorded, long invoked) {
        // Latency ends when the completion is recorded: the history's own span of the transaction.
        stats.record(t, o, recorded - intended, recorded - begin);
        outcomes.record(node, client.node(), invoked, recorder.now(), o);
        // The recorder: the invocation (begin..sent) and the completion (answered..recorded).
        stats.stages(session, waited, answered - sent, (sent - begin) + (recorded - answered),
                System.nanoTime() - begin + waited);
    }

    /** Sleeps until {@code nanoTime} reaches {@code at}, waking often enough to see a stop; returns the ns waited. */
    private long waitUntil(long at) {
        long from = System.nanoTime();
        for (long left = at - from; left > 0 && !stop.getAsBoolean(); left = at - System.nanoTime()) {
            LockSupport.parkNanos(Math.min(left, 50_000_000L));
        }
        return Math.max(0, System.nanoTime() - from);
    }

    /** Where the transaction ran: the client's pick when it routes reads (replicas), else the session's node. */
    private String ranOn() {
        String routed = client.node();
        return routed != null ? routed : nodeName;
    }

    /** The session's last observed value per key: the expected value of its next compare-and-set there. */
    private void remember(List<MicroOp> done) {
        for (MicroOp m : done) {
            if (m instanceof MicroOp.Read && ((MicroOp.Read) m).value() != null) {
                lastRead.put(m.key(), ((MicroOp.Read) m).value());
            } else if (m instanceof MicroOp.Cas) {
                lastRead.put(m.key(), ((MicroOp.Cas) m).newValue());
            }
        }
    }
}
