package isostress.harness.db.mariadb;

import isostress.harness.db.CommitLogCapture;
import isostress.harness.db.DbNode;
import isostress.harness.db.RunningDatabase;
import isostress.harness.db.WitnessLines;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * MariaDB's binary log copied into {@code witness.jsonl}: one {@link BinlogReader} per node (a single server is one
 * node; a Galera cluster's nodes each log every writeset with {@code log_slave_updates}), all writing into the one
 * file, each node's lines in its own commit order. Each reader starts at the node's current end of the log
 * ({@code SHOW MASTER STATUS}) once the workload's schema and initial rows exist, so those are left out by rule;
 * only inserted and updated rows of the workload's tables are kept ({@link BinlogRows}).
 *
 * <p>The server settings it needs ({@link #SETTINGS}) are given to a server the harness starts; an external server
 * must have them, and the campaign's user must be allowed to read the log as a replica does: a missing setting or
 * privilege stops the run before its workload with a sentence saying which.
 */
final class BinlogCapture implements CommitLogCapture {
    /**
     * The binary log, row-based with whole row images (a list's update holds the old value, which names the element
     * appended), and on a Galera node the writesets of the others logged too.
     */
    static final Map<String, String> SETTINGS = Map.of("log_bin", "mariadb-bin", "binlog_format", "ROW",
            "binlog_row_image", "FULL", "log_slave_updates", "ON");
    /** How long close waits for the readers to reach the end of the log, a killed server's restart included. */
    private static final long DRAIN_MS = 60_000;

    private final RunningDatabase db;
    private final WitnessLines out;
    private final List<BinlogReader> readers = new ArrayList<>();

    private BinlogCapture(RunningDatabase db, WitnessLines out) {
        this.db = db;
        this.out = out;
    }

    static BinlogCapture start(RunningDatabase db, Path witness) throws IOException, InterruptedException {
        Properties login = login(db);
        // The reader's replica id: unique among the server's replicas, and apart from the nodes' own ids (1..n).
        long serverId = 100_000 + ProcessHandle.current().pid() % 100_000 * 10;
        BinlogCapture capture = new BinlogCapture(db, new WitnessLines(witness));
        try {
            List<String[]> starts = new ArrayList<>();
            for (DbNode n : db.nodes()) starts.add(masterStatus(n, login, true));
            boolean galera = db.nodes().size() > 1;
            for (int i = 0; i < db.nodes().size(); i++) {
                DbNode n = db.nodes().get(i);
                BinlogReader r = new BinlogReader(n.name(), n.host(), n.clientPort(), db.user(), db.password(),
                        serverId + i, starts.get(i)[0], Long.parseLong(starts.get(i)[1]), capture::write,
                        galera ? () -> masterStatus(n, login, false) : null);
                capture.readers.add(r);
                r.start();
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            capture.stopReaders();
            capture.out.close();
            throw e;
        }
        return capture;
    }

    private static Properties login(RunningDatabase db) {
        Properties p = new Properties();
        if (db.user() != null) p.setProperty("user", db.user());
        if (db.password() != null) p.setProperty("password", db.password());
        p.setProperty("connectTimeout", "10000");
        p.setProperty("socketTimeout", "30000");
        return p;
    }

    /**
     * The node's end of the log, {file, offset}. At the start, a Galera node first applies every writeset the
     * cluster has certified ({@code wsrep_sync_wait}), so the schema's and initial rows' writesets are behind it.
     *
     * @throws IOException the log is off, or the user may not see it (the sentence says what to change)
     */
    private static String[] masterStatus(DbNode n, Properties login, boolean atStart) throws IOException {
        String user = login.getProperty("user", "the campaign's user");
        try (Connection c = DriverManager.getConnection(n.url(), login); Statement s = c.createStatement()) {
            if (atStart && galera(s)) s.execute("SET SESSION wsrep_sync_wait = 15");
            try (ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
                if (!rs.next()) {
                    throw new IOException("check.witness needs the binary log (log_bin, binlog_format = ROW, "
                            + "binlog_row_image = FULL) and " + n.name() + " (" + n.host() + ":" + n.clientPort()
                            + ") has none: start the server with --log-bin --binlog-format=ROW "
                            + "--binlog-row-image=FULL (and --log-slave-updates on a Galera node), or set "
                            + "check.witness: false");
                }
                String[] at = {rs.getString(1), rs.getString(2)};
                if (atStart) settingsProblem(s, n);
                return at;
            }
        } catch (SQLException e) {
            if (e.getErrorCode() == 1227) { // ER_SPECIFIC_ACCESS_DENIED_ERROR
                throw new IOException(privilege(user, e.getMessage()), e);
            }
            throw new IOException("check.witness: cannot read the binary log position of " + n.name() + " ("
                    + n.host() + ":" + n.clientPort() + "): " + e.getMessage(), e);
        }
    }

    /** The sentence for a user who may not read the log: what to grant. */
    static String privilege(String user, String why) {
        return "check.witness needs a user who may read the binary log as a replica does, and " + user + " may not ("
                + why + "): GRANT REPLICATION SLAVE, BINLOG MONITOR ON *.* TO " + user + " (REPLICATION CLIENT "
                + "for BINLOG MONITOR before MariaDB 10.5), or set check.witness: false";
    }

    private static boolean galera(Statement s) {
        try (ResultSet rs = s.executeQuery("SELECT @@GLOBAL.wsrep_on")) {
            return rs.next() && rs.getBoolean(1);
        } catch (SQLException e) {
            return false; // a server without Galera's variables
        }
    }

    /** The log must hold whole rows: a statement, or a row image without the old list, names no element. */
    private static void settingsProblem(Statement s, DbNode n) throws SQLException, IOException {
        try (ResultSet rs = s.executeQuery("SELECT @@GLOBAL.binlog_format, @@GLOBAL.binlog_row_image")) {
            rs.next();
            String format = rs.getString(1), image = rs.getString(2);
            if (!"ROW".equalsIgnoreCase(format) || !"FULL".equalsIgnoreCase(image)) {
                throw new IOException("check.witness needs binlog_format = ROW and binlog_row_image = FULL, and "
                        + n.name() + " has binlog_format = " + format + ", binlog_row_image = " + image
                        + ": set them (SET GLOBAL, or the server's options), or set check.witness: false");
            }
        }
    }

    /** One transaction's line, written as it is read: the dump has no batches, and a reader resumes on its own. */
    private void write(String line) {
        try {
            out.write(List.of(line));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // the reader keeps it as its problem
        }
    }

    @Override
    public isostress.checker.witness.Witness witness() {
        return out.witness();
    }

    @Override
    public long transactions() {
        long n = 0;
        for (BinlogReader r : readers) n += r.written();
        return n;
    }

    /**
     * Takes each node's end of the log now (waiting for a killed node to be back) and waits until its reader got
     * there, then stops the readers.
     */
    @Override
    public void close() throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + DRAIN_MS;
        try {
            for (int i = 0; i < readers.size(); i++) {
                BinlogReader r = readers.get(i);
                DbNode n = db.nodes().get(i);
                String[] end = endOfLog(n, deadline);
                long target = BinlogRows.pos(BinlogRows.fileIndex(end[0]), Long.parseLong(end[1]));
                while (r.readPos() < target && r.problem() == null) {
                    if (System.currentTimeMillis() > deadline) {
                        throw new IOException("check.witness: the binary log of " + n.name() + " was not read to its "
                                + "end (" + end[0] + ":" + end[1] + ") within " + DRAIN_MS / 1000 + " s"
                                + (r.lastFailure() == null ? "" : " (last: " + r.lastFailure() + ")") + "; "
                                + transactions() + " transactions were written");
                    }
                    Thread.sleep(50);
                }
                if (r.problem() != null) throw new IOException(r.problem());
            }
        } finally {
            stopReaders();
            out.close();
        }
    }

    private String[] endOfLog(DbNode n, long deadline) throws IOException, InterruptedException {
        Properties login = login(db);
        while (true) {
            try {
                return masterStatus(n, login, false);
            } catch (IOException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("check.witness: the end of " + n.name() + "'s binary log could not be "
                            + "read (" + e.getMessage() + "); " + transactions() + " transactions were written", e);
                }
                Thread.sleep(500);
            }
        }
    }

    private void stopReaders() throws InterruptedException {
        for (BinlogReader r : readers) r.stop();
    }
}
