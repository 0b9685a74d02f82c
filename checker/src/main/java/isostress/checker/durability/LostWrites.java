package isostress.checker.durability;

import isostress.checker.history.History;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.SideEvent;
import isostress.checker.history.Txn;
import isostress.checker.model.LostWrite;
import isostress.checker.model.LostWriteReport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Finds acknowledged writes that the reads begun after them do not show ({@code lost-write}): a database that
 * acknowledged a commit and then lost it, as an asynchronous failover can. Real time decides "after": a read that
 * began once the write's {@code ok} was recorded must see it, at any level a user would call durable.
 *
 * <ul>
 *   <li>list-append: an {@code ok} append of element e to key k is lost when some {@code ok} read of k began after
 *       the append completed and none of those reads holds e (elements are unique, so nothing else removes it).</li>
 *   <li>rw-register: an {@code ok} write of v to k is lost when the last {@code ok} read of k began after it
 *       completed, no read begun after it returned v, and no other write of k could have overwritten it: every
 *       other write of k begun before that read is {@code ok} and completed before this one began (an {@code info}
 *       write may have taken effect at any time after it began, so it leaves the key undecided).</li>
 * </ul>
 *
 * <p>It runs on histories with final reads only (the harness marks them with a {@link LostWrite#FINAL_READS}
 * event): those end with a read of every key once the faults are healed, which is what makes the rule decide
 * every write of a key. Without them, the rule would apply to whichever reads happened to come later.
 */
public final class LostWrites {
    private LostWrites() {
    }

    /** True when {@code h} has final reads (the harness's marker event). */
    public static boolean applies(History h) {
        for (SideEvent e : h.sideEvents()) if (LostWrite.FINAL_READS.equals(e.f())) return true;
        return false;
    }

    /** The lost writes of {@code h}, listing at most {@code limit}. */
    public static LostWriteReport find(History h, int limit) {
        Map<Long, KeyReads> reads = new HashMap<>();
        for (Txn t : h) {
            if (t.outcome() != Outcome.OK) continue;
            for (MicroOp m : t.ops()) {
                if (m instanceof MicroOp.ListRead r && r.values() != null) {
                    KeyReads k = reads.computeIfAbsent(r.key(), x -> new KeyReads());
                    k.read(t);
                    for (long e : r.values()) k.seen.merge(e, t.invokeIndex(), Math::max);
                } else if (m instanceof MicroOp.Read r) {
                    KeyReads k = reads.computeIfAbsent(r.key(), x -> new KeyReads());
                    k.read(t);
                    if (r.value() != null) k.seen.merge(r.value(), t.invokeIndex(), Math::max);
                }
            }
        }
        Map<Long, List<Txn>> registerWrites = new HashMap<>();
        for (Txn t : h) {
            if (t.outcome() == Outcome.FAIL) continue;
            for (MicroOp m : t.ops()) {
                if (m instanceof MicroOp.Write w) {
                    registerWrites.computeIfAbsent(w.key(), x -> new ArrayList<>()).add(t);
                }
            }
        }
        FaultContext faults = new FaultContext(h);
        int judged = 0, lost = 0;
        List<LostWrite> found = new ArrayList<>();
        for (Txn t : h) {
            // Only what a client was told committed can be lost: an info transaction that the commit log shows
            // committed (ok after a witness join) was not acknowledged.
            if (t.outcome() != Outcome.OK || h.recordedOutcome(t.id()) != Outcome.OK) continue;
            for (MicroOp m : t.ops()) {
                if (!(m instanceof MicroOp.Append || m instanceof MicroOp.Write)) continue;
                long value = m instanceof MicroOp.Append a ? a.value() : ((MicroOp.Write) m).value();
                KeyReads k = reads.get(m.key());
                if (k == null || k.last.invokeIndex() < t.completeIndex()) continue; // no read began after it
                if (m instanceof MicroOp.Write && overwritable(t, registerWrites.get(m.key()), k.last)) continue;
                judged++;
                if (k.seen.getOrDefault(value, -1L) > t.completeIndex()) continue;
                lost++;
                if (found.size() < limit) found.add(lostWrite(h, t, m, value, k.last, faults));
            }
        }
        return new LostWriteReport(judged, lost, found);
    }

    /** True when a write of the key other than {@code w}'s could have come after it, before {@code read} began. */
    private static boolean overwritable(Txn w, List<Txn> writes, Txn read) {
        for (Txn o : writes) {
            if (o == w || o.id() == w.id() || o.invokeIndex() > read.invokeIndex()) continue;
            if (o.outcome() != Outcome.OK || o.completeIndex() > w.invokeIndex()) return true;
        }
        return false;
    }

    private static LostWrite lostWrite(History h, Txn w, MicroOp m, long value, Txn read, FaultContext faults) {
        String key = h.keyName(m.key());
        String what = m instanceof MicroOp.Append ? "appended " + value + " to key " + key
                : "wrote " + value + " to key " + key;
        StringBuilder sb = new StringBuilder();
        sb.append(w.label()).append(" (process ").append(w.process()).append(") ").append(what)
          .append(" and was acknowledged").append(at(w.completeTime())).append(", but no read of key ").append(key)
          .append(" begun after that shows it: the last, ").append(read.label()).append(at(read.invokeTime()))
          .append(", read ").append(shown(read, m.key())).append('.');
        String context = faults.describe(w.completeIndex(), w.completeTime());
        if (context != null) sb.append(' ').append(context);
        return new LostWrite(w, m, read, faults.leaderBefore(w.completeIndex()), sb.toString());
    }

    private static String at(long ns) {
        return ns < 0 ? "" : String.format(Locale.ROOT, " at %.3f s", ns / 1e9);
    }

    /** What {@code read} returned for {@code key}. */
    private static String shown(Txn read, long key) {
        for (MicroOp m : read.ops()) {
            if (m.key() != key) continue;
            if (m instanceof MicroOp.ListRead r) return r.values() == null ? "nothing known" : list(r.values());
            if (m instanceof MicroOp.Read r) return r.value() == null ? "the initial value" : r.value().toString();
        }
        return "nothing";
    }

    /** A list as short as a sentence allows: its ends and its length when long. */
    private static String list(List<Long> values) {
        if (values.size() <= 8) return values.toString();
        return values.subList(0, 3).toString().replace("]", ", …, ")
                + values.subList(values.size() - 3, values.size()).toString().substring(1) + " (" + values.size()
                + " elements)";
    }

    /** The ok reads of one key: the one begun last, and per value the latest begin of a read showing it. */
    private static final class KeyReads {
        final Map<Long, Long> seen = new HashMap<>();
        Txn last;

        void read(Txn t) {
            if (last == null || t.invokeIndex() > last.invokeIndex()) last = t;
        }
    }
}
