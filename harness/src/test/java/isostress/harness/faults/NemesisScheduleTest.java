package isostress.harness.faults;

import isostress.harness.db.DbNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pins the nemesis's seeded schedule: for a given seed, the same faults hit the same nodes in the same order, with the
 * same history events and node calls. Written against the switch-based nemesis before faults became classes (issue
 * 14), so a campaign's fault schedule is unchanged by that refactoring. The expected lists were produced by that
 * version; a change here changes every seeded campaign's faults.
 */
class NemesisScheduleTest {
    private static final int FAULTS = 12;

    @Test
    @Timeout(30)
    void seed42OverAllNodes() throws Exception {
        Run r = run(List.of(), 42);
        assertEquals(List.of(
                "start-latency n1", "stop-latency n1", "start-latency n3", "stop-latency n3", "start-pause n2",
                "stop-pause n2", "start-pause n3", "stop-pause n3", "start-latency n3", "stop-latency n3",
                "start-drop n3", "stop-drop n3", "start-pause n1", "stop-pause n1", "start-pause n3",
                "stop-pause n3", "start-pause n1", "stop-pause n1", "start-drop n3", "stop-drop n3", "start-drop n2",
                "stop-drop n2", "start-pause n1", "stop-pause n1"),
                r.events.subList(0, 2 * FAULTS));
        assertEquals(nodeCalls(r.events.subList(0, 2 * FAULTS)), r.calls.subList(0, 12));
    }

    @Test
    @Timeout(30)
    void killsAndPausesAreUndoneOnTheirNode() throws Exception {
        Run r = run(List.of(2, 3), 7);
        List<String> expected = nodeCalls(r.events);
        assertEquals(expected, r.calls.subList(0, expected.size()));
    }

    @Test
    @Timeout(30)
    void seed7OverTargets() throws Exception {
        Run r = run(List.of(2, 3), 7);
        assertEquals(List.of(
                "start-latency n3", "stop-latency n3", "start-latency n2", "stop-latency n2", "start-pause n2",
                "stop-pause n2", "start-drop n3", "stop-drop n3", "start-latency n3", "stop-latency n3",
                "start-pause n3", "stop-pause n3", "start-kill n2", "stop-kill n2", "start-drop n3", "stop-drop n3",
                "start-kill n3", "stop-kill n3", "start-drop n2", "stop-drop n2", "start-latency n2",
                "stop-latency n2", "start-drop n3", "stop-drop n3"),
                r.events.subList(0, 2 * FAULTS));
    }

    /** The event values and results.json records are those of the switch-based nemesis too. */
    @Test
    @Timeout(30)
    void eventValuesAndRecords() throws Exception {
        Run r = run(List.of(), 42);
        for (int i = 0; i < FAULTS; i++) {
            FaultRecord f = r.records.get(i);
            String[] start = r.events.get(2 * i).split(" ");
            assertEquals("start-" + f.kind(), start[0]);
            assertEquals(f.node(), start[1]);
            assertEquals(Map.of("node", f.node()), r.values.get(2 * i));
            Map<String, Object> stop = r.values.get(2 * i + 1);
            assertNull(f.error(), f.error());
            assertTrue(f.end() >= f.start(), f.toString());
            if (f.kind().equals("kill")) {
                assertEquals(List.of("node", "restart-ms"), List.copyOf(stop.keySet()));
                assertEquals(f.healMillis(), ((Number) stop.get("restart-ms")).longValue());
            } else {
                assertEquals(Map.of("node", f.node()), stop);
                assertEquals(0, f.healMillis());
            }
        }
    }

    /** What the nodes must have seen for these events: kill then restart, pause then resume; nothing for proxies. */
    private static List<String> nodeCalls(List<String> events) {
        List<String> out = new ArrayList<>();
        for (String e : events) {
            String node = e.split(" ")[1];
            if (e.startsWith("start-kill")) out.add("kill " + node);
            if (e.startsWith("stop-kill")) out.add("restart " + node);
            if (e.startsWith("start-pause")) out.add("pause " + node);
            if (e.startsWith("stop-pause")) out.add("resume " + node);
        }
        return out;
    }

    private record Run(List<String> events, List<Map<String, Object>> values, List<String> calls,
                       List<FaultRecord> records) {
    }

    private static Run run(List<Integer> targets, long seed) throws Exception {
        List<String> calls = java.util.Collections.synchronizedList(new ArrayList<>());
        List<DbNode> nodes = List.of(new Node("n1", calls), new Node("n2", calls), new Node("n3", calls));
        List<TcpProxy> proxies = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) proxies.add(new TcpProxy("127.0.0.1", 9));
        List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Map<String, Object>> values = java.util.Collections.synchronizedList(new ArrayList<>());
        NemesisSpec spec = new NemesisSpec(
                Faults.list("kill", "pause", "latency", "drop"), Duration.ofMillis(1), Duration.ofMillis(1),
                targets, Duration.ofMillis(5), seed);
        long t0 = System.nanoTime();
        List<FaultRecord> records;
        try (Nemesis nemesis = new Nemesis(spec, nodes, proxies, new Nemesis.EventSink() {
            public long now() {
                return System.nanoTime() - t0;
            }

            public void event(String f, Map<String, Object> value) {
                events.add(f + " " + value.get("node"));
                values.add(value);
            }
        })) {
            nemesis.start();
            while (nemesis.records().size() < FAULTS) Thread.sleep(5);
            nemesis.close();
            records = nemesis.records();
        } finally {
            for (TcpProxy p : proxies) p.close();
        }
        return new Run(List.copyOf(events), List.copyOf(values), List.copyOf(calls), records);
    }

    /** A node that only logs what the nemesis does to it. */
    private record Node(String name, List<String> calls) implements DbNode {
        public String url() { return "jdbc:none"; }
        public String host() { return "127.0.0.1"; }
        public int clientPort() { return 9; }
        public List<Integer> peerPorts() { return List.of(); }
        public long pid() { return -1; }
        public boolean controllable() { return true; }
        public void kill() { calls.add("kill " + name); }
        public void restart() { calls.add("restart " + name); }
        public void pause() { calls.add("pause " + name); }
        public void resume() { calls.add("resume " + name); }
    }
}
