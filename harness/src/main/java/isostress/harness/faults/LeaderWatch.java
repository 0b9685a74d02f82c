package isostress.harness.faults;

import isostress.harness.db.Failover;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Watches who leads a failover-managed cluster while the nemesis runs: one thread asks the manager every
 * {@link #PERIOD_MILLIS} ms and records each change as an event of the history ({@code leader {"node": "n2"}},
 * {@code "none"} while no member leads), the first look included. The history then says when a new primary was
 * named, which is what a fault's {@code newPrimaryMillis} is read from. A look that gets no answer (every member
 * down or cut off) records nothing; each look is bounded by the manager's short timeouts, so the watch never holds
 * the run up, and it stops with the nemesis.
 */
final class LeaderWatch implements AutoCloseable {
    static final long PERIOD_MILLIS = 200;
    private final Failover failover;
    private final Nemesis.EventSink sink;
    private final Thread thread;
    private volatile boolean stopping;
    private String last;

    LeaderWatch(Failover failover, Nemesis.EventSink sink) {
        this.failover = failover;
        this.sink = sink;
        this.thread = new Thread(this::loop, "leader-watch");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void loop() {
        while (!stopping) {
            long t0 = System.nanoTime();
            Optional<String> leader;
            try {
                leader = failover.leaderName();
            } catch (RuntimeException e) {
                leader = Optional.empty(); // the manager could not be asked: nothing to record
            }
            if (stopping) return;
            if (leader.isPresent() && !leader.get().equals(last)) {
                last = leader.get();
                Map<String, Object> value = new LinkedHashMap<>();
                value.put("node", last);
                sink.event("leader", value);
            }
            long left = TimeUnit.MILLISECONDS.toNanos(PERIOD_MILLIS) - (System.nanoTime() - t0);
            if (left > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(left);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** Stops the watch; a look under way ends within its timeouts, and records nothing after this returns. */
    @Override
    public void close() {
        stopping = true;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
