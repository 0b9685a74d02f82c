package isostress.harness.db.postgresql;

import isostress.harness.db.WitnessLines;
import isostress.harness.db.WitnessWrite;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * PostgreSQL's commit log, read through logical decoding into {@code witness.jsonl}: a logical replication slot with
 * the {@code test_decoding} plugin, created once the schema exists (so its initial rows are not in the log), read
 * over an ordinary connection with {@code pg_logical_slot_peek_changes} every two seconds, and moved past what was
 * written with {@code pg_replication_slot_advance} only once the lines are in the file.
 *
 * <p>Why this rather than pgjdbc's streaming replication API ({@code PGReplicationStream} with {@code pgoutput}): a
 * run kills and restarts the server (the {@code kill} nemesis), and a plain SQL poll survives that with nothing more
 * than reconnecting and reading again from the slot, while a replication stream needs a replication connection
 * ({@code pg_hba.conf} entry, {@code replication=database}), its own feedback and restart bookkeeping, and
 * {@code pgoutput}'s binary protocol decoded by hand (relation messages, tuple data). Peeking and then advancing
 * means a connection lost in the middle of a read loses nothing: the slot moves only past lines already written,
 * and lines read twice after a crash (a slot's position is made durable at checkpoints) are dropped by their
 * position. The cost: each read decodes the WAL from the slot's restart point twice (the peek, then the advance),
 * on the run's own cores, where a stream would decode each record once; reading every two seconds cost about 9% of
 * a mini run's commits/s on 2 cores (every half second, about 16%: docs/witness.md has the figures). And
 * {@code test_decoding}'s text holds a list's whole value at each append. {@code test_decoding} ships with the
 * server (contrib), in zonky's binaries and Debian's packages alike.
 */
final class LogicalDecodingCapture {
    /**
     * Rows per read, at least: a read stops at the first commit once it has this many rows (a transaction's rows
     * come together), so it may return a few more, and fewer only when it reached the end of the log.
     */
    private static final int BATCH = 20_000;
    private static final long POLL_MS = 2000;
    /** How long the last read may wait for a killed server to be back. */
    private static final long DRAIN_MS = 60_000;

    private final String url;
    private final Properties login;
    private final String slot;
    private final boolean temporary;
    private final String node;
    private final WitnessLines out;
    private final Thread poller;
    private volatile boolean stopping;
    private Connection c;
    private long lastPos = Long.MIN_VALUE;
    private volatile long written;
    private volatile boolean lost;
    private boolean logSnapshots;

    private LogicalDecodingCapture(String url, Properties login, String slot, boolean temporary, String node,
                                   Connection c, WitnessLines out) {
        this.url = url;
        this.login = login;
        this.slot = slot;
        this.temporary = temporary;
        this.node = node;
        this.c = c;
        this.out = out;
        this.poller = new Thread(this::pollUntilStopped, "isostress-witness-" + node);
        this.poller.setDaemon(true);
    }

    /**
     * Checks the server can decode, creates the slot and starts reading {@code node}'s log. On a server the harness
     * did not start (an external one) the slot is temporary, so a harness that is killed leaves no slot holding the
     * server's WAL; it lives as long as the capture's connection, and a lost connection then ends the capture (the
     * witness is not joined). A server the harness started is thrown away after the run, and its slot survives the
     * kills the nemesis deals it.
     *
     * @param primary null for the primary; for a standby, a connection to its primary: a slot on a standby is made
     *                only once the primary's WAL brings a "running transactions" record, which the primary is asked
     *                to log while the standby waits
     */
    static LogicalDecodingCapture start(String url, Properties login, String node, String description,
                                        boolean temporary, WitnessLines out, Connection primary) throws IOException {
        String slot = "isostress_witness_" + node + "_" + ProcessHandle.current().pid() + "_"
                + System.currentTimeMillis() % 100_000;
        boolean logSnapshots;
        Connection c = null;
        try {
            c = DriverManager.getConnection(url, login);
            try (Statement s = c.createStatement()) {
                String problem = LogicalDecodingCheck.problem(s, login.getProperty("user"));
                if (problem != null) throw new IOException(problem);
                logSnapshots = primary == null && LogicalDecodingCheck.canLogSnapshots(s);
                String create = "SELECT pg_create_logical_replication_slot('" + slot + "', 'test_decoding', "
                        + temporary + ")";
                if (primary == null) {
                    s.execute(create);
                } else {
                    StandbySlot.create(s, create, primary);
                }
            }
        } catch (SQLException | IOException e) {
            close(c);
            if (e instanceof IOException) throw (IOException) e;
            throw new IOException("check.witness: cannot create a logical replication slot on " + description
                    + ": " + e.getMessage(), e);
        }
        LogicalDecodingCapture capture = new LogicalDecodingCapture(url, login, slot, temporary, node, c, out);
        capture.logSnapshots = logSnapshots;
        capture.poller.start();
        return capture;
    }

    private static void close(Connection c) {
        if (c == null) return;
        try {
            c.close();
        } catch (SQLException e) {
            // the server is gone; nothing to close there
        }
    }

    /** Log transactions written to the file so far. */
    long transactions() {
        return written;
    }

    private void pollUntilStopped() {
        while (!stopping) {
            try {
                while (!stopping && readBatch() >= BATCH) {
                    // more to read at once
                }
            } catch (SQLException e) {
                disconnect(); // the server was killed or restarted: read again from the slot once it is back
                if (lost) return;
            } catch (IOException | RuntimeException e) {
                return; // the last read, in close, meets it again and says what it is
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Reads about {@link #BATCH} rows, writes their committed transactions, advances the slot; the rows read. */
    private int readBatch() throws SQLException, IOException {
        if (c == null) c = DriverManager.getConnection(url, login);
        SlotPeek peek = SlotPeek.read(c, slot, BATCH, lastPos, (pos, txid, writes) -> WitnessWrite.line(pos, node,
                txid, writes));
        lastPos = peek.lastPos();
        if (peek.commitLsn() != null) {
            out.write(peek.lines());
            written += peek.lines().size();
            peek.advance(c, slot);
            logSnapshot();
        }
        return peek.rows();
    }

    /**
     * Each read decodes the WAL from the slot's restart point, which moves only past a "running transactions"
     * record that an earlier read decoded; the server logs one every 15 s, so a run would decode up to 15 s of WAL
     * again at every read. PostgreSQL 16's {@code pg_log_standby_snapshot()} logs one now, so the next read starts
     * about here. Without it (an older server, a user not allowed to call it: {@link #start} asks first, as an error
     * in the session would drop a temporary slot) reads cost more, nothing else.
     */
    private void logSnapshot() throws SQLException {
        if (!logSnapshots) return;
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_log_standby_snapshot()");
        }
    }

    private void disconnect() {
        close(c);
        c = null;
        if (temporary) lost = true; // the temporary slot went with the connection
    }

    /**
     * Reads the rest of the log, waiting for a killed server to be back (within a bound), and drops the slot. The
     * file is the caller's to close.
     */
    void close() throws IOException, InterruptedException {
        stopping = true;
        poller.interrupt();
        poller.join();
        long deadline = System.currentTimeMillis() + DRAIN_MS;
        try {
            if (lost) {
                throw new IOException("check.witness: the connection holding the temporary replication slot " + slot
                        + " was lost during the run, and the slot with it; " + written + " transactions were written");
            }
            while (true) {
                try {
                    while (readBatch() >= BATCH) {
                        // the rest, to the end of the log
                    }
                    break;
                } catch (SQLException e) {
                    disconnect();
                    if (lost || System.currentTimeMillis() > deadline) {
                        throw new IOException("check.witness: the commit log could not be read to its end ("
                                + e.getMessage() + "); " + written + " transactions were written", e);
                    }
                    Thread.sleep(POLL_MS);
                } catch (RuntimeException e) {
                    throw new IOException("check.witness: " + e.getMessage(), e);
                }
            }
            try (PreparedStatement p = c.prepareStatement("SELECT pg_drop_replication_slot(?)")) {
                p.setString(1, slot);
                p.execute();
            } catch (SQLException e) {
                throw new IOException("check.witness: the replication slot " + slot + " could not be dropped ("
                        + e.getMessage() + "); drop it with SELECT pg_drop_replication_slot('" + slot + "')", e);
            }
        } finally {
            disconnect();
        }
    }

    /** The log position the server has replayed (a standby) or written (a primary) up to, as a number. */
    long replayedOrWritten(boolean standby) throws SQLException {
        try (Connection r = DriverManager.getConnection(url, login); Statement s = r.createStatement();
             ResultSet rs = s.executeQuery(standby ? "SELECT pg_last_wal_replay_lsn()::text"
                     : "SELECT pg_current_wal_lsn()::text")) {
            rs.next();
            String lsn = rs.getString(1);
            return lsn == null ? Long.MIN_VALUE : TestDecodingRows.lsn(lsn);
        }
    }
}
