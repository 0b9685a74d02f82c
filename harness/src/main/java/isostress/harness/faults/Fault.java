package isostress.harness.faults;

import java.io.IOException;
import java.util.Set;

/**
 * One kind of fault the nemesis can inject: kill, pause, partition, latency, drop, and the role faults of a cluster
 * with a failover manager ({@link Faults} lists them). A
 * fault says what it needs and how to begin and heal it on one node; when and where is the {@link Nemesis}'s choice.
 * Adding a fault is one class implementing this plus one line in {@link Faults}.
 *
 * <p>The history records each injection as {@code start-<name>} and {@code stop-<name>} events of process
 * {@code nemesis} with value {@code {"node": ..}}; the stop event also carries {@link #healTimeKey()} when the fault
 * times its healing. On a cluster with a failover manager both also carry the primary: {@code leader-before} on the
 * start event, {@code leader-after} (once the cluster has one again) on the stop event.
 */
public interface Fault {
    /** What a campaign's {@code nemesis.faults} lists, and the suffix of the history's {@code start-}/{@code stop-}. */
    String name();

    /** What must be in place before this fault can be injected. */
    Set<Need> needs();

    /** The fault aimed at {@code target}, not yet begun. */
    Active on(FaultTarget target);

    /** False for a fault that is over once begun (drop): the nemesis heals it at once instead of after the duration. */
    default boolean lasts() {
        return true;
    }

    /**
     * True for a fault aimed at a role, not a node: the nemesis looks up the primary when the fault strikes (it moves
     * in a failover) and aims the fault there; the node it drew is not used.
     */
    default boolean onPrimary() {
        return false;
    }

    /**
     * Waits, at most {@code wait}, for the cluster to be as this fault needs it before it strikes; the wait is not part
     * of the fault (its start is recorded after). A switchover waits for a replica the manager would promote, as an
     * operator does before planned maintenance; other faults strike at once. Returns without error when the wait is
     * over in vain: the fault is then tried, and fails with the manager's own reason.
     */
    default void awaitReady(isostress.harness.db.Failover failover, java.time.Duration wait)
            throws IOException, InterruptedException {
    }

    /**
     * The stop event's key for how long healing took, in milliseconds (kill: {@code restart-ms}, the time until the
     * node served clients again; results.json's {@code healMillis}), or null when healing is not timed (then 0).
     */
    default String healTimeKey() {
        return null;
    }

    /** What a fault needs. */
    enum Need {
        /** A database isostress started (any provision but external), whose nodes it can signal. */
        STARTED_DATABASE,
        /** iptables and root: {@link Iptables} installs its chain when the nemesis starts and removes it at the end. */
        IPTABLES,
        /** A {@link TcpProxy} in front of each node, through which the clients connect. */
        CLIENT_PROXY,
        /** A failover manager that elects the primary ({@link isostress.harness.db.Failover}: Patroni). */
        FAILOVER_MANAGER
    }

    /** One step of a fault: may fail (the error is recorded), may wait (a restart). */
    @FunctionalInterface
    interface Step {
        void run() throws IOException, InterruptedException;
    }

    /**
     * A fault on one node. The nemesis calls {@code heal} after {@code begin} even when {@code begin} failed, since
     * it may have failed part way (some partition rules added, some processes stopped) and what was done must be undone.
     */
    record Active(Step begin, Step heal) {
        /** A fault with nothing to heal (drop). */
        public static Active once(Step begin) {
            return new Active(begin, () -> { });
        }
    }
}
