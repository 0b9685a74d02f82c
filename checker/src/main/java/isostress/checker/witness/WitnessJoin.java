package isostress.checker.witness;

import isostress.checker.history.History;
import isostress.checker.history.InputException;
import isostress.checker.history.LongPairIntMap;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.model.WitnessFinding;
import isostress.checker.model.WitnessFinding.Kind;
import isostress.checker.model.WitnessReport;
import isostress.checker.model.VersionOrder;
import isostress.checker.model.WitnessTxn;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Joins a history with a witness (the database's commit log, docs/witness.md) by the values written: values are
 * unique per write, so a (key, value) pair in the log names the history's transaction that wrote it.
 *
 * <p>For each transaction of the history with writes, the log transactions holding any of them decide:
 * <ul>
 *   <li>none: an {@code ok} transaction is a {@link Kind#LOST_WRITE}; an {@code info} one aborted; a {@code fail}
 *       one is as the history says;</li>
 *   <li>all its writes in one log transaction on each node that holds any (replicas log the same commit): an
 *       {@code ok} transaction is matched; an {@code info} one committed, unless its commit is on a timeline that
 *       a failover discarded (then it stays {@code info}: committed and undone); a {@code fail} one is
 *       {@link Kind#FAILED_BUT_COMMITTED};</li>
 *   <li>otherwise (some writes missing, or in several log transactions of one node): a {@code fail} transaction is
 *       failed-but-committed; an {@code ok} one a lost write when some write is in no log transaction, else a
 *       {@link Kind#SPLIT_COMMIT}; an {@code info} one a split commit (neither committed nor aborted as a whole).</li>
 * </ul>
 * A log write that no transaction made (and that is not the key's initial value) is an
 * {@link Kind#UNRECORDED_WRITE}, one finding per log transaction; so is a deleted row of a workload key, since no
 * workload deletes rows (a delete names no value, so it names no writer, and it takes no part in the version order).
 * {@code info} transactions are resolved in a new
 * history ({@link History#withOutcomes}): aborted ones become {@code fail}, so a read of an aborted {@code info}
 * writer's value is a G1a; committed ones are counted and stay {@code info}, since when they committed is not known
 * (an {@code info} event is when the client stopped waiting, and a commit can take effect after it).
 *
 * <p>A capture that follows a moving primary says when some member's log was not read ({@link CaptureLog#gaps()}):
 * an {@code ok} or {@code info} transaction that no log holds and that ran during such a gap is counted
 * ({@link WitnessReport#inCaptureGap()}) and neither lost nor aborted, as the log that would hold it was not read.
 *
 * <p>Linear in the history's and the log's writes (but for sorting each key's values): one index of the history's
 * writes ({@link WriterIndex}), then one pass over the log;
 * the evidence for the findings listed takes one more pass.
 */
public final class WitnessJoin {
    private WitnessJoin() {
    }

    /**
     * The join's result.
     *
     * @param resolved the history with its {@code info} transactions resolved by the log
     * @param report   the counts and the findings
     * @param order    each key's version order as the log committed it (writes of committed transactions only)
     * @param log      the witness joined
     */
    public record Joined(History resolved, WitnessReport report, VersionOrder order, Witness log) {
    }

    /**
     * Reads the witness {@code file} ({@link WitnessReader}), then joins {@code h} with it, as {@link #join(History,
     * Witness, int)}. (Reading the file on a second thread while the history's writes were indexed was tried: no
     * faster in a cold JVM, where the JIT's compiler threads take the second core.)
     *
     * @throws InputException as {@link WitnessReader#read(Path)} and {@link #join(History, Witness, int)}
     */
    public static Joined join(History h, Path file, int maxPerKind) throws IOException {
        return join(h, WitnessReader.read(file), maxPerKind);
    }

    /**
     * Joins {@code h} with {@code w}, listing at most {@code maxPerKind} findings of each kind.
     *
     * @throws InputException when a value is written by two transactions of the history (the join names a write's
     *                        transaction by its value), or for a single-register history (whose values repeat)
     */
    public static Joined join(History h, Witness w, int maxPerKind) {
        return join(h, w, index(h), maxPerKind);
    }

    /** The history's side of the join: each op's transaction, each transaction's distinct writes, their index. */
    private record Indexed(int[] opTxn, int[] nWrites, WriterIndex writer) {
    }

    private static Indexed index(History h) {
        if (h.registerOps()) {
            throw new InputException(h.source(), 0, "a witness cannot be joined with a single-register history "
                    + "(read/write/cas ops reuse values, and the join names a write's transaction by its value)");
        }
        int n = h.size();
        // The history's writes: (key, value) -> op index; opTxn names the op's transaction.
        int[] opTxn = new int[h.opCount()];
        for (int t = 0; t < n; t++) java.util.Arrays.fill(opTxn, h.firstOp(t), h.endOp(t), t);
        int[] nWrites = new int[n];
        WriterIndex.Conflict[] conflict = new WriterIndex.Conflict[1];
        WriterIndex writer = WriterIndex.build(h, opTxn, nWrites, conflict);
        if (conflict[0] != null) {
            int first = conflict[0].first(), op = conflict[0].later(), t = opTxn[op];
            long v = h.opKind(op) == History.CAS ? h.casNew(op) : h.opValue(op);
            throw new InputException(h.source(), h.line(t), "key " + h.keyName(h.opKey(op)) + " value " + v
                    + " is written by T" + opTxn[first] + " (line " + h.line(opTxn[first]) + ") and T" + t
                    + ": the witness join names a write's transaction by its value, so values must be unique");
        }
        return new Indexed(opTxn, nWrites, writer);
    }

    private static Joined join(History h, Witness w, Indexed ix, int maxPerKind) {
        int n = h.size();
        int[] opTxn = ix.opTxn(), nWrites = ix.nWrites();
        WriterIndex writer = ix.writer();
        Map<Long, Long> keyIds = keyIds(h, w);
        boolean[] found = new boolean[h.opCount()];
        int[] lastLog = new int[n];
        java.util.Arrays.fill(lastLog, -1);
        boolean[] torn = new boolean[n];
        LongPairIntMap txnNode = new LongPairIntMap(16); // (txn, node) seen, for transactions logged on several nodes
        long matched = 0, unrecorded = 0;
        List<Integer> unrecordedListed = new ArrayList<>();
        int[] writersOf = new int[8], countOf = new int[8];
        int[] logOp = writer.lookup(w, keyIds); // each log write's op (CommitOrder reuses it for the version order)
        Set<Long> deleted = new HashSet<>(); // keys the log deletes: no version order from it
        for (int L = 0; L < w.size(); L++) {
            int distinct = 0;
            boolean stray = false;
            for (int i = w.firstWrite(L); i < w.endWrite(L); i++) {
                long key = historyKey(keyIds, w, i);
                int op = logOp[i];
                if (op == LongPairIntMap.MISSING) {
                    if (w.isDelete(i)) {
                        stray = true;
                        deleted.add(key);
                    } else if (!h.initial().isInitial(key, w.value(i))) {
                        stray = true;
                    }
                    continue;
                }
                found[op] = true;
                int t = opTxn[op], j = 0;
                while (j < distinct && writersOf[j] != t) j++;
                if (j == distinct) {
                    if (distinct == writersOf.length) {
                        writersOf = java.util.Arrays.copyOf(writersOf, distinct * 2);
                        countOf = java.util.Arrays.copyOf(countOf, distinct * 2);
                    }
                    writersOf[j] = t;
                    countOf[j] = 0;
                    distinct++;
                }
                countOf[j]++;
            }
            for (int j = 0; j < distinct; j++) {
                int t = writersOf[j];
                if (countOf[j] != nWrites[t]) torn[t] = true; // a part of its writes, or one twice
                int node = w.nodeIndex(L);
                if (lastLog[t] >= 0 && !torn[t]) {
                    int before = w.nodeIndex(lastLog[t]);
                    if (before == node) torn[t] = true; // a second log transaction of the same node
                    else {
                        txnNode.putIfAbsent(t, before, lastLog[t]);
                        if (txnNode.putIfAbsent(t, node, L) != L) torn[t] = true;
                    }
                }
                lastLog[t] = L;
            }
            if (stray) {
                unrecorded++;
                if (unrecordedListed.size() < maxPerKind) unrecordedListed.add(L);
            } else if (w.endWrite(L) > w.firstWrite(L)) {
                matched++;
            }
        }
        // A pair written twice by one transaction is one write: found when any of its ops is.
        writer.spreadFound(found);
        Joined j = classify(h, w, keyIds, writer, opTxn, found, lastLog, torn, nWrites, matched, unrecorded,
                unrecordedListed, maxPerKind);
        return new Joined(j.resolved(), j.report(), CommitOrder.of(h, w, logOp, opTxn, writer, deleted), w);
    }

    private static Joined classify(History h, Witness w, Map<Long, Long> keyIds, WriterIndex writer,
                                   int[] opTxn, boolean[] found, int[] lastLog, boolean[] torn, int[] nWrites, long matched,
                                   long unrecorded, List<Integer> unrecordedListed, int maxPerKind) {
        Map<Integer, Outcome> resolved = new HashMap<>();
        Map<Integer, Kind> listed = new LinkedHashMap<>();
        long[] count = new long[Kind.values().length];
        long infoCommitted = 0, infoAborted = 0, inGap = 0;
        List<CaptureLog.Gap> gaps = w.gaps();
        CaptureLog last = LostWriteCitation.finalLog(w);
        for (int t = 0; t < h.size(); t++) {
            if (nWrites[t] == 0) continue;
            Outcome o = h.outcome(t);
            Kind kind = null;
            if (lastLog[t] < 0 && o != Outcome.FAIL && inGap(h, t, gaps)) {
                inGap++; // no log that could hold it was read while it ran: the log says nothing about it
            } else if (lastLog[t] < 0) {
                if (o == Outcome.OK) kind = Kind.LOST_WRITE;
                else if (o == Outcome.INFO) {
                    infoAborted++;
                    resolved.put(t, Outcome.FAIL);
                }
            } else if (o == Outcome.FAIL) {
                kind = Kind.FAILED_BUT_COMMITTED;
            } else if (!torn[t] && allFound(h, t, found)) {
                // An info transaction the log shows committed is counted, and stays info. Made ok, it would take
                // its info event as its completion, and real-time order would put it before every transaction
                // invoked later; but that event is when the client stopped waiting, not a bound on when the server
                // commits: a COMMIT waiting for a synchronous standby takes effect when the wait ends, seconds
                // after its client's socket timed out (seen on a Patroni cluster: the wait was cancelled at the
                // server's shutdown, after a final read that rightly lacked the write). The checkers count an info
                // transaction committed when its writes were read, which is all the log could add without a time.
                // One committed on a timeline that a failover discarded is not counted: it committed and was
                // undone.
                if (o == Outcome.INFO && LostWriteCitation.survives(w.timeline(lastLog[t]), w.pos(lastLog[t]), last)) {
                    infoCommitted++;
                }
            } else if (o == Outcome.OK && !allFound(h, t, found)) {
                kind = Kind.LOST_WRITE;
            } else {
                kind = Kind.SPLIT_COMMIT;
            }
            if (kind != null && count[kind.ordinal()]++ < maxPerKind) listed.put(t, kind);
        }
        List<WitnessFinding> findings = evidence(h, w, keyIds, writer, opTxn, found, listed, unrecordedListed);
        WitnessReport report = new WitnessReport(w.source(), w.size(), matched, infoCommitted, infoAborted,
                count[Kind.LOST_WRITE.ordinal()], count[Kind.SPLIT_COMMIT.ordinal()],
                count[Kind.FAILED_BUT_COMMITTED.ordinal()], unrecorded, inGap, findings);
        return new Joined(resolved.isEmpty() ? h : h.withOutcomes(resolved), report, null, w);
    }

    /**
     * True when {@code t} ran, from its invocation to its completion (or to the end, when it never completed), while
     * some member may have committed what the capture did not read. Without times (a text history) every transaction
     * might have, so none is judged by a log with gaps.
     */
    private static boolean inGap(History h, int t, List<CaptureLog.Gap> gaps) {
        if (gaps.isEmpty()) return false;
        long from = h.invokeTime(t), to = h.completeIndex(t) == History.PENDING ? Long.MAX_VALUE : h.completeTime(t);
        if (from < 0 || to < 0) return true;
        for (CaptureLog.Gap g : gaps) if (g.overlaps(from, to)) return true;
        return false;
    }

    private static boolean allFound(History h, int t, boolean[] found) {
        for (int op = h.firstOp(t); op < h.endOp(t); op++) if (isWrite(h, op) && !found[op]) return false;
        return true;
    }

    private static boolean isWrite(History h, int op) {
        byte k = h.opKind(op);
        return k == History.WRITE || k == History.APPEND || k == History.CAS;
    }

    /** The findings listed, each with the log transactions that are its evidence (one more pass over the log). */
    private static List<WitnessFinding> evidence(History h, Witness w, Map<Long, Long> keyIds, WriterIndex writer,
                                                 int[] opTxn, boolean[] found, Map<Integer, Kind> listed,
                                                 List<Integer> unrecordedListed) {
        Map<Integer, List<WitnessTxn>> logOf = new HashMap<>();
        Map<Integer, Integer> lastAdded = new HashMap<>();
        for (Integer t : listed.keySet()) logOf.put(t, new ArrayList<>());
        for (int L = 0; L < w.size() && !listed.isEmpty(); L++) {
            for (int i = w.firstWrite(L); i < w.endWrite(L); i++) {
                if (w.isDelete(i)) continue;
                int op = writer.get(historyKey(keyIds, w, i), w.value(i));
                if (op == LongPairIntMap.MISSING) continue;
                int t = opTxn[op];
                List<WitnessTxn> l = logOf.get(t);
                if (l != null && !Integer.valueOf(L).equals(lastAdded.put(t, L))) l.add(logTxn(w, keyIds, L));
            }
        }
        Map<Long, String> names = keyNames(h, w, keyIds);
        List<WitnessFinding> out = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            if (kind == Kind.UNRECORDED_WRITE) {
                for (int L : unrecordedListed) {
                    List<MicroOp> stray = new ArrayList<>();
                    for (int i = w.firstWrite(L); i < w.endWrite(L); i++) {
                        long key = historyKey(keyIds, w, i);
                        if (w.isDelete(i) || (writer.get(key, w.value(i)) == LongPairIntMap.MISSING
                                && !h.initial().isInitial(key, w.value(i)))) {
                            stray.add(Witness.op(w.kind(i), key, w.value(i)));
                        }
                    }
                    out.add(new WitnessFinding(kind, null, List.of(logTxn(w, keyIds, L)), stray, names));
                }
                continue;
            }
            for (Map.Entry<Integer, Kind> e : listed.entrySet()) {
                if (e.getValue() != kind) continue;
                int t = e.getKey();
                List<MicroOp> writes = new ArrayList<>();
                for (int op = h.firstOp(t); op < h.endOp(t); op++) {
                    if (!isWrite(h, op)) continue;
                    // failed-but-committed: what the log holds; lost and split: what it lacks
                    if (found[op] == (kind == Kind.FAILED_BUT_COMMITTED)) writes.add(h.op(op));
                }
                out.add(new WitnessFinding(kind, h.txn(t), logOf.get(t), writes, names));
            }
        }
        return out;
    }

    /** Log transaction {@code L} with its keys as the history's ids. */
    static WitnessTxn logTxn(Witness w, Map<Long, Long> keyIds, int L) {
        List<MicroOp> ws = new ArrayList<>();
        for (int i = w.firstWrite(L); i < w.endWrite(L); i++) ws.add(Witness.op(w.kind(i), historyKey(keyIds, w, i), w.value(i)));
        return new WitnessTxn(w.node(L), w.timeline(L), w.pos(L), w.txid(L), w.line(L), ws);
    }

    /**
     * The witness's string-key ids mapped to the history's ids for the same spelling ({@code "x"}); a string key the
     * history does not have keeps its witness id (no history write can match it).
     */
    static Map<Long, Long> keyIds(History h, Witness w) {
        if (w.stringKeys().isEmpty()) return Map.of();
        Map<String, Long> bySpelling = new HashMap<>();
        h.keyNames().forEach((id, name) -> bySpelling.put(name, id));
        Map<Long, Long> out = new HashMap<>();
        w.stringKeys().forEach((id, name) -> out.put(id, bySpelling.getOrDefault(name, id)));
        return out;
    }

    static long historyKey(Map<Long, Long> keyIds, Witness w, int i) {
        long k = w.key(i);
        if (keyIds.isEmpty()) return k;
        Long mapped = keyIds.get(k);
        return mapped != null ? mapped : k;
    }

    /** The history's key spellings, plus the witness's string keys the history lacks. */
    private static Map<Long, String> keyNames(History h, Witness w, Map<Long, Long> keyIds) {
        if (w.stringKeys().isEmpty()) return h.keyNames();
        Map<Long, String> names = new HashMap<>(h.keyNames());
        w.stringKeys().forEach((id, name) -> names.putIfAbsent(keyIds.getOrDefault(id, id), name));
        return names;
    }
}
