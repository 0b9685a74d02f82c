package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Appends every invocation and completion to {@code history.jsonl} in one global order (docs/design-principles.md): the event's
 * index is its position in that order, its time the nanoseconds since the run started on one monotonic clock, so
 * real time comes from indices and there is no clock skew.
 *
 * <p>Batched: a session only takes the next index and time and fills a slot of the pending batch under the lock (a
 * few field stores, no allocation: the slots are reused); the "history-writer" thread swaps the batch out every
 * {@value #FLUSH_MS} ms, or as soon as {@value #BATCH} events are pending, generates its lines and sends them to the
 * file in one write(2). Before, every session generated its JSON, and now and then wrote 64 KiB to the file, under
 * the one lock: with 64 sessions on 2 cores a session preempted while holding it stalled all the others (a fifth of
 * the sessions' time went to waiting there). Only whole lines reach the file, in index order, so a killed run leaves
 * a checkable prefix, missing at most the last {@value #FLUSH_MS} ms (or one batch) of events. A session finding
 * {@value #MAX_PENDING} events pending waits for the writer (back-pressure: memory stays bounded).
 *
 * <p>Every line is written by Jackson's streaming generator ({@link HistoryLines}), so strings (node names, errors,
 * fault values) are escaped by construction (RFC 8259 §7).
 *
 * <p>A listener ({@link #onCompletion}) sees each completed transaction as the reader of the file will: numbered by
 * its invocation among all transactions, with the same indices, times and line, in index order, on the writer
 * thread. The streaming check uses it rather than re-reading the file.
 */
public final class HistoryRecorder implements AutoCloseable {
    /** The writer takes the pending events at least this often (ms): what a SIGKILL can lose, at most. */
    static final long FLUSH_MS = 5;
    /** Pending events that wake the writer before its period is up. */
    static final int BATCH = 4096;
    /** Pending events at which sessions wait for the writer. */
    static final int MAX_PENDING = 1 << 16;
    // Whole lines only reach the file: a BufferedWriter would spill a full buffer mid-line, and a harness killed
    // right then would leave a truncated last line that no reader accepts. A batch's lines gather in `lines` and go
    // out in one write(2), which a SIGKILL cannot split.
    private final OutputStream out;
    private final HistoryLines lines;
    private final long start = System.nanoTime();
    private final Thread writer;
    // Guarded by this: the next index, the batch being filled, and the state.
    private long index;
    private HistoryEvent[] pending = HistoryEvent.slots(BATCH), spare = HistoryEvent.slots(BATCH);
    private int pendingCount;
    /** Events in the file (and seen by the listener): the writer's progress, for {@link #flush}. */
    private long written = 0;
    private boolean closed;
    private volatile Throwable failure;
    // The writer thread's own.
    private int invocations;
    private Consumer<Txn> listener;
    /** Per process, its transaction in flight: {id, invocation index, invocation time}; kept only for a listener. */
    private final Map<Long, long[]> inFlight = new HashMap<>();

    /**
     * A recorder bug planted on purpose, for tests only: when positive, the n-th acknowledged commit with writes from
     * now on is recorded as {@code fail}. The witness must catch it as failed-but-committed, which proves the check
     * does not just trust the recorder. Set by tests of this package before a run, reset after; never set otherwise.
     */
    static volatile int plantedMislabelForTests;
    private int plantedMislabel = plantedMislabelForTests;

    /** Opens {@code file} and writes the header: every key starts at {@code initial}. */
    public HistoryRecorder(Path file, long initial) throws IOException {
        out = Files.newOutputStream(file);
        lines = new HistoryLines(out, initial);
        lines.drain();
        writer = new Thread(this::writeLoop, "history-writer");
        writer.setDaemon(true);
        writer.start();
    }

    /** Nanoseconds since the run started. */
    public long now() {
        return System.nanoTime() - start;
    }

    /**
     * Calls {@code listener} with every transaction completed from now on, in index order, on the writer thread (so
     * it must be quick). Set it before the first invocation.
     */
    public synchronized void onCompletion(Consumer<Txn> listener) {
        this.listener = listener; // published to the writer by this lock, which it takes for every batch
    }

    /** Records that {@code process} invokes a transaction of {@code ops} (read values not known yet). */
    public synchronized void invoke(long process, List<MicroOp> ops) {
        txnSlot(HistoryEvent.INVOKE, process, ops);
        queued();
    }

    /** Records the completion of {@code process}'s transaction. */
    public void complete(long process, Outcome outcome, List<MicroOp> ops, String error) {
        complete(process, outcome, ops, error, null);
    }

    /** Records the completion of {@code process}'s transaction on {@code node} (null: a single server). */
    public synchronized void complete(long process, Outcome outcome, List<MicroOp> ops, String error, String node) {
        if (plantedMislabel > 0 && outcome == Outcome.OK && ops.stream().anyMatch(MicroOp::writes)
                && --plantedMislabel == 0) {
            outcome = Outcome.FAIL;
            error = "planted: a committed transaction recorded as failed";
        }
        HistoryEvent e = txnSlot(HistoryEvent.COMPLETE, process, ops);
        e.outcome = outcome;
        e.error = error;
        e.node = node;
        queued();
    }

    /** A slot ({@link #slot}) for an event of transaction process {@code process}. Under the lock. */
    private HistoryEvent txnSlot(byte kind, long process, List<MicroOp> ops) {
        HistoryEvent e = slot();
        e.kind = kind;
        e.process = process;
        e.ops = ops;
        return e;
    }

    /**
     * Records an event of another process (a fault). {@code value} (null: none) is written as JSON by Jackson, for
     * example a map of strings and numbers.
     */
    public void side(String process, String type, String f, Object value) {
        // Converted first, so a value Jackson cannot write fails in the caller and leaves no half line.
        JsonNode tree = value == null ? null : HistoryLines.MAPPER.valueToTree(value);
        synchronized (this) {
            HistoryEvent e = slot();
            e.kind = HistoryEvent.SIDE;
            e.sideProcess = process;
            e.type = type;
            e.f = f;
            e.tree = tree;
            queued();
        }
    }

    /** How many events so far. */
    public synchronized long events() {
        return index;
    }

    /**
     * Waits until every event recorded so far is in the file and the listener has seen it (before the streaming
     * check's last look, say).
     */
    public synchronized void flush() throws IOException, InterruptedException {
        long target = index;
        while (written < target && failure == null && writer.isAlive()) {
            LockSupport.unpark(writer);
            wait(FLUSH_MS);
        }
        if (failure != null) checkOpen();
    }

    /**
     * The batch's next slot with its index and time set, after waiting while the batch is full. The caller holds the
     * lock from here until {@link #queued}, so the writer never sees a slot half filled.
     */
    private HistoryEvent slot() {
        while (pendingCount >= MAX_PENDING && !closed && failure == null) {
            LockSupport.unpark(writer);
            try {
                wait(FLUSH_MS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the history writer caught up", ex);
            }
        }
        checkOpen();
        if (pendingCount == pending.length) pending = HistoryEvent.grow(pending);
        HistoryEvent e = pending[pendingCount];
        e.index = index++;
        e.time = now();
        return e;
    }

    /** Counts the slot {@link #slot} handed out; wakes the writer at a full batch. Under the lock. */
    private void queued() {
        if (++pendingCount == BATCH) LockSupport.unpark(writer);
    }

    private void checkOpen() {
        Throwable f = failure;
        if (f != null) throw new UncheckedIOException("writing the history", f instanceof IOException
                ? (IOException) f : new IOException(f));
        if (closed) throw new IllegalStateException("history closed");
    }

    private void writeLoop() {
        try {
            while (true) {
                LockSupport.parkNanos(FLUSH_MS * 1_000_000L);
                if (!writeBatch()) return;
            }
        } catch (Throwable e) {
            failure = e;
            synchronized (this) {
                notifyAll();
            }
        }
    }

    /** Writes the pending events; false once closed and nothing is left. */
    private boolean writeBatch() throws IOException {
        HistoryEvent[] batch;
        int n;
        Consumer<Txn> l;
        boolean last;
        synchronized (this) {
            batch = pending;
            n = pendingCount;
            pending = spare;
            spare = batch;
            pendingCount = 0;
            last = closed;
            l = listener;
            notifyAll(); // sessions waiting for room
        }
        long upTo = n == 0 ? -1 : batch[n - 1].index + 1;
        for (int i = 0; i < n; i++) {
            write(batch[i], l);
            batch[i].clear();
        }
        lines.drain();
        if (upTo >= 0) {
            synchronized (this) {
                written = upTo;
                notifyAll();
            }
        }
        return !last;
    }

    private void write(HistoryEvent e, Consumer<Txn> l) throws IOException {
        switch (e.kind) {
            case HistoryEvent.INVOKE:
                lines.invoke(e);
                if (l != null) inFlight.put(e.process, new long[] {invocations, e.index, e.time});
                invocations++;
                break;
            case HistoryEvent.COMPLETE:
                lines.complete(e);
                long[] inv = l == null ? null : inFlight.remove(e.process);
                if (inv != null) {
                    // Line idx + 2: the header is line 1 and every event one line, as the JSONL reader counts them.
                    l.accept(new Txn((int) inv[0], e.process, e.outcome, e.ops, inv[1], e.index, inv[2], e.time,
                            (int) e.index + 2, e.node, null));
                }
                break;
            default:
                lines.side(e);
        }
    }

    /** Writes every pending event, then closes the file. Sessions must have stopped recording. */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        LockSupport.unpark(writer);
        try {
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while writing the last of the history", e);
        }
        try {
            lines.close();
        } finally {
            out.close();
        }
        Throwable f = failure;
        if (f instanceof IOException) throw (IOException) f;
        if (f != null) throw new IOException("writing the history", f);
    }

}
