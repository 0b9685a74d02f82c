package isostress.harness.db.postgresql;

import isostress.harness.db.CommitLogCapture;
import isostress.harness.db.DbNode;
import isostress.harness.db.RunningDatabase;
import isostress.harness.db.WitnessLines;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.function.LongSupplier;

/**
 * The commit log of a cluster whose primary moves (Patroni), followed across failovers: every member is watched
 * ({@link MemberLog}), and whichever is a primary, the promoted one and a zombie that still acknowledges commits
 * alike, has its log read under its own name and timeline. At the end each member's times as a primary go into the
 * file as {@code log} lines (docs/witness.md), in the history's time: when each may have been a primary, and from
 * when to when its commits were read. The join takes no verdict from the log on a transaction that ran while some
 * member may have committed unread (between a promotion and the slot made on the new primary, after the last read of
 * a primary that then crashed or was demoted).
 */
final class FollowingCommitLogs implements CommitLogCapture {
    /** How long the last read waits for a member to be a primary again, after the sessions ended. */
    private static final long DRAIN_MS = 60_000;

    private final WitnessLines out;
    private final List<MemberLog> members;
    private volatile long origin = Long.MIN_VALUE;

    private FollowingCommitLogs(WitnessLines out, List<MemberLog> members) {
        this.out = out;
        this.members = members;
    }

    static FollowingCommitLogs start(RunningDatabase db, Path witness) throws IOException {
        Properties login = new Properties();
        if (db.user() != null) login.setProperty("user", db.user());
        if (db.password() != null) login.setProperty("password", db.password());
        login.setProperty("connectTimeout", "3");
        login.setProperty("socketTimeout", "30"); // a paused member blocks a probe at most this long
        WitnessLines out = new WitnessLines(witness);
        List<MemberLog> members = new ArrayList<>();
        java.util.concurrent.atomic.AtomicLong newest = new java.util.concurrent.atomic.AtomicLong();
        for (DbNode n : db.nodes()) {
            // The member's own client address, not the cluster's URL: each member is asked about itself.
            members.add(new MemberLog(n.name(), "jdbc:postgresql://" + n.host() + ":" + n.clientPort() + "/postgres",
                    login, out, newest));
        }
        FollowingCommitLogs logs = new FollowingCommitLogs(out, members);
        try {
            // Before the first transaction: the primary's slot exists, the standbys are known to be standbys.
            boolean primary = false;
            for (MemberLog m : members) {
                String problem = m.probe();
                if (problem != null) throw new IOException(problem);
                primary |= m.primaryReadToEnd();
            }
            if (!primary) {
                throw new IOException("check.witness: no member of " + db.description() + " answered as a primary");
            }
        } catch (IOException | RuntimeException e) {
            for (MemberLog m : members) {
                m.dropOwnSlots();
                m.close();
            }
            out.close();
            throw e;
        }
        for (MemberLog m : members) m.startPolling();
        return logs;
    }

    @Override
    public void historyClock(LongSupplier now) {
        origin = System.nanoTime() - now.getAsLong();
    }

    @Override
    public isostress.checker.witness.Witness witness() {
        return out.witness();
    }

    @Override
    public long transactions() {
        return members.stream().mapToLong(MemberLog::transactions).sum();
    }

    /**
     * Stops the watchers, then reads every member once more until one is a primary read to its end (the sessions
     * have ended, so that end is the run's), writes the {@code log} lines and drops the slots.
     */
    @Override
    public void close() throws IOException, InterruptedException {
        try {
            for (MemberLog m : members) m.stop();
            for (MemberLog m : members) {
                if (m.problem() != null) throw new IOException(m.problem());
            }
            long deadline = System.currentTimeMillis() + DRAIN_MS;
            while (true) {
                boolean primary = false;
                for (MemberLog m : members) {
                    String problem = m.probe();
                    if (problem != null) throw new IOException(problem);
                    primary |= m.primaryReadToEnd();
                }
                if (primary) break;
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("check.witness: no member was a primary within " + DRAIN_MS / 1000
                            + " s after the sessions ended, so the commit log could not be read to its end");
                }
                Thread.sleep(MemberLog.POLL_MS);
            }
            if (origin == Long.MIN_VALUE) {
                throw new IOException("check.witness: the capture was not given the history's clock");
            }
            long end = System.nanoTime();
            // The primary at the end is the one on the newest timeline: a switchover under way while the members
            // were probed one by one may leave the old primary answering as one too.
            long newest = members.stream().filter(MemberLog::primaryReadToEnd).mapToLong(m -> lastOf(m).timeline)
                    .max().orElse(-1);
            List<String> lines = new ArrayList<>();
            for (MemberLog m : members) {
                for (MemberLog.Stint s : m.stints()) {
                    // Any other is no longer a primary for the history (its sessions ended): its time ends now.
                    boolean last = s.primaryTo == Long.MAX_VALUE && m.primaryReadToEnd() && s == lastOf(m)
                            && s.timeline == newest;
                    lines.add(line(m.node(), s, last ? Long.MAX_VALUE : Math.min(s.primaryTo, end)));
                }
            }
            out.write(lines);
        } finally {
            for (MemberLog m : members) {
                m.dropOwnSlots();
                m.close();
            }
            out.close();
        }
    }

    private static MemberLog.Stint lastOf(MemberLog m) {
        return m.stints().get(m.stints().size() - 1);
    }

    /** {@code {"log": {"node": "n2", "timeline": 2, "branches": [[1, 50331744]], "primary_from_ns": ..., ...}}}. */
    private String line(String node, MemberLog.Stint s, long primaryTo) {
        StringJoiner branches = new StringJoiner(",", "[", "]");
        for (long[] b : s.branches) branches.add("[" + b[0] + "," + b[1] + "]");
        boolean read = s.readFrom != Long.MAX_VALUE && s.readTo != Long.MIN_VALUE;
        return "{\"log\":{\"node\":\"" + node + "\",\"timeline\":" + s.timeline + ",\"branches\":" + branches
                + ",\"primary_from_ns\":" + time(s.primaryFrom, Long.MIN_VALUE)
                + ",\"read_from_ns\":" + (read ? Long.toString(s.readFrom - origin) : "null")
                + ",\"read_to_ns\":" + (read ? Long.toString(s.readTo - origin) : "null")
                + ",\"primary_to_ns\":" + time(primaryTo, Long.MAX_VALUE)
                + ",\"reads\":" + s.reads + ",\"slowest_read_ms\":" + s.slowestRead / 1_000_000 + "}}";
    }

    /** A {@link System#nanoTime()} in the history's time, or null for {@code open}. */
    private String time(long nanoTime, long open) {
        return nanoTime == open ? "null" : Long.toString(nanoTime - origin);
    }
}
