package isostress.harness.run;

/**
 * When each transaction is meant to start under {@code workload.rate} (open loop): transaction t at
 * {@code start + t / rate}. One global schedule in generation order, which is also each session's own: with the
 * per-session dispatch session s runs t = s, s + n, s + 2n, ... (n sessions), so its slots come every n / rate
 * seconds, staggered by 1 / rate between sessions (wrk2's per-connection schedule); with key rotation the shared
 * cursor hands out t in order, so the slots are taken in order by whichever session is free. Either way a session
 * behind its schedule starts at once and its latency counts from the slot, so a stall delays, and is counted by,
 * every transaction scheduled behind it (no coordinated omission). Slots are never skipped: a run that falls
 * behind catches up as fast as the sessions go, as a backlog of real users would.
 *
 * @param startNanos the run's time zero ({@link System#nanoTime})
 * @param rate       transactions per second over all sessions; 0: closed loop, no schedule
 */
record Schedule(long startNanos, double rate) {
    /** No rate: each transaction is intended to start when it does. */
    boolean open() {
        return rate > 0;
    }

    /** The nanoTime transaction {@code t} is intended to start at (open loop only). */
    long intended(int t) {
        return startNanos + (long) (t * 1e9 / rate);
    }
}
