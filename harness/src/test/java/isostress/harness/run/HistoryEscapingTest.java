package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.SideEvent;
import isostress.harness.faults.FaultRecord;
import isostress.harness.faults.Nemesis;
import isostress.harness.faults.NemesisSpec;
import isostress.harness.db.DbNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Node names, errors and fault values reach history.jsonl escaped. Strings holding quotes, backslashes,
 * newlines, control characters and non-ASCII go through the recorder (and through the nemesis, whose node fails
 * with such a message) and the checker's JSONL reader gives them back unchanged.
 */
class HistoryEscapingTest {
    /** Quote, backslash, CR/LF/tab, NUL and other C0 controls, DEL, Latin-1, CJK, an astral emoji, U+2028. */
    static final String NASTY = "n\"1\\ \r\n\t\u0000\u0001\u001f\u007f é 节点 \uD83D\uDE00 \u2028 ]},\"x\":{";

    @TempDir
    Path dir;

    @Test
    void recorderLinesRoundTripThroughTheJsonlReader() throws Exception {
        Path file = dir.resolve("history.jsonl");
        try (HistoryRecorder r = new HistoryRecorder(file, 0)) {
            r.invoke(1, List.of(new MicroOp.Read(1, null), new MicroOp.Write(2, 5)));
            r.complete(1, Outcome.OK, List.of(new MicroOp.Read(1, 0L), new MicroOp.Write(2, 5)), null, NASTY);
            // The recorder's side events come from the nemesis process, the only non-client process a reader accepts.
            r.side("nemesis", "info", "start-" + NASTY, Map.of("node", NASTY, "restart-ms", 12));
            r.invoke(2, List.of(new MicroOp.Cas(3, null, 4), new MicroOp.ListRead(4, null)));
            r.complete(2, Outcome.INFO, List.of(new MicroOp.Cas(3, null, 4), new MicroOp.ListRead(4, List.of(7L, 8L))),
                    NASTY, "n2");
        }
        History h = HistoryFormat.JSONL.read(file);
        assertEquals(2, h.size());
        assertEquals(NASTY, h.node(0));
        assertEquals(List.of(new MicroOp.Read(1, 0L), new MicroOp.Write(2, 5)), h.txn(0).ops());
        assertEquals(List.of(new MicroOp.Cas(3, null, 4), new MicroOp.ListRead(4, List.of(7L, 8L))), h.txn(1).ops());
        SideEvent side = h.sideEvents().get(0);
        assertEquals("nemesis", side.process());
        assertEquals("start-" + NASTY, side.f());
        ObjectMapper json = new ObjectMapper();
        assertEquals(json.valueToTree(Map.of("node", NASTY, "restart-ms", 12)), json.readTree(side.valueJson()));

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(6, lines.size(), "one line per event plus the header: " + lines);
        JsonNode last = json.readTree(lines.get(5));
        assertEquals(NASTY, last.path("error").asText());
        assertEquals(4, last.path("index").asLong());
    }

    @Test
    @Timeout(30)
    void nemesisEventsWithAFailingNodeRoundTrip() throws Exception {
        Path file = dir.resolve("history.jsonl");
        List<FaultRecord> records;
        try (HistoryRecorder r = new HistoryRecorder(file, 0)) {
            // One transaction: the reader refuses a history of nemesis events only (nothing to check).
            r.invoke(1, List.of(new MicroOp.Write(1, 1)));
            r.complete(1, Outcome.OK, List.of(new MicroOp.Write(1, 1)), null, "n1");
            Nemesis nemesis = new Nemesis(new NemesisSpec(isostress.harness.faults.Faults.list("kill"), Duration.ofMillis(5),
                    Duration.ofMillis(5), List.of(), Duration.ZERO, 1), List.of(new FailingNode()), List.of(),
                    new Nemesis.EventSink() {
                        public long now() {
                            return r.now();
                        }

                        public void event(String f, Map<String, Object> value) {
                            r.side("nemesis", "info", f, value);
                        }
                    });
            nemesis.start();
            while (nemesis.records().isEmpty()) Thread.sleep(5);
            nemesis.close();
            records = nemesis.records();
        }
        History h = HistoryFormat.JSONL.read(file);
        List<SideEvent> events = h.sideEvents();
        assertEquals(2 * records.size(), events.size(), events.toString());
        ObjectMapper json = new ObjectMapper();
        assertEquals("start-kill", events.get(0).f());
        assertEquals(NASTY, json.readTree(events.get(0).valueJson()).path("node").asText());
        JsonNode stop = json.readTree(events.get(1).valueJson());
        assertEquals("stop-kill", events.get(1).f());
        assertEquals(NASTY, stop.path("node").asText());
        assertEquals("injecting: " + NASTY + "; healing: " + NASTY, stop.path("error").asText());
        assertEquals(records.get(0).error(), stop.path("error").asText());
        assertTrue(stop.path("restart-ms").isIntegralNumber(), stop.toString());
    }

    /** A node named {@link #NASTY} whose kill and restart fail with {@link #NASTY} as the message. */
    private static final class FailingNode implements DbNode {
        public String name() { return NASTY; }
        public String url() { return "jdbc:none"; }
        public String host() { return "127.0.0.1"; }
        public int clientPort() { return 1; }
        public List<Integer> peerPorts() { return List.of(); }
        public long pid() { return -1; }
        public boolean controllable() { return true; }
        public void kill() throws IOException { throw new IOException(NASTY); }
        public void restart() throws IOException { throw new IOException(NASTY); }
        public void pause() throws IOException { throw new IOException(NASTY); }
        public void resume() throws IOException { throw new IOException(NASTY); }
    }
}
