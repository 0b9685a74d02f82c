package isostress.generator.sim;

import isostress.checker.history.History;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;
import isostress.checker.model.MtcAnomaly;

import java.util.ArrayList;
import java.util.List;

/**
 * Injects one instance of each of MTC's 14 anomalies (Wei et al., Fig. 5, Table I) into a history: the anomaly's
 * mini-transactions are appended on two fresh keys, run by fresh processes, all overlapping one another after the
 * history's last event (so real time adds nothing), except where the anomaly needs a session. The rest of the
 * history is untouched, so a valid history becomes invalid exactly at the levels the anomaly violates (under
 * Biswas &amp; Enea's axioms; e.g. WriteSkew only at serializable and above).
 *
 * <p>Fresh keys start at the history's initial value for them (0 in simulated histories, absent otherwise).
 */
public final class AnomalyInjector {
    private AnomalyInjector() {
    }

    /** {@code base} plus one instance of {@code anomaly}. */
    public static History inject(History base, MtcAnomaly anomaly) {
        long maxKey = 0, maxProcess = 0, maxIndex = -1;
        for (int t = 0; t < base.size(); t++) {
            maxProcess = Math.max(maxProcess, base.process(t));
            maxIndex = Math.max(maxIndex, Math.max(base.invokeIndex(t), base.completeIndex(t)));
            for (int o = base.firstOp(t); o < base.endOp(t); o++) maxKey = Math.max(maxKey, base.opKey(o));
        }
        long x = maxKey + 1, y = maxKey + 2;
        Long init = base.initial().valueOf(x);
        Pattern p = new Pattern(x, y, init == null ? null : init, maxProcess + 1, maxIndex + 1);
        build(p, anomaly);
        History.Builder b = History.builder().source(base.source()).initial(base.initial()).realTime(base.realTime());
        for (Txn t : base) b.add(t);
        for (Txn t : p.txns) b.add(t);
        return b.build();
    }

    private static void build(Pattern p, MtcAnomaly a) {
        Long i = p.init;
        switch (a) {
            case THIN_AIR_READ: p.concurrent(p.ops(p.r(p.x, p.fresh()))); break;
            case ABORTED_READ:
                p.serial(Outcome.FAIL, p.ops(p.r(p.x, i), p.w(p.x, 1)));
                p.serial(Outcome.OK, p.ops(p.r(p.x, p.v(1))));
                break;
            case FUTURE_READ: p.concurrent(p.ops(p.r(p.x, p.v(1)), p.w(p.x, 1))); break;
            case NOT_MY_LAST_WRITE: p.concurrent(p.ops(p.r(p.x, i), p.w(p.x, 1), p.w(p.x, 2), p.r(p.x, p.v(1)))); break;
            case NOT_MY_OWN_WRITE: p.concurrent(p.ops(p.r(p.x, i), p.w(p.x, 1), p.r(p.x, i))); break;
            case INTERMEDIATE_READ:
                p.serial(Outcome.OK, p.ops(p.r(p.x, i), p.w(p.x, 1), p.w(p.x, 2)));
                p.serial(Outcome.OK, p.ops(p.r(p.x, p.v(1))));
                break;
            case NON_REPEATABLE_READS:
                p.concurrent(p.ops(p.r(p.x, i), p.w(p.x, 1)), p.ops(p.r(p.x, i), p.r(p.x, p.v(1))));
                break;
            case SESSION_GUARANTEE_VIOLATION:
                p.sameSession(p.ops(p.r(p.x, i), p.w(p.x, 1)), p.ops(p.r(p.x, i)));
                break;
            case NON_MONOTONIC_READ:
                p.concurrent(p.ops(p.r(p.x, i), p.w(p.x, 1)),
                        p.ops(p.r(p.x, p.v(1)), p.w(p.x, 2), p.r(p.y, i), p.w(p.y, 3)),
                        p.ops(p.r(p.y, p.v(3)), p.r(p.x, p.v(1))));
                break;
            case FRACTURED_READ:
                p.concurrent(p.ops(p.r(p.x, i), p.r(p.y, i), p.w(p.x, 1), p.w(p.y, 2)),
                        p.ops(p.r(p.y, i), p.r(p.x, p.v(1))));
                break;
            case CAUSALITY_VIOLATION:
                p.concurrent(p.ops(p.r(p.x, i), p.w(p.x, 1)), p.ops(p.r(p.x, p.v(1)), p.r(p.y, i), p.w(p.y, 2)),
                        p.ops(p.r(p.y, p.v(2)), p.r(p.x, i)));
                break;
            case LONG_FORK:
                p.concurrent(p.ops(p.r(p.x, i), p.w(p.x, 1)), p.ops(p.r(p.y, i), p.w(p.y, 2)),
                        p.ops(p.r(p.x, p.v(1)), p.r(p.y, i)), p.ops(p.r(p.y, p.v(2)), p.r(p.x, i)));
                break;
            case LOST_UPDATE:
                p.concurrent(p.ops(p.r(p.x, i), p.w(p.x, 1)), p.ops(p.r(p.x, i), p.w(p.x, 2)));
                break;
            case WRITE_SKEW:
                p.concurrent(p.ops(p.r(p.x, i), p.r(p.y, i), p.w(p.x, 1)), p.ops(p.r(p.x, i), p.r(p.y, i), p.w(p.y, 2)));
                break;
            default:
                throw new IllegalArgumentException(a.toString());
        }
    }

    /** Builds the appended transactions: values are fresh (a large base plus a small number). */
    private static final class Pattern {
        final long x, y;
        final Long init;
        long process, index;
        final List<Txn> txns = new ArrayList<>();
        private final long valueBase = 1_000_000_007L;

        Pattern(long x, long y, Long init, long process, long index) {
            this.x = x;
            this.y = y;
            this.init = init;
            this.process = process;
            this.index = index;
        }

        Long v(int n) {
            return valueBase + n;
        }

        Long fresh() {
            return valueBase + 999;
        }

        MicroOp r(long k, Long v) {
            return new MicroOp.Read(k, v);
        }

        MicroOp w(long k, int n) {
            return new MicroOp.Write(k, valueBase + n);
        }

        List<MicroOp> ops(MicroOp... ops) {
            return List.of(ops);
        }

        /** All invoked, then all completed ok, each by its own fresh process. */
        @SafeVarargs
        final void concurrent(List<MicroOp>... txnOps) {
            long inv = index;
            index += txnOps.length;
            for (List<MicroOp> ops : txnOps) {
                txns.add(new Txn(0, process++, Outcome.OK, ops, inv++, index++, -1, -1, 0, null, null));
            }
        }

        /** One transaction alone, by a fresh process. */
        void serial(Outcome outcome, List<MicroOp> ops) {
            txns.add(new Txn(0, process++, outcome, ops, index, index + 1, -1, -1, 0, null, null));
            index += 2;
        }

        /** Transactions one after the other in one fresh session. */
        @SafeVarargs
        final void sameSession(List<MicroOp>... txnOps) {
            long p = process++;
            for (List<MicroOp> ops : txnOps) {
                txns.add(new Txn(0, p, Outcome.OK, ops, index, index + 1, -1, -1, 0, null, null));
                index += 2;
            }
        }
    }
}
