package isostress.generator.workload;

import isostress.checker.history.History;
import isostress.checker.history.MicroOp;

import java.util.ArrayList;
import java.util.List;

/**
 * A generated workload: what each session will ask, in order. Stored as columns (a million transactions take tens
 * of megabytes). Transaction t belongs to session {@code t mod sessions}; read values are unknown until run, and a
 * compare-and-set's expected value is chosen when it runs (the session's last read of the key).
 */
public final class Workload {
    private final WorkloadSpec spec;
    private final int txns;
    private final int[] opStart;
    private final byte[] opKind;
    private final long[] opKey, opValue;
    private final String[] shapeNames;
    private final byte[] shape;
    private final long maxKey;

    Workload(WorkloadSpec spec, int txns, int[] opStart, byte[] opKind, long[] opKey, long[] opValue,
             String[] shapeNames, byte[] shape, long maxKey) {
        this.spec = spec;
        this.txns = txns;
        this.opStart = opStart;
        this.opKind = opKind;
        this.opKey = opKey;
        this.opValue = opValue;
        this.shapeNames = shapeNames;
        this.shape = shape;
        this.maxKey = maxKey;
    }

    /**
     * A workload known only by each transaction's shape name, without micro-ops (sql workloads: the shape is the
     * transaction's isolation level), for the run statistics.
     */
    public static Workload ofShapes(WorkloadSpec spec, String[] shapeNames, byte[] shape) {
        return new Workload(spec, shape.length, new int[shape.length + 1], new byte[0], new long[0], new long[0],
                shapeNames.clone(), shape.clone(), 0);
    }

    public WorkloadSpec spec() {
        return spec;
    }

    /** Transactions in the workload. */
    public int size() {
        return txns;
    }

    /** Transactions of session s. */
    public int sessionSize(int s) {
        int n = spec.sessions();
        return txns / n + (s < txns % n ? 1 : 0);
    }

    /** The global id of session s's i-th transaction. */
    public int txn(int s, int i) {
        return s + i * spec.sessions();
    }

    /** The ops of transaction t: reads without values, writes and appends with their unique values. */
    public List<MicroOp> ops(int t) {
        List<MicroOp> out = new ArrayList<>(opStart[t + 1] - opStart[t]);
        for (int o = opStart[t]; o < opStart[t + 1]; o++) {
            long k = opKey[o];
            switch (opKind[o]) {
                case History.READ: out.add(new MicroOp.Read(k, null)); break;
                case History.WRITE: out.add(new MicroOp.Write(k, opValue[o])); break;
                case History.APPEND: out.add(new MicroOp.Append(k, opValue[o])); break;
                case History.LIST_READ: out.add(new MicroOp.ListRead(k, null)); break;
                case History.CAS: out.add(new MicroOp.Cas(k, null, opValue[o])); break;
                default: throw new IllegalStateException();
            }
        }
        return out;
    }

    /** The shape of transaction t (an MT shape like {@code R1W1}, or the workload type's name). */
    public String shape(int t) {
        return shapeNames[shape[t]];
    }

    /** The index of transaction t's shape in {@link #shapeNames()}. */
    public int shapeId(int t) {
        return shape[t];
    }

    /** The names of all shapes, for per-shape statistics. */
    public List<String> shapeNames() {
        return List.of(shapeNames);
    }

    /** The largest physical key any transaction touches (keys are 0..maxKey; rotation adds keys). */
    public long maxKey() {
        return maxKey;
    }
}
