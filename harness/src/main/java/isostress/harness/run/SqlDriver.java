package isostress.harness.run;

import isostress.generator.sql.SqlTxnPlan;
import isostress.generator.sql.SqlWorkload;
import isostress.generator.sql.SqlWorkloadGenerator;
import isostress.generator.workload.Workload;
import isostress.generator.workload.WorkloadSpec;
import isostress.harness.config.Campaign;
import isostress.harness.db.AcctDialect;
import isostress.harness.db.ClientFactory;
import isostress.harness.db.JdbcClientFactory;
import isostress.harness.db.RunningDatabase;
import isostress.harness.sql.SqlHistoryRecorder;
import isostress.harness.sql.SqlSession;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code sql} workload: account transfers with predicates, each transaction at its own isolation level. An
 * {@link SqlSession} per session over JDBC writes the {@code isostress-sql} history ({@code docs/sql-history.md})
 * through an {@link SqlHistoryRecorder}; the check takes each transaction at its own level, and at each of
 * {@code check.levels} ({@link RunCheck}).
 */
record SqlDriver(SqlWorkload workload, Workload statsView) implements WorkloadDriver {

    static SqlDriver generate(WorkloadSpec spec, Campaign campaign) {
        SqlWorkload w = SqlWorkloadGenerator.generate(spec, campaign.database().isolation().yamlName());
        return new SqlDriver(w, levelsAsShapes(w));
    }

    @Override
    public WorkloadSpec spec() {
        return workload.spec();
    }

    @Override
    public String sizeLine() {
        return workload.size() + " sql transactions over " + spec().sessions() + " sessions";
    }

    @Override
    public String describe(Campaign campaign) {
        return String.format("sql workload, %,d transactions, %d sessions, levels %s", workload.size(),
                spec().sessions(), spec().isolationMix().isEmpty() ? campaign.database().isolation().yamlName()
                        : spec().isolationMix());
    }

    @Override
    public void prepare(ClientFactory clients, RunningDatabase db) throws Exception {
        JdbcClientFactory jdbc = jdbc(clients);
        try (Connection c = jdbc.connection(0)) {
            jdbc.database().acct().createTable(c, workload.init());
        }
    }

    @Override
    public Recording open(Execution x) throws Exception {
        JdbcClientFactory clients = jdbc(x.clients());
        AcctDialect dialect = clients.database().acct();
        SqlHistoryRecorder history = new SqlHistoryRecorder(x.dir().history(), x.campaign().name(), workload.init());
        try {
            List<SqlSession> sessions = new ArrayList<>();
            int n = workload.sessions().size();
            int nodes = x.nodes().size();
            for (int s = 0; s < n; s++) {
                sessions.add(new SqlSession(s, s % nodes, n, workload.sessions().get(s), clients, dialect, history,
                        x.stop(), x.campaign().database().opPause(), x.stats()::record));
            }
            for (SqlSession s : sessions) s.connect();
            return new Sessions(sessions, history);
        } catch (Exception | Error e) {
            history.close();
            throw e;
        }
    }

    /** The loader lets an sql workload run only on an SQL database, whose clients are JDBC's. */
    private static JdbcClientFactory jdbc(ClientFactory clients) {
        if (clients instanceof JdbcClientFactory j) return j;
        throw new IllegalStateException("the sql workload needs an SQL database's JDBC clients, not "
                + clients.getClass().getSimpleName());
    }

    /** The sessions and their history. */
    private record Sessions(List<SqlSession> sessions, SqlHistoryRecorder history) implements Recording {
        @Override
        public List<Runnable> sessions(Schedule schedule) {
            return List.copyOf(sessions); // sql sessions run closed-loop: the loader refuses workload.rate for sql
        }

        @Override
        public Throwable fatal(int s) {
            return sessions.get(s).fatal;
        }

        @Override
        public long now() {
            return history.now();
        }

        /** The loader refuses a nemesis for sql, so nothing calls this; the history has no place for such events. */
        @Override
        public void side(String process, String type, String f, Map<String, Object> value) {
            throw new IllegalStateException("an isostress-sql history records transactions only, not " + f);
        }

        @Override
        public StreamingReport finish() {
            return null; // no streaming check for sql histories
        }

        @Override
        public void close() throws java.io.IOException {
            history.close();
        }
    }

    /** Statistics per level: each transaction's shape is its history level name. */
    private static Workload levelsAsShapes(SqlWorkload w) {
        int sessions = w.sessions().size();
        byte[] shape = new byte[w.size()];
        List<String> names = new ArrayList<>();
        for (List<SqlTxnPlan> s : w.sessions()) {
            for (SqlTxnPlan t : s) {
                String level = SqlSession.historyLevel(t.isolation());
                if (!names.contains(level)) names.add(level);
                shape[t.index() * sessions + t.session()] = (byte) names.indexOf(level);
            }
        }
        return Workload.ofShapes(w.spec(), names.toArray(new String[0]), shape);
    }
}
