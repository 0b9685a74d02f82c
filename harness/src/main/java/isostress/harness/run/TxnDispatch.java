package isostress.harness.run;

import isostress.generator.workload.Workload;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which generated transaction a session runs next.
 *
 * <p>Without key rotation each session runs its own share ({@link Workload#txn}: transaction t belongs to session
 * t mod sessions), so a session's transactions are the same in every run with the seed. With {@code rotate-after},
 * keys are retired in generation order, and a per-session share would let sessions drift apart: after a few seconds
 * one session works on keys another retired long ago, and concurrent transactions rarely meet on a fresh key. So
 * with rotation every session takes the next transaction in generation order from one shared cursor (as Jepsen's
 * generators hand each worker the next operation): concurrent transactions are neighbours in generation order and
 * share the same live keys. The transactions are still the seed's; only which session runs which depends on timing.
 */
sealed interface TxnDispatch {
    /** The next transaction for {@code session}, or -1 when none is left. Thread-safe. */
    int next(int session);

    static TxnDispatch of(Workload workload) {
        return workload.spec().rotateAfter() > 0 ? new Shared(workload.size(), new AtomicInteger())
                : new PerSession(workload, new int[workload.spec().sessions()]);
    }

    /** Session s runs transactions s, s + sessions, s + 2 sessions, ... */
    record PerSession(Workload workload, int[] done) implements TxnDispatch {
        @Override
        public int next(int session) {
            // Only session's own thread touches done[session].
            int i = done[session];
            if (i >= workload.sessionSize(session)) return -1;
            done[session] = i + 1;
            return workload.txn(session, i);
        }
    }

    /** Every session takes the next transaction in generation order. */
    record Shared(int size, AtomicInteger cursor) implements TxnDispatch {
        @Override
        public int next(int session) {
            int t = cursor.getAndIncrement();
            return t < size ? t : -1;
        }
    }
}
