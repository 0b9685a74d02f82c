package isostress.checker.witness;

import isostress.checker.history.History;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.MicroOp;
import isostress.checker.model.LostWrite;
import isostress.checker.model.LostWriteReport;
import isostress.checker.model.Result;
import isostress.checker.model.WitnessTxn;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Cites the database's commit log in each lost write the final reads found ({@link LostWrite}): whether some member's
 * log holds the acknowledged commit, on which timeline and at which position, and where the timeline the final
 * reads ran on left that one. So "acknowledged, then gone" comes with the database's own account: a commit that a
 * zombie primary logged on timeline 1 after the promoted member's timeline 2 had left timeline 1 is not on the
 * surviving timeline, whatever the clients were told. A lost write that no log holds is said to be in a capture gap
 * when it ran while some member's log was not read ({@link CaptureLog#gaps()}).
 *
 * <p>One pass over the log's writes, looking each up among the lost writes listed (a few dozen).
 */
final class LostWriteCitation {
    private LostWriteCitation() {
    }

    /** {@code r} with its listed lost writes' explanations citing {@code w}; {@code h} is the history checked. */
    static Result cite(Result r, History h, Witness w) {
        LostWriteReport report = r.lostWrites();
        if (report == null || report.findings().isEmpty()) return r;
        List<LostWrite> lost = report.findings();
        LongPairIntMap wanted = new LongPairIntMap(lost.size() * 2);
        for (int i = 0; i < lost.size(); i++) wanted.putIfAbsent(lost.get(i).write().key(), value(lost.get(i).write()), i);
        Map<Long, Long> keyIds = WitnessJoin.keyIds(h, w);
        List<List<WitnessTxn>> logOf = new ArrayList<>();
        for (int i = 0; i < lost.size(); i++) logOf.add(new ArrayList<>());
        for (int L = 0; L < w.size(); L++) {
            for (int i = w.firstWrite(L); i < w.endWrite(L); i++) {
                if (w.isDelete(i)) continue;
                int f = wanted.get(WitnessJoin.historyKey(keyIds, w, i), w.value(i));
                if (f == LongPairIntMap.MISSING) continue;
                List<WitnessTxn> l = logOf.get(f);
                if (l.isEmpty() || l.get(l.size() - 1).line() != w.line(L)) l.add(WitnessJoin.logTxn(w, keyIds, L));
            }
        }
        CaptureLog last = finalLog(w);
        List<LostWrite> cited = new ArrayList<>(lost.size());
        for (int i = 0; i < lost.size(); i++) {
            LostWrite l = lost.get(i);
            cited.add(new LostWrite(l.writer(), l.write(), l.read(), l.primary(),
                    l.explanation() + " " + sentence(l, logOf.get(i), w, last)));
        }
        return r.withLostWrites(new LostWriteReport(report.writes(), report.lost(), cited));
    }

    private static long value(MicroOp m) {
        return m instanceof MicroOp.Append a ? a.value() : ((MicroOp.Write) m).value();
    }

    /** The log of the member still primary when the capture ended (the final reads ran there), or null. */
    static CaptureLog finalLog(Witness w) {
        CaptureLog last = null;
        for (CaptureLog l : w.captureLogs()) {
            if (l.primaryTo() == Long.MAX_VALUE && (last == null || l.timeline() > last.timeline())) last = l;
        }
        return last;
    }

    static String sentence(LostWrite l, List<WitnessTxn> logged, Witness w, CaptureLog last) {
        StringBuilder sb = new StringBuilder();
        if (logged.isEmpty()) {
            sb.append("No captured commit log holds it");
            long from = l.writer().invokeTime(), to = l.writer().completeTime();
            CaptureLog.Gap gap = null;
            for (CaptureLog.Gap g : w.gaps()) {
                if (from < 0 || to < 0 || g.overlaps(from, to)) {
                    gap = g;
                    break;
                }
            }
            if (gap != null) {
                sb.append(", but ").append(gap.node()).append("'s log (timeline ").append(gap.timeline())
                  .append(") was not read ").append(span(gap)).append(", while it ran: the capture cannot tell where "
                          + "it committed.");
            } else {
                sb.append(": the database never logged its commit.");
            }
            return sb.toString();
        }
        for (int i = 0; i < logged.size(); i++) {
            WitnessTxn t = logged.get(i);
            sb.append(i == 0 ? "" : " ").append(t.node()).append("'s commit log has it (");
            if (t.timeline() >= 0) {
                sb.append("timeline ").append(t.timeline()).append(", commit LSN ").append(lsn(t.pos()));
            } else {
                sb.append("pos ").append(t.pos());
            }
            sb.append(", txid ").append(t.txid()).append(t.line() > 0 ? ", line " + t.line() : "").append(")");
            if (last == null || t.timeline() < 0) {
                sb.append('.');
                continue;
            }
            sb.append("; ").append(fate(t, last, w)).append('.');
        }
        if (last != null) {
            sb.append(" The final reads, on ").append(last.node()).append(" (timeline ").append(last.timeline())
              .append(", the primary when the capture ended), lack it.");
        }
        return sb.toString();
    }

    /**
     * True when a commit logged at {@code pos} on {@code timeline} is on the timeline that survived: the final
     * primary's ({@code last}), or an ancestor of it up to where the next timeline left it. True when that cannot be
     * told (a log without timelines, no final primary).
     */
    static boolean survives(long timeline, long pos, CaptureLog last) {
        if (last == null || timeline < 0 || timeline == last.timeline()) return true;
        int i = branchFrom(last, timeline);
        // test_decoding's commit position is the end of the commit record: past the switch point, not on the child
        return i >= 0 && pos <= last.branches().get(i).pos();
    }

    /** The index in {@code last}'s timeline history of the branch that left {@code timeline}, or -1. */
    private static int branchFrom(CaptureLog last, long timeline) {
        List<CaptureLog.Branch> bs = last.branches();
        for (int i = 0; i < bs.size(); i++) if (bs.get(i).parent() == timeline) return i;
        return -1;
    }

    /** Whether commit {@code t} is on the final primary's timeline, and why. */
    private static String fate(WitnessTxn t, CaptureLog last, Witness w) {
        if (t.timeline() == last.timeline()) {
            return "the final primary's own timeline holds the commit";
        }
        int i = branchFrom(last, t.timeline());
        if (i < 0) {
            return "timeline " + t.timeline() + " is not among the ancestors of the final primary's timeline "
                    + last.timeline() + ": the commit is not on the timeline that survived";
        }
        List<CaptureLog.Branch> bs = last.branches();
        long child = i + 1 < bs.size() ? bs.get(i + 1).parent() : last.timeline();
        long at = bs.get(i).pos();
        String promoted = promotedTo(w, child);
        String who = (promoted == null ? "timeline " + child : promoted + " was promoted to timeline " + child)
                + ", which left timeline " + t.timeline() + " at LSN " + lsn(at);
        return survives(t.timeline(), t.pos(), last) ? who + ", after it: the surviving timeline holds the commit"
                : who + ", before it: the commit is not on the timeline that survived";
    }

    /** The member whose log was read on timeline {@code tl}, which it was promoted to, or null. */
    private static String promotedTo(Witness w, long tl) {
        for (CaptureLog l : w.captureLogs()) if (l.timeline() == tl) return l.node();
        return null;
    }

    private static String span(CaptureLog.Gap g) {
        if (g.from() == Long.MIN_VALUE && g.to() == Long.MAX_VALUE) return "at all";
        if (g.from() == Long.MIN_VALUE) return "before " + seconds(g.to());
        if (g.to() == Long.MAX_VALUE) return "after " + seconds(g.from());
        return "from " + seconds(g.from()) + " to " + seconds(g.to());
    }

    private static String seconds(long ns) {
        return String.format(Locale.ROOT, "%.3f s", ns / 1e9);
    }

    /** A PostgreSQL LSN as PostgreSQL writes it: {@code 0/5000100}. */
    static String lsn(long pos) {
        return String.format(Locale.ROOT, "%X/%X", pos >>> 32, pos & 0xFFFFFFFFL);
    }
}
