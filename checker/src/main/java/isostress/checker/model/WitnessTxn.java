package isostress.checker.model;

import isostress.checker.history.MicroOp;

import java.util.List;

/**
 * One transaction of a database's commit log (a line of a witness file, docs/witness.md), as evidence in a
 * {@link WitnessFinding}.
 *
 * @param node     the node whose log it is in
 * @param timeline the PostgreSQL timeline it was committed on, as the line names it, or -1 when it names none
 * @param pos    its position in that node's log (increases with commit order)
 * @param txid   the database's own transaction id, as the log gives it
 * @param line   its 1-based line in the witness file, 0 when built in memory
 * @param writes its writes ({@link MicroOp.Write} or {@link MicroOp.Append}, the element appended)
 */
public record WitnessTxn(String node, long timeline, long pos, String txid, int line, List<MicroOp> writes) {
    public WitnessTxn {
        writes = List.copyOf(writes);
    }

    /** A log transaction of a line that names no timeline. */
    public WitnessTxn(String node, long pos, String txid, int line, List<MicroOp> writes) {
        this(node, -1, pos, txid, line, writes);
    }

    /** "n1 pos 17 (txid 731, line 18)", "n1 timeline 2 pos 17 (...)" when the line names its timeline. */
    public String label() {
        return node + (timeline >= 0 ? " timeline " + timeline : "") + " pos " + pos + " (txid " + txid
                + (line > 0 ? ", line " + line : "") + ")";
    }
}
