package isostress.harness.run;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.json.JsonMapper;
import isostress.checker.history.MicroOp;
import isostress.checker.history.Outcome;
import isostress.harness.db.Secrets;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;

/**
 * The lines of history.jsonl: events turned into JSON by Jackson's streaming {@link JsonGenerator}, so strings
 * (node names, errors, fault values) are escaped by construction (RFC 8259 §7), gathered in memory until
 * {@link #drain} sends them, whole lines only, to the file in one write. Used by {@link HistoryRecorder}'s writer
 * thread alone.
 */
final class HistoryLines {
    static final JsonMapper MAPPER = JsonMapper.builder().build();
    // Names and fixed values quoted once (Jackson copies their bytes).
    private static final SerializedString INDEX = new SerializedString("index"), TYPE = new SerializedString("type"),
            PROCESS = new SerializedString("process"), TIME = new SerializedString("time"),
            F = new SerializedString("f"), VALUE = new SerializedString("value"), NODE = new SerializedString("node"),
            ERROR = new SerializedString("error"), TXN = new SerializedString("txn"),
            INVOKE = new SerializedString("invoke"), R = new SerializedString("r"), W = new SerializedString("w"),
            APPEND = new SerializedString("append"), CAS = new SerializedString("cas");
    private static final SerializedString[] OUTCOMES = Arrays.stream(Outcome.values())
            .map(o -> new SerializedString(o.jepsenName())).toArray(SerializedString[]::new);
    // The generator writes UTF-8 into `lines` (its own buffer spills there mid-line, which is harmless: only drain()
    // moves bytes to the file, after flushing the generator at a line's end).
    private final LineBuffer lines = new LineBuffer(1 << 17);
    private final JsonGenerator gen;
    private final OutputStream out;

    /** Lines for {@code out}, beginning with the header: every key starts at {@code initial}. */
    HistoryLines(OutputStream out, long initial) throws IOException {
        this.out = out;
        // No separator between root values: each line ends with the '\n' written after it.
        gen = MAPPER.getFactory().createGenerator(lines).setRootValueSeparator(null);
        gen.writeStartObject();
        gen.writeStringField("type", "header");
        gen.writeBooleanField("real-time", true);
        gen.writeNumberField("initial-default", initial);
        gen.writeEndObject();
        gen.writeRaw('\n');
    }

    void invoke(HistoryEvent e) throws IOException {
        line(INVOKE, e);
    }

    void complete(HistoryEvent e) throws IOException {
        line(OUTCOMES[e.outcome.ordinal()], e);
    }

    /** An event of another process (a fault), its value already a JSON tree. */
    void side(HistoryEvent e) throws IOException {
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

    private void line(SerializedString type, HistoryEvent e) throws IOException {
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
    void drain() throws IOException {
        gen.flush();
        if (lines.size() == 0) return;
        out.write(lines.bytes(), 0, lines.size());
        lines.reset();
    }

    void close() throws IOException {
        gen.close();
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
