package isostress.generator.sim;

import java.io.IOException;
import java.io.Writer;

/**
 * The commit log of a simulated store, as a witness file ({@code witness.jsonl}, docs/witness.md): one line per
 * committed transaction that writes, in the order the simulation commits them, on one node {@code n1}, with the
 * commit's number as its position and transaction id. A simulation writes it beside its history, so that the join
 * of the two and a check with the log's version order can be measured on histories of any size.
 */
public final class SimulatedLog {
    private final Writer out;
    private final StringBuilder sb = new StringBuilder(256);
    private long pos;

    public SimulatedLog(Writer out) {
        this.out = out;
    }

    /**
     * One committed transaction's writes, register writes or list appends: those of the first {@code n} ops that
     * {@code writes} marks (null: all of them). A transaction without writes is not logged.
     */
    void commit(long[] keys, long[] values, boolean[] writes, boolean appends, int n) throws IOException {
        sb.setLength(0);
        boolean any = false;
        for (int i = 0; i < n; i++) {
            if (writes != null && !writes[i]) continue;
            sb.append(any ? "," : "").append(appends ? "[\"append\"," : "[\"w\",").append(keys[i]).append(',')
                    .append(values[i]).append(']');
            any = true;
        }
        if (!any) return;
        pos++;
        out.append("{\"pos\":").append(Long.toString(pos)).append(",\"node\":\"n1\",\"txid\":")
                .append(Long.toString(pos)).append(",\"writes\":[").append(sb).append("]}\n");
    }

    /** A committed mini-transaction. */
    void commit(TxnOps ops) throws IOException {
        boolean[] writes = new boolean[ops.size];
        for (int i = 0; i < ops.size; i++) writes[i] = !ops.isRead(i);
        commit(ops.key, ops.value, writes, false, ops.size);
    }
}
