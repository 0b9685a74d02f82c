package isostress.harness.run;

import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.model.LostWrite;
import isostress.generator.workload.WorkloadType;
import isostress.harness.db.ClientFactory;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.Failure;
import isostress.harness.db.TxnClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The final reads of a run ({@code workload.final-read}): once the sessions ended and the faults were healed, every
 * key is read once more, as ordinary transactions of the history, so that the checker can tell acknowledged writes
 * that no later read shows ({@code lost-write}). A marker event ({@link LostWrite#FINAL_READS}) goes first: the
 * checker looks for lost writes only in histories that have it. A read that fails (no primary yet, a connection
 * broken) is recorded as it ended and tried again, until {@code wait} has passed.
 */
final class FinalReads {
    /** Keys per read transaction: few transactions, each short. */
    static final int KEYS_PER_TXN = 20;

    private FinalReads() {
    }

    /**
     * Reads keys {@code 0..maxKey} through a new client of {@code clients}; returns a line for the run's log.
     *
     * @param process a process id no session used
     * @param node    the history's node name for the client's transactions when the client does not say, or null
     */
    static String run(WorkloadType type, long maxKey, ClientFactory clients, int session, HistoryRecorder recorder,
                      long process, String node, Duration wait) throws InterruptedException {
        // Process nemesis: the history's one name for events of the harness rather than of a client.
        recorder.side("nemesis", "info", LostWrite.FINAL_READS, Map.of("keys", maxKey + 1));
        long deadline = System.nanoTime() + wait.toNanos();
        int txns = 0, failed = 0;
        TxnClient client = clients.open(session, 0);
        try {
            for (long from = 0; from <= maxKey; from += KEYS_PER_TXN) {
                List<MicroOp> ops = new ArrayList<>();
                for (long k = from; k <= Math.min(maxKey, from + KEYS_PER_TXN - 1); k++) {
                    ops.add(type == WorkloadType.LIST_APPEND ? new MicroOp.ListRead(k, null)
                            : new MicroOp.Read(k, null));
                }
                while (true) {
                    long p = client.process(process, ops);
                    recorder.invoke(p, ops);
                    String ranOn = client.node() != null ? client.node() : node;
                    try {
                        recorder.complete(p, Outcome.OK, client.run(ops, key -> DatabaseAdapter.INITIAL), null, ranOn);
                        txns++;
                        break;
                    } catch (TxnClient.Unreachable e) {
                        recorder.complete(p, Outcome.FAIL, ops, e.getMessage(), ranOn);
                    } catch (TxnClient.TxnFailure e) {
                        Failure f = e.failure();
                        recorder.complete(p, f.outcome(), f.inDoubt() && e.observed() != null ? e.observed() : ops,
                                e.getMessage(), ranOn);
                        if (f.inDoubt()) process++; // as a session: the old connection's state is unknown
                    }
                    failed++;
                    if (System.nanoTime() > deadline) {
                        return "final reads: gave up after " + wait.toSeconds() + " s with keys " + from + ".."
                                + maxKey + " unread (" + failed + " attempts failed)";
                    }
                    Thread.sleep(200);
                }
            }
        } finally {
            client.close();
        }
        return "final reads: keys 0.." + maxKey + " read in " + txns + " transaction(s)"
                + (failed > 0 ? " after " + failed + " failed attempt(s)" : "");
    }
}
