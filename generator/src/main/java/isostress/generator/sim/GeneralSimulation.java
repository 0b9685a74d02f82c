package isostress.generator.sim;

import isostress.checker.history.History;
import isostress.checker.history.InitialState;
import isostress.checker.history.Outcome;
import isostress.checker.model.IsolationLevel;
import isostress.generator.KeyDistribution;

import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A simulated key-value store running random general transactions (any number of reads and writes, or list reads
 * and appends, on any keys) from concurrent sessions, recording the history a client would see. The history is
 * valid by construction at the configured level, following Biswas &amp; Enea's axiomatic definitions (OOPSLA 2019,
 * §2.2): there is a commit order co (the order in which the simulation commits transactions) containing session
 * order and read-from, and every external read of a transaction returns the co-latest write among a visible set of
 * committed transactions whose shape the level constrains. Deterministic from the seed. For differential tests and
 * benchmarks of general-transaction checkers.
 *
 * <p>Each step picks a random session and advances its transaction: invoke (the operations are drawn, every write
 * gets a fresh value), execute and commit (or abort), complete. Invocation and completion get consecutive indices
 * of one global event counter, used for both index and time, so real-time order is meaningful. The visible set:
 *
 * <ul>
 *   <li>{@link Level#STRICT_SERIALIZABLE}: everything committed when the transaction executes, atomically, at one
 *       step between its invocation and its completion.</li>
 *   <li>{@link Level#SERIALIZABLE}: the same, except that a read-only transaction may (with probability 1/2) read an
 *       older prefix of the commit order, no older than its session's previous transaction; it is then serialized
 *       at that point (it writes nothing, so that is a valid commit order). Such histories may violate strict
 *       serializability (stale reads).</li>
 *   <li>{@link Level#SNAPSHOT_ISOLATION}: the snapshot at invocation; commit at a later step, unless a transaction
 *       that committed after the snapshot wrote a key this one writes (first committer wins: recorded
 *       {@code fail}).</li>
 *   <li>{@link Level#PREFIX}: the snapshot at invocation, no write-conflict check (lost updates happen). For list
 *       append only: a transaction that reads a key after appending to it aborts when another transaction appended
 *       to that key after its snapshot, so that every observed list is a prefix of the key's single append order
 *       (otherwise its own appends would be observed before elements that precede them in the final list).</li>
 *   <li>{@link Level#CAUSAL}: a random causally closed set containing the session's earlier transactions: the
 *       session's previous transaction's closure merged with the closures of randomly chosen transactions of the
 *       other sessions, for each other session one of its recent commits or none, biased towards older ones
 *       (represented as per-session prefixes, i.e. vector clocks).</li>
 *   <li>{@link Level#READ_ATOMIC}: the session's earlier transactions, everything committed up to a random recent
 *       point, and a random subset of the later commits; not causally closed; the same set for every read.</li>
 *   <li>{@link Level#READ_COMMITTED}: as read atomic, but each read draws a new set containing the previous read's
 *       (monotone within the transaction).</li>
 * </ul>
 *
 * Staleness is bounded (at most {@code 4 * sessions} commits behind, or 4 per session for causal) so that a run
 * costs time linear in its operations.
 *
 * <p>Register workload: the initial state is every key absent ({@link InitialState#ABSENT}, a read of it is
 * {@code read(key, null)}); written values count up from 1 per key, so a value is never written twice to a key.
 * A read after the transaction's own write of the key returns that write; only a transaction's last write of a key
 * becomes visible to others. List-append workload: lists start empty; a read returns the appends of the visible
 * transactions in commit order followed by the transaction's own earlier appends; only the prefix-visibility levels
 * (PREFIX and stronger) are supported, since a visible set that skips a transaction would show a list missing a
 * middle element.
 *
 * <p>With probability {@code failRate} a transaction aborts ({@code fail}, with its reads as it saw them); with
 * probability {@code infoRate} its outcome is unknown ({@code info}): it takes effect or not (50/50), its reads are
 * recorded as unknown ({@code null}, list reads {@code null}), and its process is retired: the session continues as
 * process {@code p + sessions} (Jepsen's convention).
 *
 * <p>This class is the clients: it schedules the sessions, draws each transaction's operations and records what they
 * saw; {@link SimulatedStore} is the store (versions, visible sets, commits), {@link PendingTxn} a transaction in
 * flight.
 */
public final class GeneralSimulation {

    /** What the transactions do. */
    public enum Workload {
        /** Register reads and writes. */
        RW_REGISTER,
        /** List reads and appends. */
        LIST_APPEND
    }

    /** The isolation the simulated store provides. */
    public enum Level {
        READ_COMMITTED(IsolationLevel.READ_COMMITTED),
        READ_ATOMIC(IsolationLevel.READ_ATOMIC),
        CAUSAL(IsolationLevel.CAUSAL),
        PREFIX(IsolationLevel.PREFIX),
        SNAPSHOT_ISOLATION(IsolationLevel.SNAPSHOT_ISOLATION),
        SERIALIZABLE(IsolationLevel.SERIALIZABLE),
        STRICT_SERIALIZABLE(IsolationLevel.STRICT_SERIALIZABLE);

        private final IsolationLevel isolationLevel;

        Level(IsolationLevel l) {
            this.isolationLevel = l;
        }

        /** The checker's level, which every history simulated at this level satisfies. */
        public IsolationLevel isolationLevel() {
            return isolationLevel;
        }

        /** True when every visible set is a prefix of the commit order (PREFIX and stronger). */
        public boolean prefixVisibility() {
            return compareTo(PREFIX) >= 0;
        }

        /** Whether this level can be simulated with workload {@code w}. */
        public boolean supports(Workload w) {
            return w == Workload.RW_REGISTER || prefixVisibility();
        }

        /** The simulated level for a checker level; LINEARIZABLE has none. */
        public static Level of(IsolationLevel l) {
            for (Level v : values()) if (v.isolationLevel == l) return v;
            throw new IllegalArgumentException("no simulated level for " + l);
        }
    }

    /**
     * @param txns      transactions invoked, across all sessions
     * @param sessions  concurrent sessions
     * @param opsPerTxn the maximum number of operations of a transaction (each gets 1..opsPerTxn uniformly)
     * @param fixedOps  every transaction gets exactly {@code opsPerTxn} operations
     * @param readRatio probability that an operation is a read
     * @param keys      key distribution (and key count)
     * @param workload  registers or lists
     * @param level     what the store provides
     * @param failRate  probability that a transaction aborts
     * @param infoRate  probability that a transaction's outcome is unknown
     * @param seed      random seed
     */
    public record Config(int txns, int sessions, int opsPerTxn, boolean fixedOps, double readRatio,
                         KeyDistribution keys, Workload workload, Level level, double failRate, double infoRate,
                         long seed) {
        public Config {
            if (txns < 0) throw new IllegalArgumentException("txns must be >= 0, was " + txns);
            if (sessions < 1) throw new IllegalArgumentException("sessions must be >= 1, was " + sessions);
            if (opsPerTxn < 1) throw new IllegalArgumentException("opsPerTxn must be >= 1, was " + opsPerTxn);
            if (!(readRatio >= 0 && readRatio <= 1)) {
                throw new IllegalArgumentException("readRatio must be in [0, 1], was " + readRatio);
            }
            Objects.requireNonNull(keys, "keys");
            Objects.requireNonNull(workload, "workload");
            Objects.requireNonNull(level, "level");
            if (!(failRate >= 0 && infoRate >= 0 && failRate + infoRate <= 1)) {
                throw new IllegalArgumentException("fail and info rates must be probabilities summing to <= 1");
            }
            if (!level.supports(workload)) {
                throw new IllegalArgumentException(workload + " needs a prefix-visibility level (PREFIX or "
                        + "stronger), not " + level + ": a visible set skipping a transaction would show a list "
                        + "missing a middle element");
            }
        }

        /** A run without failures, half reads, 1..opsPerTxn operations per transaction. */
        public static Config of(Level level, Workload workload, int txns, int sessions, int opsPerTxn,
                                KeyDistribution keys, long seed) {
            return new Config(txns, sessions, opsPerTxn, false, 0.5, keys, workload, level, 0, 0, seed);
        }

        public Config withSeed(long s) {
            return new Config(txns, sessions, opsPerTxn, fixedOps, readRatio, keys, workload, level, failRate,
                    infoRate, s);
        }
    }

    private static final int IDLE = 0, INVOKED = 1, EXECUTED = 2;

    private final Config c;
    private final SplittableRandom rnd;
    private final int n;
    private final boolean lists;
    private final long[] lastValue;
    private final SimulatedStore store;
    private final History.Builder b = History.builder().source("general-simulation").initial(InitialState.ABSENT)
            .realTime(true);
    private final PendingTxn[] pending;
    private long index;

    private GeneralSimulation(Config c) {
        this.c = c;
        this.rnd = new SplittableRandom(c.seed());
        this.n = c.sessions();
        this.lists = c.workload() == Workload.LIST_APPEND;
        lastValue = new long[c.keys().keys()];
        store = new SimulatedStore(c, rnd);
        pending = new PendingTxn[n];
        for (int s = 0; s < n; s++) pending[s] = new PendingTxn();
    }

    /** Runs the simulation and returns its history. */
    public static History history(Config c) {
        return new GeneralSimulation(c).run();
    }

    /**
     * The store's commit log, as a database's would be (docs/witness.md): each committed transaction's writes (every
     * write, in program order; appends for list-append), in commit order, which is each key's version order.
     */
    public interface CommitLog {
        /** Commit number {@code pos} wrote {@code values[i]} to {@code keys[i]}, for i below {@code count}. */
        void committed(long pos, long[] keys, long[] values, int count);
    }

    /** Runs the simulation, telling {@code log} each commit, and returns its history. */
    public static History history(Config c, CommitLog log) {
        GeneralSimulation sim = new GeneralSimulation(c);
        sim.store.commitLog = log;
        return sim.run();
    }

    private History run() {
        int[] state = new int[n];
        long[] process = new long[n];
        for (int s = 0; s < n; s++) process[s] = s;
        int[] active = new int[n];
        for (int s = 0; s < n; s++) active[s] = s;
        int activeCount = n;
        int issued = 0;
        while (activeCount > 0) {
            int ai = rnd.nextInt(activeCount);
            int s = active[ai];
            PendingTxn p = pending[s];
            switch (state[s]) {
                case IDLE:
                    if (issued == c.txns()) {
                        active[ai] = active[--activeCount];
                        continue;
                    }
                    issued++;
                    plan(p);
                    p.id = b.reserve(process[s], Outcome.INFO, index, History.PENDING, index, -1, 0);
                    index++;
                    p.snap = store.commitCount();
                    state[s] = INVOKED;
                    break;
                case INVOKED: {
                    double r = rnd.nextDouble();
                    if (r < c.failRate()) {
                        store.execute(s, p, false);
                        complete(p, Outcome.FAIL);
                        state[s] = IDLE;
                    } else if (r < c.failRate() + c.infoRate()) {
                        if (rnd.nextBoolean()) store.execute(s, p, true);
                        complete(p, Outcome.INFO);
                        process[s] += n;
                        state[s] = IDLE;
                    } else if (store.execute(s, p, true)) {
                        state[s] = EXECUTED;
                    } else {
                        complete(p, Outcome.FAIL); // first committer wins (or the list-append prefix rule)
                        state[s] = IDLE;
                    }
                    break;
                }
                default:
                    complete(p, Outcome.OK);
                    state[s] = IDLE;
            }
        }
        return b.build();
    }

    /** Draws the transaction's operations; every write gets a fresh value of its key. */
    private void plan(PendingTxn p) {
        p.size = 0;
        p.readOnly = true;
        int ops = c.fixedOps() ? c.opsPerTxn() : 1 + rnd.nextInt(c.opsPerTxn());
        p.ensure(ops);
        for (int i = 0; i < ops; i++) {
            int k = c.keys().next(rnd);
            p.key[i] = k;
            if (rnd.nextDouble() < c.readRatio()) {
                p.kind[i] = PendingTxn.READ;
            } else {
                p.kind[i] = PendingTxn.WRITE;
                p.value[i] = ++lastValue[k];
                p.readOnly = false;
            }
            p.listLen[i] = 0;
        }
        p.size = ops;
    }

    /** Records the transaction's completion and its operations as the client saw them. */
    private void complete(PendingTxn p, Outcome outcome) {
        b.complete(p.id, outcome, index, index, 0);
        index++;
        boolean unknown = outcome == Outcome.INFO;
        b.opsFor(p.id);
        for (int i = 0; i < p.size; i++) {
            long k = p.key[i];
            if (p.kind[i] == PendingTxn.WRITE) {
                if (lists) b.append(k, p.value[i]); else b.write(k, p.value[i]);
            } else if (lists) {
                if (unknown) b.listRead(k, null, 0); else b.listRead(k, p.list[i], p.listLen[i]);
            } else if (unknown || p.nul[i]) {
                b.readNull(k);
            } else {
                b.read(k, p.value[i]);
            }
        }
        b.endTxn();
    }
}
