package isostress.harness.faults;

import isostress.harness.db.DbNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fault registry, and what the nemesis does with a fault whose needs are not met. */
class FaultsTest {
    @Test
    void everyFaultIsFoundByItsOwnNameOnly() {
        Set<String> names = new HashSet<>();
        for (Fault f : Faults.all()) {
            assertTrue(names.add(f.name()), "two faults are called " + f.name());
            assertSame(f, Faults.byName(f.name()).orElseThrow());
            assertTrue(f.name().matches("[a-z][a-z-]*"), "YAML names are lower case: " + f.name());
        }
        assertEquals("kill, pause, partition, latency, drop, crash-primary, kill-primary-postgres, "
                + "kill-primary-patroni, partition-primary, pause-primary, switchover", Faults.names());
        assertTrue(Faults.byName("KILL").isEmpty());
        assertThrows(IllegalArgumentException.class, () -> Faults.list("kill", "explode"));
    }

    /** What the loader, the runner and the nemesis decide from: proxies, iptables, a database isostress started. */
    @Test
    void needsAreThoseTheRunnerProvides() {
        assertEquals(Set.of(Fault.Need.STARTED_DATABASE), Faults.list("kill").get(0).needs());
        assertEquals(Set.of(Fault.Need.STARTED_DATABASE), Faults.list("pause").get(0).needs());
        assertEquals(Set.of(Fault.Need.STARTED_DATABASE, Fault.Need.IPTABLES), Faults.list("partition").get(0).needs());
        assertEquals(Set.of(Fault.Need.CLIENT_PROXY), Faults.list("latency").get(0).needs());
        assertEquals(Set.of(Fault.Need.CLIENT_PROXY), Faults.list("drop").get(0).needs());
        assertTrue(Nemesis.needsProxy(spec("kill", "drop")));
        assertFalse(Nemesis.needsProxy(spec("kill", "pause", "partition")));
        assertTrue(Nemesis.needsIptables(spec("latency", "partition")));
        assertFalse(Nemesis.needsIptables(spec("kill", "latency", "drop")));
        assertFalse(Faults.list("drop").get(0).lasts());
        assertEquals("restart-ms", Faults.list("kill").get(0).healTimeKey());
    }

    /**
     * A proxy fault on a node without a proxy is recorded as an error, as before faults were classes: latency fails
     * to begin and to heal, a drop (nothing to heal) only to begin.
     */
    @Test
    @Timeout(30)
    void aProxyFaultWithoutAProxyIsARecordedError() throws Exception {
        for (String name : List.of("latency", "drop")) {
            List<Map<String, Object>> stops = new ArrayList<>();
            List<FaultRecord> records;
            try (Nemesis n = new Nemesis(spec(name), List.of(new Idle()), List.of(), new Nemesis.EventSink() {
                public long now() {
                    return 0;
                }

                public void event(String f, Map<String, Object> value) {
                    if (f.startsWith("stop-")) stops.add(value);
                }
            })) {
                n.start();
                while (n.records().isEmpty()) Thread.sleep(5);
                n.close();
                records = n.records();
            }
            String expected = name.equals("drop") ? "injecting: no client proxy for node 1"
                    : "injecting: no client proxy for node 1; healing: no client proxy for node 1";
            assertEquals(new FaultRecord(name, "n1", 0, 0, 0, expected), records.get(0));
            assertEquals(Map.of("node", "n1", "error", expected), stops.get(0));
        }
    }

    /**
     * A role fault strikes the member the failover manager names when it begins, not the node drawn, and both events
     * and the record carry the primary before and after; without a manager it is a recorded error.
     */
    @Test
    @Timeout(30)
    void aRoleFaultStrikesThePrimaryOfTheMomentAndRecordsTheLeaders() throws Exception {
        List<DbNode> nodes = List.of(new Idle("n1"), new Idle("n2"), new Idle("n3"));
        String[] primary = {"n3"};
        List<String> switched = new ArrayList<>();
        isostress.harness.db.Failover manager = new isostress.harness.db.Failover() {
            public java.util.Optional<DbNode> primary() {
                return nodes.stream().filter(n -> n.name().equals(primary[0])).findFirst();
            }

            public void killServer(DbNode member) { throw new AssertionError("not a kill"); }
            public void killManager(DbNode member) { throw new AssertionError("not a kill"); }
            public void awaitRunning(DbNode member, Duration wait) { throw new AssertionError("not a kill"); }
            public List<List<String>> links(DbNode member) { throw new AssertionError("not a partition"); }

            public void switchover(DbNode from) {
                switched.add(from.name());
                primary[0] = "n1";
            }
        };
        // The fault events, and apart from them the leader watch's (its own thread).
        List<Map<String, Object>> events = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Object> leaders = java.util.Collections.synchronizedList(new ArrayList<>());
        List<FaultRecord> records;
        try (Nemesis n = new Nemesis(spec("switchover"), nodes, List.of(), new Nemesis.EventSink() {
            public long now() {
                return 0;
            }

            public void event(String f, Map<String, Object> value) {
                if (f.equals("leader")) {
                    leaders.add(value.get("node"));
                } else {
                    events.add(value);
                }
            }
        }, manager)) {
            n.start();
            // Until the switchover is recorded and the watch (every 200 ms) has seen its new leader.
            while (n.records().isEmpty() || !leaders.contains("n1")) Thread.sleep(5);
            n.close();
            records = n.records();
        }
        assertEquals("n3", switched.get(0));
        assertEquals(new FaultRecord("switchover", "n3", 0, 0, 0, null, "n3", "n1"), records.get(0));
        assertEquals(Map.of("node", "n3", "leader-before", "n3"), events.get(0));
        assertEquals(Map.of("node", "n3", "leader-after", "n1"), events.get(1));
        // The watch's first look (it starts with the nemesis) names n3, unless it came after the switchover; then
        // n1, and never one leader twice in a row.
        assertTrue(leaders.equals(List.of("n3", "n1")) || leaders.equals(List.of("n1")), leaders.toString());

        try (Nemesis n = new Nemesis(spec("crash-primary"), List.of(new Idle()), List.of(), new Nemesis.EventSink() {
            public long now() {
                return 0;
            }

            public void event(String f, Map<String, Object> value) {
            }
        })) {
            n.start();
            while (n.records().isEmpty()) Thread.sleep(5);
            n.close();
            assertEquals("injecting: the database has no failover manager to name a primary",
                    n.records().get(0).error());
        }
    }

    private static NemesisSpec spec(String... faults) {
        return new NemesisSpec(Faults.list(faults), Duration.ofMillis(1), Duration.ofMillis(1), List.of(),
                Duration.ofMillis(1), 1);
    }

    private record Idle(String name) implements DbNode {
        Idle() {
            this("n1");
        }

        public String url() { return "jdbc:none"; }
        public String host() { return "127.0.0.1"; }
        public int clientPort() { return 9; }
        public List<Integer> peerPorts() { return List.of(); }
        public long pid() { return -1; }
        public boolean controllable() { return false; }
        public void kill() { throw new AssertionError("not a kill"); }
        public void restart() { throw new AssertionError("not a kill"); }
        public void pause() { throw new AssertionError("not a pause"); }
        public void resume() { throw new AssertionError("not a pause"); }
    }
}
