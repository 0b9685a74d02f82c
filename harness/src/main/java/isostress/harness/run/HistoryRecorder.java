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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Appends every invocation and completion to {@code history.jsonl} in one global order (DESIGN.md): the event's
 * index is its position in that order, its time the nanoseconds since the run started on one monotonic clock, so
 * real time comes from indices and there is no clock skew. Whole lines are generated under one lock into a buffer
 * and reach the file in one write(2) per batch: once 64 KiB have gathered, every 10 ms, and at the end, so a crash
 * leaves a checkable prefix and loses at most the last 10 ms (or 64 KiB) of events.
 *
 * <p>Every line is written by Jackson's streaming {@link JsonGenerator}, so strings (node names, errors, fault
 * values) are escaped by construction (RFC 8259 §7).
 *
 * <p>A listener ({@link #onCompletion}) sees each completed transaction as the reader of the file will: numbered by
 * its invocation among all transactions, with the same indices, times and line. The streaming check uses it rather
 * than re-reading the file.
 */
public final class HistoryRecorder implements AutoCloseable {
    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    // Names and fixed values quoted once (Jackson copies their bytes): the hot path stays about as fast as the
    // StringBuilder lines this replaced (HistoryRecorderBench).
    private static final SerializedString INDEX = new SerializedString("index"), TYPE = new SerializedString("type"),
            PROCESS = new SerializedString("process"), TIME = new SerializedString("time"),
            F = new SerializedString("f"), VALUE = new SerializedString("value"), NODE = new SerializedString("node"),
            ERROR = new SerializedString("error"), TXN = new SerializedString("txn"),
            INVOKE = new SerializedString("invoke"), R = new SerializedString("r"), W = new SerializedString("w"),
            APPEND = new SerializedString("append"), CAS = new SerializedString("cas");
    private static final SerializedString[] OUTCOMES = Arrays.stream(Outcome.values())
            .map(o -> new SerializedString(o.jepsenName())).toArray(SerializedString[]::new);
    // Whole lines only reach the file: a BufferedWriter would spill a full buffer mid-line, and a harness killed
    // right then would leave a truncated last line that no reader accepts. Lines gather here and go out in one
    // write(2) each time (at 64 KiB or every 10 ms), which a SIGKILL cannot split.
    // The generator writes UTF-8 into `pending` (its own buffer spills there mid-line, which is harmless: only
    // drain() moves bytes to the file, and it runs between lines after flushing the generator).
    /** The longest a completed line waits in memory: what a SIGKILL can lose, at most 10 ms of events. */
    static final long FLUSH_MS = 10;
    private final OutputStream out;
    private final LineBuffer pending = new LineBuffer(1 << 17);
    private final JsonGenerator gen;
    private final long start = System.nanoTime();
    private final ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "history-flush");
        t.setDaemon(true);
        return t;
    });
    private long index;
    private boolean closed;
    private int invocations;
    private Consumer<Txn> listener;
    /** Per process, its transaction in flight: {id, invocation index, invocation time}; kept only for a listener. */
    private final Map<Long, long[]> inFlight = new HashMap<>();

    /** Opens {@code file} and writes the header: every key starts at {@code initial}. */
    public HistoryRecorder(Path file, long initial) throws IOException {
        out = Files.newOutputStream(file);
        // No separator between root values: each line ends with the '\n' written after it.
        gen = MAPPER.getFactory().createGenerator(pending).setRootValueSeparator(null);
        gen.writeStartObject();
        gen.writeStringField("type", "header");
        gen.writeBooleanField("real-time", true);
        gen.writeNumberField("initial-default", initial);
        gen.writeEndObject();
        endLine();
        drain();
        flusher.scheduleWithFixedDelay(this::flush, FLUSH_MS, FLUSH_MS, TimeUnit.MILLISECONDS);
    }

    /** Nanoseconds since the run started. */
    public long now() {
        return System.nanoTime() - start;
    }

    /**
     * Calls {@code listener} with every transaction completed from now on, under the recorder's lock (so in
     * completion order; it must be quick). Set it before the first invocation.
     */
    public synchronized void onCompletion(Consumer<Txn> listener) {
        this.listener = listener;
    }

    /** Records that {@code process} invokes a transaction of {@code ops} (read values not known yet). */
    public synchronized void invoke(long process, List<MicroOp> ops) {
        long idx = index, time = now();
        line(INVOKE, idx, time, process, ops, null, null);
        if (listener != null) inFlight.put(process, new long[] {invocations, idx, time});
        invocations++;
    }

    /** Records the completion of {@code process}'s transaction. */
    public synchronized void complete(long process, Outcome outcome, List<MicroOp> ops, String error) {
        complete(process, outcome, ops, error, null);
    }

    /** Records the completion of {@code process}'s transaction on {@code node} (null: a single server). */
    public synchronized void complete(long process, Outcome outcome, List<MicroOp> ops, String error, String node) {
        long idx = index, time = now();
        line(OUTCOMES[outcome.ordinal()], idx, time, process, ops, error, node);
        long[] inv = listener == null ? null : inFlight.remove(process);
        if (inv != null) {
            // Line idx + 2: the header is line 1 and every event one line, as the JSONL reader counts them.
            listener.accept(new Txn((int) inv[0], process, outcome, ops, inv[1], idx, inv[2], time, (int) idx + 2,
                    node, null));
        }
    }

    /**
     * Records an event of another process (a fault). {@code value} (null: none) is written as JSON by Jackson, for
     * example a map of strings and numbers.
     */
    public synchronized void side(String process, String type, String f, Object value) {
        checkOpen();
        // Converted before the line starts, so a value Jackson cannot write fails here and leaves no half line.
        JsonNode tree = value == null ? null : MAPPER.valueToTree(value);
        try {
            gen.writeStartObject();
            gen.writeNumberField("index", index++);
            gen.writeStringField("type", type);
            gen.writeStringField("process", process);
            gen.writeNumberField("time", now());
            gen.writeStringField("f", f);
            if (tree != null) {
                gen.writeFieldName("value");
                gen.writeTree(tree);
            }
            gen.writeEndObject();
            endLine();
        } catch (IOException e) {
            throw new UncheckedIOException("writing the history", e);
        }
    }

    /** How many events so far. */
    public synchronized long events() {
        return index;
    }

    private void line(SerializedString type, long idx, long time, long process, List<MicroOp> ops, String error,
                      String node) {
        checkOpen();
        index = idx + 1;
        try {
            gen.writeStartObject();
            gen.writeFieldName(INDEX);
            gen.writeNumber(idx);
            gen.writeFieldName(TYPE);
            gen.writeString(type);
            gen.writeFieldName(PROCESS);
            gen.writeNumber(process);
            gen.writeFieldName(TIME);
            gen.writeNumber(time);
            gen.writeFieldName(F);
            gen.writeString(TXN);
            gen.writeFieldName(VALUE);
            gen.writeStartArray();
            for (int i = 0; i < ops.size(); i++) op(ops.get(i));
            gen.writeEndArray();
            if (node != null) {
                gen.writeFieldName(NODE);
                gen.writeString(node);
            }
            if (error != null) {
                // The driver's message, which may quote a URL: masked like everything else the run stores.
                gen.writeFieldName(ERROR);
                gen.writeString(Secrets.mask(error));
            }
            gen.writeEndObject();
            endLine();
        } catch (IOException e) {
            throw new UncheckedIOException("writing the history", e);
        }
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

    private void checkOpen() {
        if (closed) throw new IllegalStateException("history closed");
    }

    /** Ends the line just generated; sends whole lines to the file once 64 KiB have gathered. */
    private void endLine() throws IOException {
        gen.writeRaw('\n');
        if (gen.getOutputBuffered() + pending.size() >= 1 << 16) drain();
    }

    private void drain() throws IOException {
        gen.flush();
        if (pending.size() == 0) return;
        out.write(pending.bytes(), 0, pending.size());
        pending.reset();
    }

    private synchronized void flush() {
        if (closed) return;
        try {
            drain();
        } catch (IOException e) {
            System.err.println("isostress: flushing the history: " + e.getMessage());
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) return;
        flusher.shutdownNow();
        closed = true;
        drain();
        gen.close();
        out.close();
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
