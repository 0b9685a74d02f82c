package isostress.generator.workload;

import isostress.checker.history.History;
import isostress.generator.MtShape;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Generates a {@link Workload} from a {@link WorkloadSpec}: a pure function of the spec (one random source from the
 * seed, consumed in transaction order).
 *
 * <p>Values written are unique: one counter for the whole workload, from 1 (0 is every key's initial value, so no
 * read of 0 is ambiguous). Mini-transactions follow MTC's 14 shapes (every write preceded by a read of its key);
 * a two-key shape draws two distinct keys. With {@code rotateAfter} N, once a key has been written N times the
 * transactions after that one use a fresh physical key in its place (key + keys x generation), which keeps version
 * chains and lists short in long runs.
 */
public final class WorkloadGenerator {
    private static final MtShape[] SHAPES = MtShape.values();

    private final WorkloadSpec spec;
    private final SplittableRandom rnd;
    private final int[] generation, writes;
    private long value = 1;
    private long maxKey;
    private int ops;
    private byte[] opKind = new byte[64];
    private long[] opKey = new long[64], opValue = new long[64];

    private WorkloadGenerator(WorkloadSpec spec) {
        this.spec = spec;
        this.rnd = new SplittableRandom(spec.seed());
        this.generation = new int[spec.keys()];
        this.writes = new int[spec.keys()];
    }

    public static Workload generate(WorkloadSpec spec) {
        if (spec.type() == WorkloadType.SQL) {
            throw new IllegalArgumentException("sql workloads come from isostress.generator.sql.SqlWorkloadGenerator");
        }
        return new WorkloadGenerator(spec).run();
    }

    private Workload run() {
        int n = spec.transactions();
        int[] opStart = new int[n + 1];
        byte[] shape = new byte[n];
        String[] names;
        double[] cumulative = null;
        if (spec.type() == WorkloadType.MINI) {
            names = new String[SHAPES.length];
            for (int i = 0; i < SHAPES.length; i++) names[i] = SHAPES[i].name();
            cumulative = shapeWeights();
        } else if (spec.type() == WorkloadType.CAS) {
            names = new String[] {"read", "cas"};
        } else {
            names = new String[] {spec.type().yamlName()};
        }
        int[] touched = new int[16];
        for (int t = 0; t < n; t++) {
            opStart[t] = ops;
            int nt = 0;
            switch (spec.type()) {
                case MINI: {
                    int s = pick(cumulative);
                    shape[t] = (byte) s;
                    MtShape sh = SHAPES[s];
                    int k1 = key(), k2 = k1;
                    if (sh.twoKeys()) while (k2 == k1) k2 = key();
                    for (int i = 0; i < sh.size(); i++) {
                        int k = sh.slot(i) == 0 ? k1 : k2;
                        if (sh.isWrite(i)) {
                            op(History.WRITE, physical(k), value++);
                            touched = touch(touched, nt++, k);
                        } else {
                            op(History.READ, physical(k), 0);
                        }
                    }
                    break;
                }
                case RW_REGISTER: {
                    int count = spec.minOps() + rnd.nextInt(spec.maxOps() - spec.minOps() + 1);
                    for (int i = 0; i < count; i++) {
                        int k = key();
                        if (rnd.nextDouble() < spec.readRatio()) {
                            op(History.READ, physical(k), 0);
                        } else {
                            if (rnd.nextDouble() < spec.rmwRatio()) op(History.READ, physical(k), 0);
                            op(History.WRITE, physical(k), value++);
                            touched = touch(touched, nt++, k);
                        }
                    }
                    break;
                }
                case LIST_APPEND: {
                    int count = spec.minOps() + rnd.nextInt(spec.maxOps() - spec.minOps() + 1);
                    for (int i = 0; i < count; i++) {
                        int k = key();
                        if (rnd.nextDouble() < spec.readRatio()) {
                            op(History.LIST_READ, physical(k), 0);
                        } else {
                            op(History.APPEND, physical(k), value++);
                            touched = touch(touched, nt++, k);
                        }
                    }
                    break;
                }
                default: { // CAS: a read or a compare-and-set of one key
                    int k = key();
                    if (rnd.nextDouble() < spec.readRatio()) {
                        shape[t] = 0;
                        op(History.READ, physical(k), 0);
                    } else {
                        shape[t] = 1;
                        op(History.CAS, physical(k), value++);
                        touched = touch(touched, nt++, k);
                    }
                }
            }
            // Rotation takes effect after the transaction, so one transaction sees one physical key per logical key.
            if (spec.rotateAfter() > 0) {
                for (int i = 0; i < nt; i++) {
                    int k = touched[i];
                    if (++writes[k] >= spec.rotateAfter()) {
                        writes[k] = 0;
                        generation[k]++;
                    }
                }
            }
        }
        opStart[n] = ops;
        return new Workload(spec, n, opStart, Arrays.copyOf(opKind, ops), Arrays.copyOf(opKey, ops),
                Arrays.copyOf(opValue, ops), names, shape, Math.max(maxKey, spec.keys() - 1));
    }

    private static int[] touch(int[] a, int i, int k) {
        if (i == a.length) a = Arrays.copyOf(a, i * 2);
        a[i] = k;
        return a;
    }

    private int key() {
        return spec.distribution().next(rnd);
    }

    private long physical(int k) {
        long p = k + (long) spec.keys() * generation[k];
        if (p > maxKey) maxKey = p;
        return p;
    }

    private void op(byte kind, long key, long v) {
        if (ops == opKind.length) {
            opKind = Arrays.copyOf(opKind, ops * 2);
            opKey = Arrays.copyOf(opKey, ops * 2);
            opValue = Arrays.copyOf(opValue, ops * 2);
        }
        opKind[ops] = kind;
        opKey[ops] = key;
        opValue[ops++] = v;
    }

    /** Cumulative shape weights; two-key shapes get none when there is a single key. */
    private double[] shapeWeights() {
        double[] c = new double[SHAPES.length];
        double sum = 0;
        for (int i = 0; i < SHAPES.length; i++) {
            double w = spec.shapes().isEmpty() ? 1.0 : spec.shapes().getOrDefault(SHAPES[i], 0.0);
            if (spec.keys() < 2 && SHAPES[i].twoKeys()) w = 0;
            sum += w;
            c[i] = sum;
        }
        if (sum <= 0) throw new IllegalArgumentException("no mini-transaction shape has a positive weight"
                + (spec.keys() < 2 ? " (two-key shapes need at least 2 keys)" : ""));
        return c;
    }

    private int pick(double[] cumulative) {
        double u = rnd.nextDouble() * cumulative[cumulative.length - 1];
        for (int i = 0; i < cumulative.length; i++) if (u < cumulative[i]) return i;
        return cumulative.length - 1;
    }
}
