package isostress.harness.run;

import isostress.checker.history.InitialState;
import isostress.checker.model.CheckOptions;
import isostress.generator.workload.Workload;
import isostress.generator.workload.WorkloadGenerator;
import isostress.generator.workload.WorkloadSpec;
import isostress.harness.config.Campaign;
import isostress.harness.db.ClientFactory;
import isostress.harness.db.DatabaseAdapter;
import isostress.harness.db.DbNode;
import isostress.harness.db.RunningDatabase;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The key-value workloads (mini-transactions, rw-register, list-append, cas): a {@link SessionWorker} per session
 * over the database's {@link ClientFactory}, writing the {@code jsonl} history through a {@link HistoryRecorder};
 * with {@code check.streaming}, a {@link StreamingCheck} checks the history as it grows.
 */
record KeyValueDriver(Workload workload) implements WorkloadDriver {

    static KeyValueDriver generate(WorkloadSpec spec) {
        return new KeyValueDriver(WorkloadGenerator.generate(spec));
    }

    @Override
    public WorkloadSpec spec() {
        return workload.spec();
    }

    @Override
    public Workload statsView() {
        return workload;
    }

    @Override
    public String sizeLine() {
        return workload.size() + " transactions over " + spec().sessions() + " sessions";
    }

    @Override
    public String describe(Campaign campaign) {
        return String.format("%s, %s workload, %,d transactions, %d sessions",
                campaign.database().isolation().yamlName(), spec().type().yamlName(), workload.size(),
                spec().sessions());
    }

    @Override
    public void prepare(ClientFactory clients, RunningDatabase db) throws Exception {
        clients.createSchema(spec().type(), workload.maxKey());
    }

    @Override
    public Recording open(Execution x) throws Exception {
        HistoryRecorder recorder = new HistoryRecorder(x.dir().history(), DatabaseAdapter.INITIAL);
        StreamingCheck streamer = null;
        try {
            Campaign c = x.campaign();
            if (c.streaming()) {
                CheckOptions options = CheckOptions.DEFAULTS.withAnomaliesPerType(c.maxAnomalies())
                        .withSearchBudget(c.searchBudget());
                streamer = new StreamingCheck(c.levels(), options, InitialState.allKeys(DatabaseAdapter.INITIAL),
                        recorder::now, x.detected()::accept);
                recorder.onCompletion(streamer::accept);
                streamer.start();
            }
            return new Sessions(x, recorder, streamer);
        } catch (Exception | Error e) {
            try {
                if (streamer != null) streamer.close();
            } finally {
                recorder.close();
            }
            throw e;
        }
    }

    /** The workers, their recorder and the streaming check. */
    private final class Sessions implements Recording {
        private final Execution x;
        private final HistoryRecorder recorder;
        private final StreamingCheck streamer;
        private final List<SessionWorker> workers = new ArrayList<>();

        Sessions(Execution x, HistoryRecorder recorder, StreamingCheck streamer) {
            this.x = x;
            this.recorder = recorder;
            this.streamer = streamer;
        }

        @Override
        public List<Runnable> sessions(Schedule schedule) {
            TxnDispatch dispatch = TxnDispatch.of(workload);
            List<DbNode> nodes = x.nodes();
            Campaign c = x.campaign();
            // Read replicas take no sessions of their own: every session writes on the primary (ReadRouting).
            int writable = nodes.size() - c.database().replicas().count();
            for (int s = 0; s < spec().sessions(); s++) {
                int node = s % writable;
                workers.add(new SessionWorker(s, node, nodes.size() > 1 ? nodes.get(node).name() : null, workload,
                        dispatch, x.clients(), recorder, x.stats(), x.stop(), c.nemesis() != null, x.outcomes(),
                        schedule));
            }
            return List.copyOf(workers);
        }

        @Override
        public Throwable fatal(int s) {
            return workers.get(s).fatal;
        }

        @Override
        public long now() {
            return recorder.now();
        }

        @Override
        public void side(String process, String type, String f, Map<String, Object> value) {
            recorder.side(process, type, f, value);
        }

        @Override
        public String finalReads(java.time.Duration wait) throws InterruptedException {
            long process = 0;
            for (SessionWorker w : workers) process = Math.max(process, w.process());
            List<DbNode> nodes = x.nodes();
            return FinalReads.run(spec().type(), workload.maxKey(), x.clients(), spec().sessions(), recorder,
                    process + 1, nodes.size() > 1 ? nodes.get(0).name() : null, wait);
        }

        @Override
        public StreamingReport finish() throws IOException, InterruptedException {
            if (streamer == null) return null;
            recorder.flush(); // the last batch reaches the streaming check before its last look
            streamer.close();
            return streamer.report();
        }

        @Override
        public void close() throws IOException, InterruptedException {
            try {
                if (streamer != null) streamer.close();
            } finally {
                recorder.close();
            }
        }
    }
}
