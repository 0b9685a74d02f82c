package isostress.harness.db;

import java.util.List;

/**
 * One write of a committed transaction as a witness line lists it (docs/witness.md): {@code ["w", k, v]} for a
 * register, {@code ["append", k, element]} for a list (the element appended), {@code ["delete", k]} for a deleted
 * row of either. The captures of every database build their lines from these, so the line format is written in one
 * place.
 *
 * @param value the value or element; 0 for a delete, which has none
 */
public record WitnessWrite(Kind kind, long key, long value) {
    /** What happened to the row. */
    public enum Kind {
        WRITE("w"), APPEND("append"), DELETE("delete");

        private final String op;

        Kind(String op) {
            this.op = op;
        }
    }

    public static WitnessWrite write(long key, long value) {
        return new WitnessWrite(Kind.WRITE, key, value);
    }

    public static WitnessWrite append(long key, long element) {
        return new WitnessWrite(Kind.APPEND, key, element);
    }

    /**
     * A deleted row. No workload deletes rows, so the join makes it an unrecorded write: someone else changed the
     * workload's data.
     */
    public static WitnessWrite delete(long key) {
        return new WitnessWrite(Kind.DELETE, key, 0);
    }

    /** {@code ["w",3,17]}, {@code ["append",4,9]}, {@code ["delete",5]}. */
    public String json() {
        String head = "[\"" + kind.op + "\"," + key;
        return kind == Kind.DELETE ? head + "]" : head + "," + value + "]";
    }

    /** One witness line: {@code {"pos":17,"node":"n1","txid":"731","writes":[...]}}. */
    public static String line(long pos, String node, String txid, List<WitnessWrite> writes) {
        return line(pos, node, -1, txid, writes);
    }

    /**
     * One witness line naming the PostgreSQL timeline the commit was made on ({@code "timeline":2} after the node),
     * or none when {@code timeline} is negative.
     */
    public static String line(long pos, String node, long timeline, String txid, List<WitnessWrite> writes) {
        StringBuilder sb = new StringBuilder(64 + 16 * writes.size());
        sb.append("{\"pos\":").append(pos).append(",\"node\":\"").append(node).append('"');
        if (timeline >= 0) sb.append(",\"timeline\":").append(timeline);
        sb.append(",\"txid\":\"").append(txid).append("\",\"writes\":[");
        for (int i = 0; i < writes.size(); i++) sb.append(i == 0 ? "" : ",").append(writes.get(i).json());
        return sb.append("]}").toString();
    }
}
