package isostress.checker.explain;

import isostress.checker.history.MicroOp;
import isostress.checker.history.Txn;
import isostress.checker.model.WitnessFinding;
import isostress.checker.model.WitnessTxn;

import java.util.List;

/** The sentences for a {@link WitnessFinding}: what the history says, what the commit log says, with positions. */
final class WitnessText {
    private WitnessText() {
    }

    /** What the history says about the finding's transaction (or, for an unrecorded write, that it has none). */
    static String history(WitnessFinding f) {
        Txn t = f.txn();
        if (t == null) return "no transaction of the history " + strays(f) + ".";
        String where = t.line() > 0 ? ", line " + t.line() : "";
        switch (t.outcome()) {
            case OK: return t.label() + " committed (ok" + where + ").";
            case FAIL: return t.label() + " aborted (fail" + where + ": the client was told it did not commit).";
            default: return t.label() + "'s outcome is unknown (info" + where + ").";
        }
    }

    /** The finding as one sentence, for results.json's {@code explanation} and the text's last line. */
    static String sentence(WitnessFinding f) {
        Txn t = f.txn();
        List<WitnessTxn> log = f.log();
        switch (f.kind()) {
            case LOST_WRITE:
                if (log.isEmpty()) {
                    return t.label() + " committed (ok), but none of its writes (" + ops(f, f.writes()) + ") is in "
                            + "the database's commit log: an acknowledged commit was lost.";
                }
                return t.label() + " committed (ok), but the commit log holds only part of it (in " + labels(log)
                        + "); " + ops(f, f.writes()) + (f.writes().size() == 1 ? " is" : " are") + " in no log "
                        + "transaction: part of an acknowledged commit was lost.";
            case SPLIT_COMMIT:
                if (!f.writes().isEmpty()) {
                    return t.label() + " (" + t.outcome().jepsenName() + ") has part of its writes in the commit log ("
                            + "in " + labels(log) + ") and " + ops(f, f.writes()) + " in none: it committed in part, "
                            + "not atomically.";
                }
                return t.label() + " (" + t.outcome().jepsenName() + ") has its writes in " + log.size()
                        + " log transactions (" + labels(log) + ") where one commit makes one: it was not committed "
                        + "atomically.";
            case FAILED_BUT_COMMITTED:
                return t.label() + " failed (the client was told it aborted), but the commit log holds "
                        + ops(f, f.writes()) + " in " + labels(log) + ": it committed.";
            default:
                if (deletes(f.writes()).isEmpty()) {
                    return labels(log) + " wrote " + ops(f, f.writes()) + ", which no transaction of the history "
                            + "wrote: the log holds a commit the history does not account for.";
                }
                return labels(log) + " " + strays(f) + ", which no transaction of the history did (no workload "
                        + "deletes a row): the log holds a commit the history does not account for.";
        }
    }

    /** An unrecorded write's ops as a predicate: "wrote w 6 61", "deleted key 3", "wrote w 6 61 and deleted key 3". */
    private static String strays(WitnessFinding f) {
        List<MicroOp> deleted = deletes(f.writes());
        List<MicroOp> written = f.writes().stream().filter(m -> !(m instanceof MicroOp.Delete)).toList();
        StringBuilder sb = new StringBuilder();
        if (!written.isEmpty()) sb.append("wrote ").append(ops(f, written));
        if (!deleted.isEmpty()) {
            if (sb.length() > 0) sb.append(" and ");
            sb.append("deleted key").append(deleted.size() == 1 ? " " : "s ");
            for (int i = 0; i < deleted.size(); i++) {
                if (i > 0) sb.append(i == deleted.size() - 1 ? " and " : ", ");
                sb.append(f.keyName(deleted.get(i).key()));
            }
        }
        return sb.toString();
    }

    private static List<MicroOp> deletes(List<MicroOp> ops) {
        return ops.stream().filter(m -> m instanceof MicroOp.Delete).toList();
    }

    /** "n1 pos 17 (txid 731, line 18) = {w 3 17, append 4 9}". */
    static String logLine(WitnessFinding f, WitnessTxn l) {
        return l.label() + " = {" + ops(f, l.writes()) + "}";
    }

    private static String labels(List<WitnessTxn> log) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < log.size(); i++) {
            if (i > 0) sb.append(i == log.size() - 1 ? " and " : ", ");
            sb.append(log.get(i).label());
        }
        return sb.toString();
    }

    private static String ops(WitnessFinding f, List<MicroOp> ops) {
        return TextRenderer.ops(ops, f::keyName);
    }
}
