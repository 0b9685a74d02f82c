package isostress.harness.db.postgresql;

import isostress.harness.db.CommitLogCapture;
import isostress.harness.db.DbNode;
import isostress.harness.db.RunningDatabase;
import isostress.harness.db.WitnessLines;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The commit logs of a PostgreSQL run, each read through logical decoding ({@link LogicalDecodingCapture}) into the
 * one {@code witness.jsonl}: the primary's (node {@code n1}) and, from PostgreSQL 16 on, which decodes on a hot
 * standby, each standby's ({@code n2}, ...), read from the WAL the standby replayed.
 *
 * <p>Why read the standbys at all, when physical replication replays the primary's WAL byte for byte, in LSN order,
 * so that a standby's commit order is the primary's by construction: a hot standby makes a transaction visible when
 * it replays its commit record, so its visibility order is that WAL order, while on the primary a transaction
 * becomes visible when its backend leaves the proc array, after its commit record is flushed, an order that two
 * concurrent commits can take either way. A counterexample in which a standby's reader and the primary's disagree
 * (a long fork) is then shown with each node's own log. The standbys' lines carry the primary's LSNs and xids,
 * which is the construction made visible; before PostgreSQL 16 only the primary's log is read.
 */
final class PostgresCommitLogs implements CommitLogCapture {
    /** How long the last read waits for a standby to replay the primary's WAL to its end. */
    private static final long CATCH_UP_MS = 60_000;

    private final WitnessLines out;
    private final LogicalDecodingCapture primary;
    private final List<LogicalDecodingCapture> standbys;
    private final List<String> standbyNames;

    private PostgresCommitLogs(WitnessLines out, LogicalDecodingCapture primary, List<LogicalDecodingCapture> standbys,
                               List<String> standbyNames) {
        this.out = out;
        this.primary = primary;
        this.standbys = standbys;
        this.standbyNames = standbyNames;
    }

    static PostgresCommitLogs start(RunningDatabase db, Path witness) throws IOException {
        Properties login = new Properties();
        if (db.user() != null) login.setProperty("user", db.user());
        if (db.password() != null) login.setProperty("password", db.password());
        login.setProperty("connectTimeout", "10");
        login.setProperty("socketTimeout", "30"); // a cut link (a partition) blocks a read at most this long
        DbNode first = db.nodes().get(0);
        boolean temporary = !first.controllable();
        WitnessLines out = new WitnessLines(witness);
        LogicalDecodingCapture primary = null;
        List<LogicalDecodingCapture> standbys = new ArrayList<>();
        List<String> names = new ArrayList<>();
        try {
            primary = LogicalDecodingCapture.start(db.jdbcUrl(), login, first.name(), db.description(), temporary,
                    out, null);
            if (db.nodes().size() > 1) {
                try (Connection p = DriverManager.getConnection(db.jdbcUrl(), login)) {
                    if (major(p) >= 16) {
                        for (DbNode n : db.nodes().subList(1, db.nodes().size())) {
                            standbys.add(LogicalDecodingCapture.start(n.url(), login, n.name(), "standby " + n.name(),
                                    false, out, p));
                            names.add(n.name());
                        }
                    }
                }
            }
            return new PostgresCommitLogs(out, primary, standbys, names);
        } catch (IOException | SQLException | RuntimeException e) {
            List<LogicalDecodingCapture> started = new ArrayList<>(standbys);
            if (primary != null) started.add(0, primary);
            for (LogicalDecodingCapture c : started) {
                try {
                    c.close();
                } catch (IOException | InterruptedException ignored) {
                    // the first failure is the one to report
                }
            }
            out.close();
            if (e instanceof IOException io) throw io;
            throw new IOException("check.witness: " + e.getMessage(), e);
        }
    }

    private static int major(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT current_setting('server_version_num')::int / 10000")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Override
    public isostress.checker.witness.Witness witness() {
        return out.witness();
    }

    @Override
    public long transactions() {
        return primary.transactions() + standbys.stream().mapToLong(LogicalDecodingCapture::transactions).sum();
    }

    /**
     * Reads the primary's log to its end, then each standby's once it has replayed the primary's WAL that far: a
     * standby decodes only what it replayed, and the sessions have ended, so that end is the run's.
     */
    @Override
    public void close() throws IOException, InterruptedException {
        try {
            primary.close();
            if (standbys.isEmpty()) return;
            long end;
            try {
                end = primary.replayedOrWritten(false);
            } catch (SQLException e) {
                throw new IOException("check.witness: the primary's WAL position could not be read: "
                        + e.getMessage(), e);
            }
            IOException failed = null;
            for (int i = 0; i < standbys.size(); i++) {
                try {
                    waitForReplay(standbys.get(i), standbyNames.get(i), end);
                    standbys.get(i).close();
                } catch (IOException e) {
                    if (failed == null) failed = e;
                }
            }
            if (failed != null) throw failed;
        } finally {
            out.close();
        }
    }

    private static void waitForReplay(LogicalDecodingCapture standby, String name, long end) throws IOException,
            InterruptedException {
        long deadline = System.currentTimeMillis() + CATCH_UP_MS;
        String last = "no answer";
        while (System.currentTimeMillis() < deadline) {
            try {
                if (standby.replayedOrWritten(true) >= end) return;
                last = "behind";
            } catch (SQLException e) {
                last = e.getMessage();
            }
            Thread.sleep(200);
        }
        throw new IOException("check.witness: standby " + name + " did not replay the primary's WAL to its end within "
                + CATCH_UP_MS / 1000 + " s (" + last + "), so its log could not be read to the end");
    }
}
