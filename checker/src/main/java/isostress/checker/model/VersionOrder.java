package isostress.checker.model;

import java.util.List;
import java.util.Map;

/**
 * Each key's version order as the database committed it: the values written to the key by committed transactions,
 * in the order of the database's commit log (docs/witness.md), built by the witness join and given to the checks of
 * rw-register and list-append histories, which then take it as the version order instead of searching for one.
 *
 * @param keys          per key (the history's key id), its writes in commit order (the initial version precedes
 *                      them all); a transaction that writes a key twice has both writes here, in its order
 * @param disagreements per key whose nodes' logs order its writes differently (replicas, a Galera cluster), why;
 *                      such a key has no entry in {@code keys}, and its order is searched for as without a log
 */
public record VersionOrder(Map<Long, List<Write>> keys, Map<Long, String> disagreements) {

    /**
     * One write in the log.
     *
     * @param value the value written (a register value, or the element appended)
     * @param node  the node whose log holds it
     * @param pos   its log transaction's position in that node's log
     * @param txn   the history's transaction that made it (the join names it by the value)
     */
    public record Write(long value, String node, long pos, int txn) {
    }

    public VersionOrder {
        keys = Map.copyOf(keys);
        disagreements = Map.copyOf(disagreements);
    }

    /** "log n1 pos 17 → pos 23": where two writes of one key are in the log, for explanations. */
    public static String between(Write a, Write b) {
        if (a == null) return "log " + b.node() + ": the initial value, then pos " + b.pos();
        if (a.node().equals(b.node())) return "log " + a.node() + " pos " + a.pos() + " → pos " + b.pos();
        return "log " + a.node() + " pos " + a.pos() + " → " + b.node() + " pos " + b.pos();
    }
}
