package isostress.harness.run;

import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.checker.history.Txn;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * real time comes from indices and there is no clock skew. Whole lines are written under one lock and flushed every
 * 100 ms and at the end, so a crash leaves a checkable prefix.
 *
 * <p>A listener ({@link #onCompletion}) sees each completed transaction as the reader of the file will: numbered by
 * its invocation among all transactions, with the same indices, times and line. The streaming check uses it rather
 * than re-reading the file.
 */
public final class HistoryRecorder implements AutoCloseable {
    // Whole lines only reach the file: a BufferedWriter would spill a full buffer mid-line, and a harness killed
    // right then would leave a truncated last line that no reader accepts. Lines gather here and go out in one
    // write(2) each time (at 64 KiB or every 100 ms), which a SIGKILL cannot split.
    private final OutputStream out;
    private final StringBuilder pending = new StringBuilder(1 << 17);
    private final long start = System.nanoTime();
    private final StringBuilder sb = new StringBuilder(256);
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
        out.write(("{\"type\":\"header\",\"real-time\":true,\"initial-default\":" + initial + "}\n")
                .getBytes(StandardCharsets.UTF_8));
        flusher.scheduleWithFixedDelay(this::flush, 100, 100, TimeUnit.MILLISECONDS);
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
        line("invoke", idx, time, process, ops, null, null);
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
        line(outcome.jepsenName(), idx, time, process, ops, error, node);
        long[] inv = listener == null ? null : inFlight.remove(process);
        if (inv != null) {
            // Line idx + 2: the header is line 1 and every event one line, as the JSONL reader counts them.
            listener.accept(new Txn((int) inv[0], process, outcome, ops, inv[1], idx, inv[2], time, (int) idx + 2,
                    node, null));
        }
    }

    /** Records an event of another process (a fault), with a JSON value. */
    public synchronized void side(String process, String type, String f, String valueJson) {
        sb.setLength(0);
        sb.append("{\"index\":").append(index++).append(",\"type\":\"").append(type).append("\",\"process\":\"")
          .append(process).append("\",\"time\":").append(now()).append(",\"f\":\"").append(f).append('"');
        if (valueJson != null) sb.append(",\"value\":").append(valueJson);
        write(sb.append("}\n"));
    }

    /** How many events so far. */
    public synchronized long events() {
        return index;
    }

    private void line(String type, long idx, long time, long process, List<MicroOp> ops, String error, String node) {
        index = idx + 1;
        sb.setLength(0);
        sb.append("{\"index\":").append(idx).append(",\"type\":\"").append(type).append("\",\"process\":")
          .append(process).append(",\"time\":").append(time).append(",\"f\":\"txn\",\"value\":[");
        for (int i = 0; i < ops.size(); i++) {
            if (i > 0) sb.append(',');
            op(sb, ops.get(i));
        }
        sb.append(']');
        if (node != null) sb.append(",\"node\":\"").append(node).append('"');
        if (error != null) {
            sb.append(",\"error\":\"");
            // The driver's message, which may quote a URL: masked like everything else the run stores.
            com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance().quoteAsString(
                    isostress.harness.config.Secrets.mask(error), sb);
            sb.append('"');
        }
        write(sb.append("}\n"));
    }

    private static void op(StringBuilder sb, MicroOp m) {
        sb.append("[\"").append(m.function()).append("\",").append(m.key()).append(',');
        if (m instanceof MicroOp.Read) {
            Long v = ((MicroOp.Read) m).value();
            sb.append(v == null ? "null" : v.toString());
        } else if (m instanceof MicroOp.Write) {
            sb.append(((MicroOp.Write) m).value());
        } else if (m instanceof MicroOp.Append) {
            sb.append(((MicroOp.Append) m).value());
        } else if (m instanceof MicroOp.ListRead) {
            List<Long> vs = ((MicroOp.ListRead) m).values();
            if (vs == null) {
                sb.append("null");
            } else {
                sb.append('[');
                for (int i = 0; i < vs.size(); i++) {
                    if (i > 0) sb.append(',');
                    sb.append(vs.get(i));
                }
                sb.append(']');
            }
        } else {
            MicroOp.Cas c = (MicroOp.Cas) m;
            sb.append('[').append(c.expected() == null ? "null" : c.expected().toString()).append(',')
              .append(c.newValue()).append(']');
        }
        sb.append(']');
    }

    private void write(CharSequence s) {
        if (closed) throw new IllegalStateException("history closed");
        try {
            pending.append(s);
            if (pending.length() >= 1 << 16) drain();
        } catch (IOException e) {
            throw new UncheckedIOException("writing the history", e);
        }
    }

    private void drain() throws IOException {
        if (pending.length() == 0) return;
        out.write(pending.toString().getBytes(StandardCharsets.UTF_8));
        pending.setLength(0);
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
        out.close();
    }
}
