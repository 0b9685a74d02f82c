package isostress.harness.run;

import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.generator.workload.Workload;
import isostress.harness.db.ClientFactory;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Failure;
import isostress.harness.db.TxnClient;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    private final Map<Long, Long> lastRead = new HashMap<>();
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
                  NodeOutcomes outcomes) {
        this.outcomes = outcomes;
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
        long begin = System.nanoTime();
        long invoked = recorder.now();
        if (client == null) client = clients.open(session, node);
        long p = client.process(process, ops);
        recorder.invoke(p, ops);
        try {
            List<MicroOp> done = client.run(ops, key -> lastRead.getOrDefault(key, DatabaseAdapter.INITIAL));
            recorder.complete(p, Outcome.OK, done, null, ranOn());
            stats.record(t, Outcome.OK, System.nanoTime() - begin);
            outcomes.record(node, client.node(), invoked, recorder.now(), Outcome.OK);
            remember(done);
        } catch (TxnClient.Unreachable e) {
            recorder.complete(p, Outcome.FAIL, ops, e.getMessage(), ranOn()); // never reached the database
            stats.record(t, Outcome.FAIL, System.nanoTime() - begin);
            outcomes.record(node, client.node(), invoked, recorder.now(), Outcome.FAIL);
            if (!underFaults) throw new RunAbortedException(e.getMessage(), e);
            Thread.sleep(100); // the node is down or cut off: do not spin while the fault lasts
        } catch (TxnClient.TxnFailure e) {
            Failure f = e.failure();
            Outcome o = f.outcome();
            // An unknown outcome keeps what was observed (reads happened); an abort took no effect.
            recorder.complete(p, o, f.inDoubt() && e.observed() != null ? e.observed() : ops,
                    f.stopsRun() ? e.toString() : e.getMessage(), ranOn());
            stats.record(t, o, System.nanoTime() - begin);
            outcomes.record(node, client.node(), invoked, recorder.now(), o);
            if (f.inDoubt()) process += workload.spec().sessions();
            if (f.stopsRun()) {
                throw new RunAbortedException("transaction of session " + session + " failed with an unexpected "
                        + "error (" + e.code() + ")" + (f.inDoubt() ? " at COMMIT, recorded as info (it may have "
                        + "committed)" : " before COMMIT") + ": " + e.getMessage(), e);
            }
        }
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
