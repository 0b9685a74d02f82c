package isostress.generator.sim;

import isostress.checker.history.InitialState;
import isostress.checker.history.Outcome;
import isostress.checker.model.IsolationLevel;

import java.io.IOException;
import java.util.Locale;

/**
 * Passes a simulated run through to another sink and inserts {@code count} instances of one violation, spread evenly
 * over the run, for benchmarks of the checker on invalid histories ({@code bench check --inject}). Each instance is
 * two concurrent mini-transactions on fresh keys (keys after the simulation's; they start at 0 like every key),
 * run by fresh processes, so the rest of the history is untouched and its verdict known: a lost update
 * (MTC Fig. 5: both read x=0 and write x) violates SI and above; a write skew (both read x=0 and y=0, one writes x,
 * the other y) violates serializable and above only. Events are renumbered so indices stay one global order.
 */
public final class ViolationSink implements TxnSink {
    /** The violations a benchmark can inject. */
    public enum Kind {
        LOST_UPDATE("lost-update"), WRITE_SKEW("write-skew");

        private final String cliName;

        Kind(String cliName) {
            this.cliName = cliName;
        }

        public String cliName() {
            return cliName;
        }

        /** The strongest level the instance does not violate: PC for a lost update, SI for a write skew. */
        public IsolationLevel strongestValid() {
            return this == LOST_UPDATE ? IsolationLevel.PREFIX : IsolationLevel.SNAPSHOT_ISOLATION;
        }
    }

    /** What to inject: {@code count} instances of {@code kind}; parsed from {@code kind:count}. */
    public record Spec(Kind kind, int count) {
        public Spec {
            if (count < 1) throw new IllegalArgumentException("the count of injected violations must be >= 1");
        }

        /** {@code lost-update:100}, {@code write-skew:1}, or {@code lost-update} (one); null when malformed. */
        public static Spec parse(String s) {
            String[] parts = s.trim().toLowerCase(Locale.ROOT).split(":", -1);
            if (parts.length > 2) return null;
            int count = 1;
            if (parts.length == 2) {
                try {
                    count = Integer.parseInt(parts[1]);
                } catch (NumberFormatException e) {
                    return null;
                }
                if (count < 1) return null;
            }
            for (Kind k : Kind.values()) if (k.cliName.equals(parts[0])) return new Spec(k, count);
            return null;
        }

        @Override
        public String toString() {
            return kind.cliName + ":" + count;
        }
    }

    /** Process ids of injected transactions start here, far above a simulation's (sessions plus retirements). */
    private static final long FIRST_PROCESS = 1L << 40;

    private final TxnSink out;
    private final Spec spec;
    private final long spacing;
    private final long firstKey;
    private final TxnOps a = new TxnOps(), b = new TxnOps();
    private long index, invokes, process = FIRST_PROCESS;
    private int injected;

    /**
     * @param txns     transactions the simulation will invoke (to spread the violations over the run)
     * @param firstKey the first key the simulation never uses
     */
    public ViolationSink(TxnSink out, Spec spec, int txns, long firstKey) {
        this.out = out;
        this.spec = spec;
        this.spacing = Math.max(1, txns / (spec.count() + 1L));
        this.firstKey = firstKey;
    }

    @Override
    public void header(InitialState initial) throws IOException {
        if (initial.valueOf(firstKey) == null || initial.valueOf(firstKey) != 0L) {
            throw new IllegalArgumentException("violations are injected on keys that start at 0");
        }
        out.header(initial);
    }

    @Override
    public void invoke(long ignored, long p, TxnOps ops) throws IOException {
        if (injected < spec.count() && ++invokes % spacing == 0) inject();
        out.invoke(index++, p, ops);
    }

    @Override
    public void complete(long ignored, long p, Outcome outcome, TxnOps ops) throws IOException {
        out.complete(index++, p, outcome, ops);
    }

    @Override
    public void finish() throws IOException {
        while (injected < spec.count()) inject();
        out.finish();
    }

    /** The two transactions of one instance, both invoked before either completes, on two keys of their own. */
    private void inject() throws IOException {
        long x = firstKey + 2L * injected, y = x + 1;
        a.clear();
        b.clear();
        if (spec.kind() == Kind.LOST_UPDATE) {
            a.read(x);
            a.write(x, 1);
            b.read(x);
            b.write(x, 2);
        } else {
            a.read(x);
            a.read(y);
            a.write(x, 1);
            b.read(x);
            b.read(y);
            b.write(y, 1);
        }
        long pa = process++, pb = process++;
        out.invoke(index++, pa, a);
        out.invoke(index++, pb, b);
        for (TxnOps t : new TxnOps[] {a, b}) {
            for (int i = 0; i < t.size; i++) {
                if (t.isRead(i)) {
                    t.value[i] = 0;
                    t.unknown[i] = false;
                }
            }
        }
        out.complete(index++, pa, Outcome.OK, a);
        out.complete(index++, pb, Outcome.OK, b);
        injected++;
    }
}
