package isostress.harness.faults;

import isostress.harness.db.DbNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Schedules the campaign's faults while the workload runs: wait the interval, pick a fault and a target node
 * (seeded), hold it for the duration, heal it, repeat. What a fault does is its own class ({@link Fault},
 * {@link Faults}); this class only decides when and where, and records. Jepsen style, every start and end is an event in the history
 * (process {@code nemesis}, type {@code info}, f {@code start-<kind>} / {@code stop-<kind>}) and a
 * {@link FaultRecord}. Closing it heals the fault in progress, so nothing outlives the run: killed nodes are
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
    private final Random random;
    private final List<FaultRecord> records = new ArrayList<>();
    private final Object lock = new Object();
    private Thread thread;
    private volatile boolean stopping;
    private boolean closed;

    /**
     * @param proxies the client proxy of each node (null entries, or an empty list, when clients connect directly)
     */
    public Nemesis(NemesisSpec spec, List<DbNode> nodes, List<TcpProxy> proxies, EventSink sink) {
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

    /** Injects one fault, holds it (unless the run ends first), heals it. */
    private void inject(Fault fault, int index) {
        DbNode node = nodes.get(index);
        TcpProxy proxy = index < proxies.size() ? proxies.get(index) : null;
        Fault.Active active = fault.on(new FaultTarget(node, index, nodes, proxy, spec));
        String name = fault.name();
        long start = sink.now();
        sink.event("start-" + name, Map.of("node", node.name()));
        String error = null;
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
        } catch (IOException | RuntimeException e) {
            error = (error == null ? "" : error + "; ") + "healing: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = (error == null ? "" : error + "; ") + "interrupted while healing";
        }
        long healMillis = (System.nanoTime() - t0) / 1_000_000;
        long end = sink.now();
        String healKey = fault.healTimeKey();
        FaultRecord record = new FaultRecord(name, node.name(), start, end, healKey != null ? healMillis : 0, error);
        Map<String, Object> stop = new LinkedHashMap<>();
        stop.put("node", node.name());
        if (healKey != null) stop.put(healKey, healMillis);
        if (record.error() != null) stop.put("error", record.error()); // masked like results.json's copy
        sink.event("stop-" + name, stop);
        synchronized (records) {
            records.add(record);
        }
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
        if (needsIptables(spec)) {
            try {
                Iptables.removeAll();
            } catch (IOException e) {
                System.err.println("isostress: removing iptables rules: " + e.getMessage());
            }
        }
    }
}
