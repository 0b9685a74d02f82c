package isostress.generator.sim;

import isostress.checker.history.History;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;
import isostress.checker.model.MtcAnomaly;
import isostress.generator.KeyDistribution;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Small random mini-transaction histories for differential tests: valid ones from the simulated serializable and
 * snapshot-isolation stores, and mutated ones (a read returns another value, an outcome changes, a transaction
 * moves to another session or stretches in real time, an anomaly is injected). Deterministic per seed.
 */
final class RandomMiniHistories {
    /** A history and how it was made. */
    record Sample(History history, String origin, boolean validByConstruction) {
    }

    private RandomMiniHistories() {
    }

    static Sample sample(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int sessions = 1 + rnd.nextInt(3);
        int txns = 2 + rnd.nextInt(5);
        int keys = 1 + rnd.nextInt(3);
        MiniSimulation.Isolation iso = rnd.nextInt(3) == 0 ? MiniSimulation.Isolation.SNAPSHOT_ISOLATION
                : MiniSimulation.Isolation.SERIALIZABLE;
        double fail = rnd.nextInt(4) == 0 ? 0.15 : 0;
        double info = rnd.nextInt(4) == 0 ? 0.15 : 0;
        MiniSimulation.Config c = new MiniSimulation.Config(txns, sessions, new KeyDistribution.Uniform(keys), iso,
                fail, info, rnd.nextLong());
        History h = MiniSimulation.history(c);
        String origin = iso == MiniSimulation.Isolation.SERIALIZABLE ? "ser-sim" : "si-sim";
        int mutations = rnd.nextInt(3) == 0 ? 0 : 1 + rnd.nextInt(2);
        if (mutations == 0) return new Sample(h, origin, true);
        for (int i = 0; i < mutations; i++) {
            int kind = rnd.nextInt(10);
            if (kind == 9) {
                MtcAnomaly a = MtcAnomaly.values()[rnd.nextInt(MtcAnomaly.values().length)];
                h = AnomalyInjector.inject(h, a);
                origin += "+" + a.mtcName();
            } else {
                h = mutate(h, kind, rnd);
                origin += "+m" + kind;
            }
        }
        return new Sample(h, origin, false);
    }

    private static History mutate(History h, int kind, SplittableRandom rnd) {
        List<Txn> txns = new ArrayList<>(h.txns());
        if (txns.isEmpty()) return h;
        int i = rnd.nextInt(txns.size());
        Txn t = txns.get(i);
        Txn m = t;
        switch (kind) {
            case 0: case 1: case 2: case 3: { // a read returns another value of its key
                List<Integer> reads = new ArrayList<>();
                for (int o = 0; o < t.ops().size(); o++) if (t.ops().get(o) instanceof MicroOp.Read) reads.add(o);
                if (reads.isEmpty()) return h;
                int o = reads.get(rnd.nextInt(reads.size()));
                long key = t.ops().get(o).key();
                List<Long> candidates = new ArrayList<>();
                candidates.add(0L);
                candidates.add(777_777L); // never written
                for (Txn u : txns) {
                    for (MicroOp op : u.ops()) {
                        if (op instanceof MicroOp.Write && op.key() == key) candidates.add(((MicroOp.Write) op).value());
                    }
                }
                List<MicroOp> ops = new ArrayList<>(t.ops());
                ops.set(o, new MicroOp.Read(key, candidates.get(rnd.nextInt(candidates.size()))));
                m = with(t, t.outcome(), ops, t.process(), t.invokeIndex(), t.completeIndex());
                break;
            }
            case 4: case 5: { // outcome changes
                Outcome o = t.outcome() == Outcome.OK ? (rnd.nextBoolean() ? Outcome.FAIL : Outcome.INFO) : Outcome.OK;
                m = with(t, o, t.ops(), t.process(), t.invokeIndex(), t.completeIndex());
                break;
            }
            case 6: { // moves to another session
                long p = txns.get(rnd.nextInt(txns.size())).process();
                m = with(t, t.outcome(), t.ops(), p == t.process() ? p + 100 : p, t.invokeIndex(), t.completeIndex());
                break;
            }
            default: { // stretches in real time: invoked earlier or completed later
                long max = 0;
                for (Txn u : txns) max = Math.max(max, Math.max(u.invokeIndex(), u.completeIndex()));
                if (rnd.nextBoolean() || t.completeIndex() == History.PENDING) {
                    m = with(t, t.outcome(), t.ops(), t.process(), -1 - rnd.nextInt(3), t.completeIndex());
                } else {
                    m = with(t, t.outcome(), t.ops(), t.process(), t.invokeIndex(), max + 1 + rnd.nextInt(3));
                }
            }
        }
        txns.set(i, m);
        History.Builder b = History.builder().source("random").initial(h.initial()).realTime(h.realTime());
        for (Txn u : txns) b.add(u);
        return b.build();
    }

    private static Txn with(Txn t, Outcome o, List<MicroOp> ops, long process, long inv, long comp) {
        return new Txn(t.id(), process, o, ops, inv, comp, t.invokeTime(), t.completeTime(), t.line(), t.node(),
                t.isolation());
    }
}
