package isostress.checker.witness;

import java.util.List;

/**
 * What a capture that follows a moving primary (a Patroni cluster's) says about one member's log on one timeline:
 * when the member may have been a primary there, and from when to when its commits were read. A {@code log} line of
 * the witness file (docs/witness.md). Between the two lies what the capture did not see: commits the member made
 * before its log was first read there (a slot is made only once it is found promoted), or after it was last read
 * (it crashed, or was demoted, before the next read). The join does not call an acknowledged commit lost when its
 * transaction ran during such a gap: the log that would hold it was not read.
 *
 * <p>Times are the history's clock, in nanoseconds; {@link Long#MIN_VALUE} is "before the capture began" and
 * {@link Long#MAX_VALUE} "still so when the capture ended".
 *
 * @param node        the member
 * @param timeline    PostgreSQL's timeline the member wrote on
 * @param branches    the timeline's history: each ancestor timeline and the position where its successor left it,
 *                    oldest first (empty for timeline 1)
 * @param primaryFrom the earliest time the member may have been a primary on this timeline
 * @param readFrom    every commit it made on this timeline from this time on is in the file; {@link Long#MAX_VALUE}
 *                    when its log was never read
 * @param readTo      every commit it made on this timeline before this time is in the file
 * @param primaryTo   the latest time it may still have been a primary on this timeline
 * @param line        the line of the witness file, 0 when built in memory
 */
public record CaptureLog(String node, long timeline, List<Branch> branches, long primaryFrom, long readFrom,
                         long readTo, long primaryTo, int line) {
    public CaptureLog {
        branches = List.copyOf(branches);
    }

    /** Timeline {@code parent} ended at {@code pos} (a commit after it there is not on the child timeline). */
    public record Branch(long parent, long pos) {
    }

    /** A stretch of time, ends included, in which the member may have committed what the file lacks. */
    public record Gap(String node, long timeline, long from, long to) {
        public boolean overlaps(long a, long b) {
            return a <= to && b >= from;
        }
    }

    /**
     * The stretches of this member's time as a primary not covered by the reads: none, one or two. A member that was
     * the primary before the capture began (it began before the history's first transaction) has none before its
     * first read, and the one still primary at the end (read to its end after the sessions stopped) none after its
     * last.
     */
    public List<Gap> gaps() {
        if (readFrom == Long.MAX_VALUE) return List.of(new Gap(node, timeline, primaryFrom, primaryTo));
        java.util.ArrayList<Gap> out = new java.util.ArrayList<>(2);
        // A primary since before the capture began: the capture began before the history's first transaction.
        if (primaryFrom != Long.MIN_VALUE && primaryFrom < readFrom) {
            out.add(new Gap(node, timeline, primaryFrom, readFrom));
        }
        // Still the primary at the end: read to its end after the sessions stopped, so no gap follows the last read.
        if (primaryTo != Long.MAX_VALUE && primaryTo > readTo) out.add(new Gap(node, timeline, readTo, primaryTo));
        return out;
    }

    /** Where the timeline {@code descendant} (of this log's branches) left timeline {@code tl}, or -1. */
    public long switchPoint(long tl) {
        for (Branch b : branches) if (b.parent() == tl) return b.pos();
        return -1;
    }
}
