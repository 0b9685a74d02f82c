package isostress.harness.db;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * A cluster whose primary is chosen by a failover manager (Patroni): which member is the primary now, and the
 * manager's own parts a fault can act on separately from the database server. The role faults
 * ({@code crash-primary}, {@code switchover}, ...) look the primary up through this when they strike, since it moves.
 */
public interface Failover {
    /** The member the manager says is the primary now; empty while there is none (during a failover). */
    Optional<DbNode> primary();

    /**
     * Who leads as the manager says now, asked with short timeouts so that a watcher can poll it often: a member's
     * name, {@code "none"} while no member leads, empty when the manager could not be asked at all.
     */
    default Optional<String> leaderName() {
        return Optional.of(primary().map(DbNode::name).orElse("none"));
    }

    /** Waits at most {@code wait} until the manager names a running primary; empty when it did not. */
    default Optional<DbNode> awaitPrimary(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            Optional<DbNode> p = primary();
            if (p.isPresent() || System.nanoTime() > deadline) return p;
            Thread.sleep(200);
        }
    }

    /** SIGKILL of {@code member}'s database server and its backends; the manager stays and restarts it. */
    void killServer(DbNode member) throws IOException;

    /** SIGKILL of {@code member}'s manager only; its database server lives on, unmanaged. */
    void killManager(DbNode member) throws IOException;

    /**
     * Waits until {@code member} runs again as the manager reports it: after {@link #killServer}, or after its
     * manager was started again ({@link DbNode#restart()} starts a killed manager).
     */
    void awaitRunning(DbNode member, Duration wait) throws IOException, InterruptedException;

    /**
     * The traffic that links {@code member} to the rest of the cluster (the manager's consensus store, the other
     * members' replication and API calls) but not to its clients, as TCP packet matches for iptables (e.g.
     * {@code -d 127.0.0.2 --dport 5432}): what a partition drops.
     */
    java.util.List<java.util.List<String>> links(DbNode member) throws IOException;

    /** A planned switchover away from {@code primary}, to a member the manager picks; returns when it is done. */
    void switchover(DbNode primary) throws IOException, InterruptedException;

    /**
     * Waits at most {@code wait} until the manager would accept a switchover, as an operator waits for a healthy
     * cluster before planned maintenance: a running replica it may promote (under synchronous replication, the
     * synchronous standby, which the new primary names a few seconds after a failover). False when none came.
     */
    default boolean awaitSwitchoverCandidate(Duration wait) throws IOException, InterruptedException {
        return true;
    }
}
