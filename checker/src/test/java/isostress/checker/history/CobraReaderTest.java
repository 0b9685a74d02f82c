package isostress.checker.history;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Cobra's client logs: a directory of {@code T<n>.log} files, one process each. */
class CobraReaderTest {
    static final long INIT = 0xbebeebeeL, NULL = 0xdeadbeefL, GC_TRUE = 0x23332333L;
    static final long X = 0x1234_5678_9abc_def0L, Y = -42L; // xxHash64 key hashes are any longs

    /**
     * Writes log records exactly as Cobra's client library does: DBCobra/CobraBench
     * {@code src/main/java/kv_interfaces/instrument/LogEntry.java} {@code toOplogEntry_keyhash} (a big-endian
     * {@code ByteBuffer}: 'S'/'C'/'A' + txnId; 'W' + writeId, keyHash, valueHash; 'R' + writeTxnId, writeId, keyHash,
     * valueHash), appended to {@code T<thread>.log} by {@code ChengLogger}; CobraVerifier's
     * {@code AbstractVerifier.ExtractClientLogFromStream} reads them with a {@code DataInputStream}.
     */
    static final class Log {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream out = new DataOutputStream(bytes);

        Log start(long txn) throws IOException { out.writeByte('S'); out.writeLong(txn); return this; }

        Log commit(long txn) throws IOException { out.writeByte('C'); out.writeLong(txn); return this; }

        Log abort(long txn) throws IOException { out.writeByte('A'); out.writeLong(txn); return this; }

        Log write(long wid, long key, long valueHash) throws IOException {
            out.writeByte('W');
            out.writeLong(wid);
            out.writeLong(key);
            out.writeLong(valueHash);
            return this;
        }

        Log read(long writerTxn, long wid, long key, long valueHash) throws IOException {
            out.writeByte('R');
            out.writeLong(writerTxn);
            out.writeLong(wid);
            out.writeLong(key);
            out.writeLong(valueHash);
            return this;
        }

        Path to(Path file) throws IOException {
            return Files.write(file, bytes.toByteArray());
        }
    }

    /** Client 2 reads the initial x and writes it; client 10 reads that write, then aborts a write of y. */
    static Path history(Path dir) throws IOException {
        new Log().start(100).read(INIT, INIT, X, 777).write(1001, X, 555).commit(100)
                .start(101).read(NULL, NULL, Y, 0).read(INIT, GC_TRUE, 99, 1).commit(101)
                .to(dir.resolve("T2.log"));
        new Log().start(200).read(100, 1001, X, 555).commit(200)
                .start(201).write(2001, Y, 556).abort(201)
                .to(dir.resolve("T10.log"));
        Files.writeString(dir.resolve("T2.debug"), "[DEBUG] not a log\n");
        return dir;
    }

    @Test
    void readsADirectoryOfClientLogs(@TempDir Path dir) throws IOException {
        History h = HistoryFormat.COBRA.read(history(dir));
        assertEquals(dir.toString(), h.source());
        assertEquals(4, h.size());
        assertFalse(h.realTime());
        assertEquals(List.of(2L, 2L, 10L, 10L), List.of(h.process(0), h.process(1), h.process(2), h.process(3)),
                "processes are the thread numbers, T2 before T10");
        assertEquals(List.of(Outcome.OK, Outcome.OK, Outcome.OK, Outcome.FAIL),
                List.of(h.outcome(0), h.outcome(1), h.outcome(2), h.outcome(3)));
        assertEquals(List.of(new MicroOp.Read(X, INIT), new MicroOp.Write(X, 1001)), h.txn(0).ops(),
                "values are write ids; a read of the initial write id reads the initial state");
        assertEquals(List.of(new MicroOp.Read(Y, INIT)), h.txn(1).ops(),
                "a NULL read is an initial read too; the garbage-collection read is skipped");
        assertEquals(List.of(new MicroOp.Read(X, 1001L)), h.txn(2).ops());
        assertEquals(List.of(new MicroOp.Write(Y, 2001)), h.txn(3).ops());
        assertEquals(InitialState.allKeys(INIT), h.initial());
        assertTrue(h.initial().isInitial(X, INIT) && h.initial().isInitial(Y, INIT));
        for (int t = 1; t < h.size(); t++) assertTrue(h.completeIndex(t - 1) < h.invokeIndex(t));
        assertEquals(h.size(), CobraReader.read(dir).size());
    }

    @Test
    void oneLogIsOneProcess(@TempDir Path dir) throws IOException {
        Path log = history(dir).resolve("T10.log");
        assertEquals(HistoryFormat.COBRA, HistoryFormat.detect(log));
        History h = HistoryFormat.COBRA.read(log);
        assertEquals(2, h.size());
        assertEquals(0, h.process(0));
        History viaStream = new CobraReader().read(Files.newInputStream(log), "T10.log");
        assertEquals(h.txns(), viaStream.txns());
    }

    @Test
    void logsNotNamedAfterThreadsAreNumberedInNameOrder(@TempDir Path dir) throws IOException {
        new Log().start(1).write(11, X, 0).commit(1).to(dir.resolve("client-b.log"));
        new Log().start(2).write(12, Y, 0).commit(2).to(dir.resolve("client-a.log"));
        History h = CobraReader.read(dir);
        assertEquals(List.of(0L, 1L), List.of(h.process(0), h.process(1)));
        assertEquals(List.of(new MicroOp.Write(Y, 12)), h.txn(0).ops());
    }

    static InputException fails(Path dir, Log log) throws IOException {
        log.to(dir.resolve("T1.log"));
        return assertThrows(InputException.class, () -> CobraReader.read(dir));
    }

    static void expect(InputException e, Path dir, String fragment) {
        assertEquals(0, e.line(), "binary logs have no lines");
        assertTrue(e.getMessage().startsWith(dir.resolve("T1.log") + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), "'" + fragment + "' not in: " + e.getMessage());
    }

    @Test
    void malformedLogsNameTheFileAndRecord(@TempDir Path dir) throws IOException {
        Log unknown = new Log().start(1).write(11, X, 0);
        unknown.out.writeByte('Z');
        expect(fails(dir, unknown), dir, "record 3 (byte 34): unknown record type 0x5a");
        Log truncated = new Log().start(1);
        truncated.out.writeByte('W');
        truncated.out.writeLong(11);
        expect(fails(dir, truncated), dir, "record 2 (byte 9): truncated record: the log ends inside its key hash");
        expect(fails(dir, new Log().start(1).commit(2)), dir, "record 2 (byte 9): commit of transaction 2 inside "
                + "transaction 1 (record 1)");
        expect(fails(dir, new Log().start(1).start(2)), dir, "record 2 (byte 9): transaction 2 starts while "
                + "transaction 1 (record 1) has neither committed nor aborted");
        expect(fails(dir, new Log().write(11, X, 0)), dir, "record 1 (byte 0): write outside a transaction");
        expect(fails(dir, new Log().start(1).write(11, X, 0)), dir, "the log ends inside transaction 1, started at "
                + "record 1");
        expect(fails(dir, new Log().start(1).read(INIT, 5, X, 0).commit(1)), dir, "a read from Cobra's initial "
                + "transaction 0xbebeebee with write id 0x5");
        expect(fails(dir, new Log().start(1).write(INIT, X, 0).commit(1)), dir, "reserved write id 0xbebeebee");
    }

    @Test
    void detection(@TempDir Path dir) throws IOException {
        assertEquals(HistoryFormat.COBRA, HistoryFormat.detect(history(dir)));
        assertEquals(HistoryFormat.COBRA, HistoryFormat.byName("cobra"));
        Path empty = Files.createDirectory(dir.resolve("empty"));
        InputException e = assertThrows(InputException.class, () -> HistoryFormat.detect(empty));
        assertTrue(e.getMessage().contains("without *.log files"), e.getMessage());
        assertThrows(InputException.class, () -> HistoryFormat.COBRA.read(empty));
        assertThrows(InputException.class, () -> HistoryFormat.JSONL.read(dir), "only Cobra reads a directory");
        assertFalse(HistoryFormat.COBRA.canWrite());
        assertThrows(UnsupportedOperationException.class, HistoryFormat.COBRA::writer);
        DbcopReaderTest.assertExistingFormatsStillDetected(Files.createDirectory(dir.resolve("others")));
    }
}
