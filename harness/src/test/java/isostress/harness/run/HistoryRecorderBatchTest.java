package isostress.harness.run;

import isostress.checker.history.History;
import isostress.checker.history.HistoryFormat;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The batched recorder. Many sessions record at once; the file holds every event once, in index
 * order, as whole lines at every moment (a copy taken while they run parses), and the listener sees every
 * transaction in index order with the file's numbering.
 */
class HistoryRecorderBatchTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void concurrentSessionsGiveOneOrderedHistoryOfWholeLines() throws Exception {
        Path file = dir.resolve("history.jsonl");
        int sessions = 16, perSession = 3000;
        List<Txn> seen = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try (HistoryRecorder r = new HistoryRecorder(file, 0)) {
            r.onCompletion(seen::add);
            for (int s = 0; s < sessions; s++) {
                int session = s;
                threads.add(new Thread(() -> {
                    for (int i = 0; i < perSession; i++) {
                        long v = (long) session * perSession + i + 1;
                        List<MicroOp> ops = List.of(new MicroOp.Write(session, v));
                        r.invoke(session, ops);
                        r.complete(session, i % 7 == 0 ? Outcome.FAIL : Outcome.OK, ops, null);
                    }
                }));
            }
            threads.forEach(Thread::start);
            // While they run (once some transactions are in the file): every copy of it is whole lines and parses.
            while (r.events() < 2000) Thread.sleep(1);
            r.flush();
            for (int k = 0; k < 5; k++) {
                if (k > 0) Thread.sleep(10);
                byte[] now = Files.readAllBytes(file);
                assertEquals('\n', now[now.length - 1], "the file ends inside a line");
                Path copy = dir.resolve("prefix-" + k + ".jsonl");
                Files.write(copy, now);
                HistoryFormat.JSONL.read(copy);
            }
            for (Thread t : threads) t.join();
            r.flush();
            assertEquals(sessions * perSession, seen.size(), "flush: the listener has seen every completion");
        }
        History h = HistoryFormat.JSONL.read(file);
        assertEquals(sessions * perSession, h.txns().size());
        List<String> lines = Files.readAllLines(file);
        assertEquals(1 + 2 * sessions * perSession, lines.size());
        for (int i = 1; i < lines.size(); i++) {
            assertTrue(lines.get(i).startsWith("{\"index\":" + (i - 1) + ","), "line " + (i + 1) + ": " + lines.get(i));
        }
        for (int i = 0; i < seen.size(); i++) {
            Txn t = seen.get(i);
            if (i > 0) assertTrue(t.completeIndex() > seen.get(i - 1).completeIndex(), "listener out of order at " + i);
            assertTrue(lines.get(t.line() - 1).startsWith("{\"index\":" + t.completeIndex() + ","), "line " + t.line());
        }
    }
}
