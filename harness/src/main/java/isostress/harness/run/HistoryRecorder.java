package isostress.harness.run;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;
import isostress.harness.db.Secrets;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Appends every invocation and completion to {@code history.jsonl} in one global order (DESIGN.md): the event's
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
 * <p>Every line is written by Jackson's streaming {@link JsonGenerator}, so strings (node names, errors, fault
 * values) are escaped by construction (RFC 8259 §7).
 *
 * <p>A listener ({@link #onCompletion}) sees each completed transaction as the reader of the file will: numbered by
 * its invocation among all transactions, with the same indices, times and line, in index order, on the writer
 * thread. The streaming check uses it rather than re-reading the file.
 */
public final class HistoryRecorder implements AutoCloseable {
    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    // Names and fixed values quoted once (Jackson copies their bytes).
    private static final SerializedString INDEX = new SerializedString("index"), TYPE = new SerializedString("type"),
            PROCESS = new SerializedString("process"), TIME = new SerializedString("time"),
            F = new SerializedString("f"), VALUE = new SerializedString("value"), NODE = new SerializedString("node"),
            ERROR = new SerializedString("error"), TXN = new SerializedString("txn"),
            INVOKE = new SerializedString("invoke"), R = new SerializedString("r"), W = new SerializedString("w"),
            APPEND = new SerializedString("append"), CAS = new SerializedString("cas");
    private static final SerializedString[] OUTCOMES = Arrays.stream(Outcome.values())
            .map(o -> new SerializedString(o.jepsenName())).toArray(SerializedString[]::new);
    /** The writer takes the pending events at least this often (ms): what a SIGKILL can lose, at most. */
    static final long FLUSH_MS = 5;
    /** Pending events that wake the writer before its period is up. */
    static final int BATCH = 4096;
    /** Pending events at which sessions wait for the writer. */
    static final int MAX_PENDING = 1 << 16;
    // Whole lines only reach the file: a BufferedWriter would spill a full buffer mid-line, and a harness killed
    // right then would leave a truncated last line that no reader accepts. A batch's lines gather in `lines` and go
    // out in one write(2), which a SIGKILL cannot split. The generator writes UTF-8 into `lines` (its own buffer
    // spills there mid-line, which is harmless: only the writer moves bytes to the file, after flushing the
    // generator at the end of a batch).
    private final OutputStream out;
    private final LineBuffer lines = new LineBuffer(1 << 17);
    private final JsonGenerator gen;
    private final long start = System.nanoTime();
    private final Thread writer;
    // Guarded by this: the next index, the batch being filled, and the state.
    private long index;
    private Event[] pending = Event.slots(BATCH), spare = Event.slots(BATCH);
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

    /** Opens {@code file} and writes the header: every key starts at {@code initial}. */
    public HistoryRecorder(Path file, long initial) throws IOException {
        out = Files.newOutputStream(file);
        // No separator between root values: each line ends with the '\n' written after it.
        gen = MAPPER.getFactory().createGenerator(lines).setRootValueSeparator(null);
        gen.writeStartObject();
        gen.writeStringField("type", "header");
        gen.writeBooleanField("real-time", true);
        gen.writeNumberField("initial-default", initial);
        gen.writeEndObject();
        gen.writeRaw('\n');
        drain();
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
        Event e = slot();
        e.kind = Event.INVOKE;
        e.process = process;
        e.ops = ops;
        queued();
    }

    /** Records the completion of {@code process}'s transaction. */
    public void complete(long process, Outcome outcome, List<MicroOp> ops, String error) {
        complete(process, outcome, ops, error, null);
    }

    /** Records the completion of {@code process}'s transaction on {@code node} (null: a single server). */
    public synchronized void complete(long process, Outcome outcome, List<MicroOp> ops, String error, String node) {
        Event e = slot();
        e.kind = Event.COMPLETE;
        e.outcome = outcome;
        e.process = process;
        e.ops = ops;
        e.error = error;
        e.node = node;
        queued();
    }

    /**
     * Records an event of another process (a fault). {@code value} (null: none) is written as JSON by Jackson, for
     * example a map of strings and numbers.
     */
    public void side(String process, String type, String f, Object value) {
        // Converted first, so a value Jackson cannot write fails in the caller and leaves no half line.
        JsonNode tree = value == null ? null : MAPPER.valueToTree(value);
        synchronized (this) {
            Event e = slot();
            e.kind = Event.SIDE;
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
    private Event slot() {
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
        if (pendingCount == pending.length) pending = Event.grow(pending);
        Event e = pending[pendingCount];
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
        Event[] batch;
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
        drain();
        if (upTo >= 0) {
            synchronized (this) {
                written = upTo;
                notifyAll();
            }
        }
        return !last;
    }

    private void write(Event e, Consumer<Txn> l) throws IOException {
        switch (e.kind) {
            case Event.INVOKE:
                line(INVOKE, e);
                if (l != null) inFlight.put(e.process, new long[] {invocations, e.index, e.time});
                invocations++;
                break;
            case Event.COMPLETE:
                line(OUTCOMES[e.outcome.ordinal()], e);
                long[] inv = l == null ? null : inFlight.remove(e.process);
                if (inv != null) {
                    // Line idx + 2: the header is line 1 and every event one line, as the JSONL reader counts them.
                    l.accept(new Txn((int) inv[0], e.process, e.outcome, e.ops, inv[1], e.index, inv[2], e.time,
                            (int) e.index + 2, e.node, null));
                }
                break;
            default:
                gen.writeStartObject();
                gen.writeNumberField("index", e.index);
                gen.writeStringField("type", e.type);
                gen.writeStringField("process", e.sideProcess);
                gen.writeNumberField("time", e.time);
                gen.writeStringField("f", e.f);
                if (e.tree != null) {
                    gen.writeFieldName("value");
                    gen.writeTree(e.tree);
                }
                gen.writeEndObject();
                gen.writeRaw('\n');
        }
    }

    private void line(SerializedString type, Event e) throws IOException {
        gen.writeStartObject();
        gen.writeFieldName(INDEX);
        gen.writeNumber(e.index);
        gen.writeFieldName(TYPE);
        gen.writeString(type);
        gen.writeFieldName(PROCESS);
        gen.writeNumber(e.process);
        gen.writeFieldName(TIME);
        gen.writeNumber(e.time);
        gen.writeFieldName(F);
        gen.writeString(TXN);
        gen.writeFieldName(VALUE);
        gen.writeStartArray();
        List<MicroOp> ops = e.ops;
        for (int i = 0; i < ops.size(); i++) op(ops.get(i));
        gen.writeEndArray();
        if (e.node != null) {
            gen.writeFieldName(NODE);
            gen.writeString(e.node);
        }
        if (e.error != null) {
            // The driver's message, which may quote a URL: masked like everything else the run stores.
            gen.writeFieldName(ERROR);
            gen.writeString(Secrets.mask(e.error));
        }
        gen.writeEndObject();
        gen.writeRaw('\n');
    }

    /** {@code ["r",k,v]}, {@code ["w",k,v]}, {@code ["append",k,v]}, {@code ["r",k,[..]]}, {@code ["cas",k,[e,n]]}. */
    private void op(MicroOp m) throws IOException {
        gen.writeStartArray();
        if (m instanceof MicroOp.Read) {
            gen.writeString(R);
            gen.writeNumber(m.key());
            number(((MicroOp.Read) m).value());
        } else if (m instanceof MicroOp.Write) {
            gen.writeString(W);
            gen.writeNumber(m.key());
            gen.writeNumber(((MicroOp.Write) m).value());
        } else if (m instanceof MicroOp.Append) {
            gen.writeString(APPEND);
            gen.writeNumber(m.key());
            gen.writeNumber(((MicroOp.Append) m).value());
        } else if (m instanceof MicroOp.ListRead) {
            gen.writeString(R);
            gen.writeNumber(m.key());
            List<Long> vs = ((MicroOp.ListRead) m).values();
            if (vs == null) {
                gen.writeNull();
            } else {
                gen.writeStartArray();
                for (int i = 0; i < vs.size(); i++) gen.writeNumber(vs.get(i));
                gen.writeEndArray();
            }
        } else {
            MicroOp.Cas c = (MicroOp.Cas) m;
            gen.writeString(CAS);
            gen.writeNumber(m.key());
            gen.writeStartArray();
            number(c.expected());
            gen.writeNumber(c.newValue());
            gen.writeEndArray();
        }
        gen.writeEndArray();
    }

    private void number(Long v) throws IOException {
        if (v == null) {
            gen.writeNull();
        } else {
            gen.writeNumber(v.longValue());
        }
    }

    /** Sends the generated lines (whole lines: a batch ends with one) to the file in one write. */
    private void drain() throws IOException {
        gen.flush();
        if (lines.size() == 0) return;
        out.write(lines.bytes(), 0, lines.size());
        lines.reset();
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
            gen.close();
        } finally {
            out.close();
        }
        Throwable f = failure;
        if (f instanceof IOException) throw (IOException) f;
        if (f != null) throw new IOException("writing the history", f);
    }

    /** One recorded event, in a reused slot of a batch. */
    private static final class Event {
        static final byte INVOKE = 0, COMPLETE = 1, SIDE = 2;
        byte kind;
        long index, time, process;
        Outcome outcome;
        List<MicroOp> ops;
        String error, node, sideProcess, type, f;
        JsonNode tree;

        static Event[] slots(int n) {
            Event[] a = new Event[n];
            for (int i = 0; i < n; i++) a[i] = new Event();
            return a;
        }

        static Event[] grow(Event[] a) {
            Event[] b = Arrays.copyOf(a, a.length * 2);
            for (int i = a.length; i < b.length; i++) b[i] = new Event();
            return b;
        }

        /** Drops the references, so a written batch keeps no transaction alive. */
        void clear() {
            outcome = null;
            ops = null;
            error = node = sideProcess = type = f = null;
            tree = null;
        }
    }

    /**
     * A growable byte buffer without {@link java.io.ByteArrayOutputStream}'s locks (the recorder's lock guards
     * it) and with access to its array, so draining copies nothing.
     */
    private static final class LineBuffer extends OutputStream {
        private byte[] buf;
        private int size;

        LineBuffer(int capacity) {
            buf = new byte[capacity];
        }

        @Override
        public void write(int b) {
            ensure(1);
            buf[size++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, size, len);
            size += len;
        }

        private void ensure(int more) {
            if (size + more > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }

        byte[] bytes() {
            return buf;
        }

        int size() {
            return size;
        }

        void reset() {
            size = 0;
        }
    }
}
