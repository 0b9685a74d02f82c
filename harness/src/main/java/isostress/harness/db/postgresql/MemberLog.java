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
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * One member of a cluster whose primary moves (Patroni), watched once a second: while the member is a primary, its
 * commit log is read through a logical slot of its own, made when it is first found promoted on a timeline (before
 * PostgreSQL 16 a standby cannot decode, and PostgreSQL 15 has no failover slots); while it is a standby, or cannot
 * be reached, nothing is read. Each time as a primary on one timeline is a {@link Stint}: its lines carry the member
 * and the timeline, and the stint records from when to when every commit the member made there was read, and the
 * times between which it may have been a primary, so that the join knows which stretches no read covered.
 *
 * <p>Why not Patroni's permanent logical slots (a {@code slots:} entry the primary keeps): Patroni makes a replica's
 * copy by copying the slot's file from the primary and restarting the replica, then moves it with
 * {@code pg_replication_slot_advance} to what the primary confirmed (Patroni's own account of the feature; not tried
 * here). The harness would then restart members itself, and a promoted member's copy stands where the old primary's
 * reader had confirmed, not where the promoted member's WAL left the old timeline. A member's own slot, made when it
 * is found a primary, costs a gap between its promotion and the slot, which the stint records. A zombie primary (its Patroni killed, its PostgreSQL still acknowledging
 * commits while another member was promoted) keeps its slot and is read as long as it answers as a primary: its
 * commits are in the witness under its name and its old timeline.
 */
final class MemberLog {
    /** Rows per read, at least (a read stops at the first commit after this many). */
    private static final int BATCH = 20_000;
    static final long POLL_MS = 1000;
    /**
     * How often a zombie is read: a member still a primary on a timeline that another member has left by promotion.
     * What it acknowledges is on no surviving timeline, and it is demoted (Patroni stops it at once, with no
     * checkpoint) when its Patroni returns: read every second, its last second of commits, the very ones the final
     * reads find lost, went unread. Only while a zombie lasts, as each read decodes again from the slot's restart
     * point.
     */
    static final long ZOMBIE_POLL_MS = 100;

    /**
     * One time as a primary on one timeline. Times are {@link System#nanoTime()}.
     */
    static final class Stint {
        final long timeline;
        final List<long[]> branches;
        final long primaryFrom;
        final String slot;
        long readFrom = Long.MAX_VALUE, readTo = Long.MIN_VALUE, primaryTo = Long.MAX_VALUE;
        long lastPos;
        /** Reads to the end of the log, and the longest one (ns): what the gap after the last read depends on. */
        long reads, slowestRead;

        Stint(long timeline, List<long[]> branches, long primaryFrom, String slot, long lastPos) {
            this.timeline = timeline;
            this.branches = branches;
            this.primaryFrom = primaryFrom;
            this.slot = slot;
            this.lastPos = lastPos;
        }
    }

    private final String node, url;
    private final Properties login;
    private final WitnessLines out;
    private final List<Stint> stints = new ArrayList<>();
    private volatile Stint current;
    private Connection c;
    private long lastStandbyProbe = Long.MIN_VALUE;
    private final long created = System.nanoTime();
    private boolean slotsCleared;
    private volatile long written;
    private volatile boolean stopping;
    private volatile String problem;
    private volatile Thread poller;

    /** The highest timeline any member was last found a primary on, shared by the cluster's members. */
    private final java.util.concurrent.atomic.AtomicLong newestTimeline;

    MemberLog(String node, String url, Properties login, WitnessLines out,
              java.util.concurrent.atomic.AtomicLong newestTimeline) {
        this.node = node;
        this.url = url;
        this.login = login;
        this.out = out;
        this.newestTimeline = newestTimeline;
    }

    /** True while the member is a primary on a timeline older than another member's: a zombie. */
    private boolean zombie() {
        Stint s = current;
        return s != null && s.primaryTo == Long.MAX_VALUE && s.timeline < newestTimeline.get();
    }

    String node() {
        return node;
    }

    long transactions() {
        return written;
    }

    /** The stints so far, oldest first (read after {@link #stop()}). */
    List<Stint> stints() {
        return stints;
    }

    /** True when the last probe found the member a primary and read its log to the end. */
    boolean primaryReadToEnd() {
        return current != null && current.primaryTo == Long.MAX_VALUE && current.readTo != Long.MIN_VALUE;
    }

    /** Why the log could not be read (the first such sentence), or null. */
    String problem() {
        return problem;
    }

    void startPolling() {
        poller = new Thread(() -> {
            while (!stopping && problem == null) {
                problem = probe();
                try {
                    Thread.sleep(zombie() ? ZOMBIE_POLL_MS : POLL_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "isostress-witness-" + node);
        poller.setDaemon(true);
        poller.start();
    }

    void stop() throws InterruptedException {
        stopping = true;
        if (poller == null) return;
        poller.interrupt();
        poller.join();
    }

    /**
     * Asks the member whether it is a primary, and on which timeline; when it is, reads its log to the end. A
     * member that cannot be reached keeps its stint open: a paused or cut-off primary may still commit, so only a
     * probe that finds it a standby (or on another timeline) ends its time as a primary.
     *
     * @return why the log could not be read when the member is a primary (a decoding error), else null
     */
    String probe() {
        long t0 = System.nanoTime();
        try {
            if (c == null) c = DriverManager.getConnection(url, login);
            boolean standby;
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT pg_is_in_recovery()")) {
                rs.next();
                standby = rs.getBoolean(1);
            }
            if (standby) {
                if (current != null) current.primaryTo = System.nanoTime();
                current = null;
                lastStandbyProbe = t0;
                clearOldSlots();
                return null;
            }
            slotsCleared = false;
            long tl = timeline();
            newestTimeline.accumulateAndGet(tl, Math::max);
            if (current == null || current.timeline != tl || !slotExists(current.slot)) {
                long carried = Long.MIN_VALUE;
                if (current != null) {
                    current.primaryTo = System.nanoTime(); // it left that timeline, or lost its slot, meanwhile
                    if (current.timeline == tl) carried = current.lastPos;
                }
                // Since the last probe that found it a standby it may have been a primary; with none, since the
                // capture began (before the history's first transaction), or since ever for the first probes, made
                // before the first transaction. On the same timeline (its slot lost): since its last read.
                long from = lastStandbyProbe != Long.MIN_VALUE ? lastStandbyProbe
                        : poller != null ? created : Long.MIN_VALUE;
                if (current != null && current.timeline == tl) {
                    from = current.readTo != Long.MIN_VALUE ? current.readTo : current.primaryFrom;
                }
                String slot = "isostress_witness_" + node + "_tl" + tl + "_" + ProcessHandle.current().pid()
                        + (stints.isEmpty() ? "" : "_" + stints.size());
                current = new Stint(tl, branches(tl), from, slot, carried);
                stints.add(current);
                try (Statement s = c.createStatement()) {
                    String problem = LogicalDecodingCheck.problem(s, login.getProperty("user"));
                    if (problem != null) return problem;
                    s.execute("SELECT pg_create_logical_replication_slot('" + slot + "', 'test_decoding', false)");
                }
                current.readFrom = System.nanoTime(); // every commit after the slot is consistent is decoded
            }
            readToEnd(current);
            return null;
        } catch (SQLException e) {
            close();
            return null; // down, paused, restarting: the next probe asks again
        } catch (IOException | RuntimeException e) {
            close();
            return "check.witness: " + node + "'s commit log: " + e.getMessage();
        }
    }

    /** The timeline the member writes WAL on now (a primary): the first 8 hex digits of its current WAL file. */
    private long timeline() throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8)")) {
            rs.next();
            return Long.parseLong(rs.getString(1), 16);
        }
    }

    /**
     * Timeline {@code tl}'s history, from its history file ({@code pg_wal/0000000N.history}: a line per ancestor,
     * its number and the LSN where the next timeline left it), as [parent, position] pairs, oldest first.
     */
    private List<long[]> branches(long tl) throws SQLException {
        List<long[]> out = new ArrayList<>();
        if (tl <= 1) return out;
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_read_file('pg_wal/" + String.format("%08X", tl) + ".history')")) {
            rs.next();
            for (String l : rs.getString(1).split("\n")) {
                String[] f = l.trim().split("\\s+");
                if (f.length < 2 || f[0].startsWith("#") || !f[1].contains("/")) continue;
                out.add(new long[]{Long.parseLong(f[0]), TestDecodingRows.lsn(f[1])});
            }
        }
        return out;
    }

    private boolean slotExists(String slot) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT 1 FROM pg_replication_slots WHERE slot_name = ?")) {
            p.setString(1, slot);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Reads the stint's slot to the end of the log: each batch's lines are in the file before the slot moves past
     * them. Lines read again (a slot's position reaches disk at checkpoints, so a crash takes it back) are dropped
     * by their position.
     */
    private void readToEnd(Stint st) throws SQLException, IOException {
        long began = System.nanoTime();
        while (true) {
            long started = System.nanoTime();
            SlotPeek peek = SlotPeek.read(c, st.slot, BATCH, st.lastPos, (pos, txid, writes) ->
                    WitnessWrite.line(pos, node, st.timeline, txid, writes));
            st.lastPos = peek.lastPos();
            if (peek.commitLsn() != null) {
                out.write(peek.lines());
                written += peek.lines().size();
                peek.advance(c, st.slot);
            }
            if (peek.rows() < BATCH) {
                // Every commit flushed before this read began is in the file: an acknowledged one among them.
                st.readTo = started;
                st.reads++;
                st.slowestRead = Math.max(st.slowestRead, System.nanoTime() - began);
                return;
            }
        }
    }

    /**
     * Drops this harness's slots on a member found a standby: they were made while it was a primary, on a timeline
     * it has left, and would hold its WAL. Once per time it is found a standby; a failure is left for the end.
     */
    private void clearOldSlots() {
        if (slotsCleared) return;
        slotsCleared = true;
        dropOwnSlots();
    }

    /** Drops every slot this harness made on the member (those not in use); best effort. */
    void dropOwnSlots() {
        try {
            if (c == null) c = DriverManager.getConnection(url, login);
            try (PreparedStatement p = c.prepareStatement("SELECT pg_drop_replication_slot(slot_name) FROM "
                    + "pg_replication_slots WHERE slot_name LIKE ? AND NOT active")) {
                p.setString(1, "isostress\\_witness\\_" + node + "\\_tl%\\_" + ProcessHandle.current().pid() + "%");
                p.execute();
            }
        } catch (SQLException e) {
            close(); // gone: its slots go with its data directory at the end of the run
        }
    }

    void close() {
        if (c == null) return;
        try {
            c.close();
        } catch (SQLException e) {
            // the server is gone
        }
        c = null;
    }
}
