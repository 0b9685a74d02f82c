package isostress.harness.faults;

import isostress.harness.db.DbNode;
import isostress.harness.db.Failover;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Schedules the campaign's faults while the workload runs: wait the interval, pick a fault and a target node
 * (seeded), hold it for the duration, heal it, repeat. What a fault does is its own class ({@link Fault},
 * {@link Faults}); this class only decides when and where, and records. Jepsen style, every start and end is an event in the history
 * (process {@code nemesis}, type {@code info}, f {@code start-<kind>} / {@code stop-<kind>}) and a
 * {@link FaultRecord}. On a cluster with a failover manager, a {@link LeaderWatch} records each change of leader
 * meanwhile. Closing it heals the fault in progress, so nothing outlives the run: killed nodes are
 * started again, paused ones continued, partitions removed.
 */
public final class Nemesis implements AutoCloseable {
    /** Where fault events go (the history recorder). */
    public interface EventSink {
        long now();

        /** One fault event; {@code value} holds strings and numbers, written as a JSON object. */
        void event(String f, Map<String, Object> value);
    }

    private final NemesisSpec spec;
    private final List<DbNode> nodes;
    private final List<TcpProxy> proxies;
    private final EventSink sink;
    private final Failover failover;
    private final Random random;
    private final List<FaultRecord> records = new ArrayList<>();
    private final Object lock = new Object();
    /** The longest the nemesis waits for a primary to aim a role fault at, and for one after a fault. */
    static final Duration PRIMARY_WAIT = Duration.ofSeconds(60);
    /** How long a fault may wait for the cluster to be as it needs it ({@link Fault#awaitReady}). */
    static final Duration READY_WAIT = Duration.ofSeconds(30);
    /** The longest the nemesis waits, after healing a fault, for the node to be back in its group (a standby streaming). */
    static final Duration REJOIN_WAIT = Duration.ofSeconds(60);
    private Thread thread;
    private LeaderWatch leaderWatch;
    private volatile boolean stopping;
    private boolean closed;

    /**
     * @param proxies the client proxy of each node (null entries, or an empty list, when clients connect directly)
     */
    public Nemesis(NemesisSpec spec, List<DbNode> nodes, List<TcpProxy> proxies, EventSink sink) {
        this(spec, nodes, proxies, sink, null);
    }

    /**
     * @param failover the cluster's failover manager (role faults act through it, and every fault records the
     *                 primary before and after), or null
     */
    public Nemesis(NemesisSpec spec, List<DbNode> nodes, List<TcpProxy> proxies, EventSink sink, Failover failover) {
        this.failover = failover;
        this.spec = spec;
        this.nodes = nodes;
        this.proxies = proxies;
        this.sink = sink;
        this.random = new Random(spec.seed());
    }

    /** True when the faults need a client proxy in front of each node. */
    public static boolean needsProxy(NemesisSpec spec) {
        return spec != null && Faults.anyNeeds(spec.faults(), Fault.Need.CLIENT_PROXY);
    }

    /** True when the faults need iptables. */
    public static boolean needsIptables(NemesisSpec spec) {
        return spec != null && Faults.anyNeeds(spec.faults(), Fault.Need.IPTABLES);
    }

    public void start() throws IOException {
        if (needsIptables(spec)) Iptables.install();
        if (failover != null) {
            leaderWatch = new LeaderWatch(failover, sink);
            leaderWatch.start();
        }
        thread = new Thread(this::loop, "nemesis");
        thread.setDaemon(true);
        thread.start();
    }

    /** The faults so far. */
    public List<FaultRecord> records() {
        synchronized (records) {
            return List.copyOf(records);
        }
    }

    private void loop() {
        while (!stopping) {
            if (!sleep(spec.interval().toMillis())) return;
            // The order of these two draws is the schedule of every seeded campaign (NemesisScheduleTest pins it).
            Fault fault = spec.faults().get(random.nextInt(spec.faults().size()));
            List<Integer> targets = spec.targets().isEmpty() ? null : spec.targets();
            int node = targets == null ? random.nextInt(nodes.size()) : targets.get(random.nextInt(targets.size())) - 1;
            synchronized (lock) {
                if (stopping) return;
                inject(fault, node);
            }
        }
    }

    /**
     * Injects one fault, holds it (unless the run ends first), heals it. A role fault strikes the primary of the
     * moment instead of {@code index}; when there is none (a failover still under way) it waits for one, bounded.
     */
    private void inject(Fault fault, int index) {
        String name = fault.name();
        String leaderBefore = null, error = null;
        try {
            fault.awaitReady(failover, READY_WAIT);
        } catch (IOException e) {
            // not ready as far as could be told: the fault is tried, and says why it failed
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (stopping) return; // the run ended while waiting: nothing began
        if (failover != null) leaderBefore = primary(PRIMARY_WAIT).map(DbNode::name).orElse(null);
        if (fault.onPrimary()) {
            int at = leaderBefore == null ? -1 : names().indexOf(leaderBefore);
            if (at < 0) {
                error = failover == null ? "injecting: the database has no failover manager to name a primary"
                        : "injecting: no primary within " + PRIMARY_WAIT.toSeconds() + " s";
            } else {
                index = at;
            }
        }
        DbNode node = nodes.get(index);
        TcpProxy proxy = index < proxies.size() ? proxies.get(index) : null;
        Fault.Active active = fault.on(new FaultTarget(node, index, nodes, proxy, spec, failover));
        long start = sink.now();
        Map<String, Object> startValue = new LinkedHashMap<>();
        startValue.put("node", node.name());
        if (failover != null) startValue.put("leader-before", leaderBefore == null ? "none" : leaderBefore);
        sink.event("start-" + name, startValue);
        if (error != null) {
            record(fault, node, start, 0, error, leaderBefore, null);
            return;
        }
        try {
            active.begin().run();
        } catch (IOException | RuntimeException e) {
            error = "injecting: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = "interrupted while injecting";
        }
        if (fault.lasts()) sleep(spec.duration().toMillis());
        long t0 = System.nanoTime();
        try {
            active.heal().run();
            // A fault on a server is over when the server is back in its group: a standby streams again, a primary
            // has its standbys again (a no-op for other nodes). Timed with the healing: a standby's restart-ms runs
            // until it streams.
            if (fault.needs().contains(Fault.Need.STARTED_DATABASE)) node.awaitRejoined(REJOIN_WAIT);
        } catch (IOException | RuntimeException e) {
            error = (error == null ? "" : error + "; ") + "healing: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = (error == null ? "" : error + "; ") + "interrupted while healing";
        }
        long healMillis = (System.nanoTime() - t0) / 1_000_000;
        // The primary once the cluster has one again: who took over from a crashed one, or who it still is.
        String leaderAfter = failover == null ? null : primary(PRIMARY_WAIT).map(DbNode::name).orElse(null);
        record(fault, node, start, healMillis, error, leaderBefore, leaderAfter);
    }

    /** The stop event and the record of a fault that began at {@code start}. */
    private void record(Fault fault, DbNode node, long start, long healMillis, String error, String leaderBefore,
                        String leaderAfter) {
        long end = sink.now();
        if (failover != null) {
            leaderBefore = leaderBefore == null ? "none" : leaderBefore;
            leaderAfter = leaderAfter == null ? "none" : leaderAfter;
        }
        String healKey = fault.healTimeKey();
        FaultRecord record = new FaultRecord(fault.name(), node.name(), start, end, healKey != null ? healMillis : 0,
                error, leaderBefore, leaderAfter);
        Map<String, Object> stop = new LinkedHashMap<>();
        stop.put("node", node.name());
        if (healKey != null) stop.put(healKey, record.healMillis());
        if (failover != null) stop.put("leader-after", leaderAfter);
        if (record.error() != null) stop.put("error", record.error()); // masked like results.json's copy
        sink.event("stop-" + fault.name(), stop);
        synchronized (records) {
            records.add(record);
        }
    }

    /** The primary, waiting at most {@code wait} for one; empty when there is none or the wait was interrupted. */
    private Optional<DbNode> primary(Duration wait) {
        try {
            return failover.awaitPrimary(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private List<String> names() {
        List<String> out = new ArrayList<>();
        for (DbNode n : nodes) out.add(n.name());
        return out;
    }

    /** Sleeps unless stopping; false when woken by close. */
    private boolean sleep(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!stopping) {
            long left = deadline - System.nanoTime();
            if (left <= 0) return true;
            try {
                TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /**
     * Stops injecting; the fault in progress is healed before this returns; iptables rules are removed. Called by
     * the run's end, its error path and the Ctrl-C hook: only the first call does the work.
     */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        stopping = true;
        if (thread != null) {
            try {
                thread.join(TimeUnit.MINUTES.toMillis(3));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (leaderWatch != null) leaderWatch.close(); // after the heal, so the leader it left is recorded
        if (needsIptables(spec)) {
            try {
                Iptables.removeAll();
            } catch (IOException e) {
                System.err.println("isostress: removing iptables rules: " + e.getMessage());
            }
        }
    }
}
