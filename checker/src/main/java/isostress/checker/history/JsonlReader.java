package isostress.checker.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads JSON lines in the Jepsen op schema, isostress's own history format: one event per line,
 * {@code {"index":0,"type":"invoke","process":3,"time":1200345,"f":"txn","value":[["r",17,null]]}}.
 *
 * <p>Streams: blocks of lines are parsed on a second thread by a parser for the compact lines writers produce
 * ({@link JsonlChunk}); any other line goes through Jackson's token parser ({@link JsonlEvents}), in order. Either
 * fills the history's columns directly, so a line costs no objects.
 * An optional first line {@code {"type":"header","real-time":false,"initial-default":0,"initial":[["w",1,5]]}}
 * carries what the Jepsen schema cannot: initial values other than absent, and histories without real-time order.
 * Events of the {@code "nemesis"} process (faults) are kept as {@link SideEvent}s and not checked. Any other event
 * must be a client transaction ({@code "f":"txn"} or no {@code f}, an integer or no {@code process}) or, in a
 * history of them only, a single-register op ({@code "f":"read"}, {@code "write"}, {@code "cas"}: {@link RegisterOp});
 * any other {@code f} is refused with a sentence, never skipped, since skipping it would check an empty or partial
 * history and call it valid. Keys may be integers, strings, booleans or floats ({@link KeyDictionary}). Every field
 * is type-checked; unknown fields (Jepsen adds {@code error} and others) are skipped.
 *
 * <p>The same ops as one JSON array (elle-cli's JSON input) are read too: see {@link JsonArrayOps}.
 */
final class JsonlReader implements HistoryReader {
    /** Jackson's byte parser; a repeated field is an error, not a silent overwrite. */
    static final JsonFactory FACTORY = JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /**
     * Reads blocks of lines parsed on a second thread ({@link JsonlChunks}); a line that parser does not accept goes
     * through Jackson here, in order, and an object that spans lines makes Jackson read the rest of the input.
     */
    @Override
    public History read(InputStream in, String source) throws IOException {
        return read(in, source, JsonlChunks.BLOCK);
    }

    /** Reads in blocks of {@code block} bytes (tests use small ones, to put lines across block ends). */
    History read(InputStream in, String source, int block) throws IOException {
        if (!in.markSupported()) in = new java.io.BufferedInputStream(in, 1 << 16);
        if (JsonArrayOps.startsWithArray(in)) return JsonArrayOps.read(in, source);
        EventAssembler asm = new EventAssembler(source);
        OpBuffer ops = new OpBuffer();
        try (JsonlChunks chunks = new JsonlChunks(in, source, block)) {
            while (true) {
                JsonlChunk c = chunks.next();
                if (c.error != null) throw JsonlChunks.rethrow(c.error);
                for (int e = 0; e < c.events; e++) {
                    int done;
                    if (c.type[e] != JsonlChunk.JACKSON) {
                        replay(c, e, asm, ops);
                    } else if ((done = jacksonLine(c, e, asm, ops, source)) >= 0) {
                        int from = c.from[e] + done;
                        InputStream rest = new StrictUtf8Stream(chunks.rest(c, from), source, c.line[e],
                                c.firstOffset + from);
                        try (JsonParser p = FACTORY.createParser(rest)) {
                            return asm.finish(objects(p, asm, ops, source, c.line[e], false));
                        }
                    }
                }
                if (c.last) {
                    int lines = c.firstLine;
                    for (int i = 0; i < c.len; i++) if (c.buf[i] == '\n') lines++;
                    return asm.finish(lines);
                }
                chunks.recycle(c);
            }
        }
    }

    /** Reads with Jackson alone, as before {@link JsonlChunk}: the reference its tests compare with. */
    static History readWithJackson(InputStream in, String source) throws IOException {
        EventAssembler asm = new EventAssembler(source);
        try (JsonParser p = FACTORY.createParser(new StrictUtf8Stream(in, source))) {
            return asm.finish(objects(p, asm, new OpBuffer(), source, 1, new long[1]));
        }
    }

    /** Adds the event parsed by {@link JsonlChunk}: the same calls {@link #readEvent} makes for its line. */
    private static void replay(JsonlChunk c, int e, EventAssembler asm, OpBuffer ops) {
        int line = c.line[e];
        ops.clear();
        int o = e == 0 ? 0 : c.opEnd[e - 1];
        for (; o < c.opEnd[e]; o++) {
            long key = asm.keys.id(c.opKey[o], line);
            switch (c.opKind[o]) {
                case History.READ: ops.read(key, c.opValue[o], c.opNull[o]); break;
                case History.WRITE: ops.write(key, c.opValue[o]); break;
                case History.APPEND: ops.append(key, c.opValue[o]); break;
                case History.CAS: ops.cas(key, c.opValue[o], c.opNull[o], c.opValue2[o]); break;
                default: {
                    int from = o == 0 ? 0 : c.elemEnd[o - 1];
                    ops.listRead(key, c.elem, from, c.elemEnd[o] - from); // the chunk outlives the flush
                }
            }
        }
        long idx = asm.index(c.hasIndex[e], c.index[e], line);
        asm.shape("txn", line);
        if (c.type[e] == JsonlChunk.INVOKE) {
            asm.invoke(c.process[e], idx, c.time[e], line, ops);
        } else {
            asm.complete(JsonlChunk.outcome(c.type[e]), c.process[e], idx, c.time[e], line, ops, c.node[e],
                    c.isolation[e]);
        }
    }

    /**
     * Reads event {@code e}'s line with Jackson; returns -1. When the line is not whole JSON on its own (an object
     * that continues on the next line, or a carriage return Jackson counts as a line break), returns how many of its
     * bytes were read: the caller then gives Jackson the rest of the input from there.
     */
    private static int jacksonLine(JsonlChunk c, int e, EventAssembler asm, OpBuffer ops, String source)
            throws IOException {
        int a = c.from[e], b = c.to[e];
        for (int i = a; i < b - 1; i++) if (c.buf[i] == '\r') return 0;
        InputStream line = new StrictUtf8Stream(new java.io.ByteArrayInputStream(c.buf, a, b - a), source,
                c.line[e], c.firstOffset + a);
        try (JsonParser p = FACTORY.createParser(line)) {
            objects(p, asm, ops, source, c.line[e], !c.last || b < c.len);
            return -1;
        } catch (LineContinues x) {
            return x.done;
        }
    }

    /** Jackson reached the end of a line inside an object, and more lines follow. */
    private static final class LineContinues extends IOException {
        /** Bytes of the line already read as whole objects: Jackson goes on after them. */
        final int done;

        LineContinues(long done) {
            super(null, null);
            this.done = (int) done;
        }
    }

    /**
     * Reads every object of {@code p}, whose first line is the input's line {@code base}; returns the last line.
     *
     * @param moreFollows when true, an object the input ends inside raises {@link LineContinues}
     */
    private static int objects(JsonParser p, EventAssembler asm, OpBuffer ops, String source, int base,
                               boolean moreFollows) throws IOException {
        long[] done = {0};
        try {
            return objects(p, asm, ops, source, base, done);
        } catch (InputException e) {
            // Where the line ends inside an object or a token, what Jackson says depends on the lines after it.
            if (moreFollows && (endOfInput(e.getCause()) || e.getCause() == null
                    && (e.getMessage().contains("truncated") || e.getMessage().contains("end of input")))) {
                throw new LineContinues(done[0]);
            }
            throw e;
        }
    }

    private static boolean endOfInput(Throwable t) {
        return t instanceof JsonProcessingException
                && String.valueOf(((JsonProcessingException) t).getOriginalMessage()).contains("end-of-input");
    }

    private static int objects(JsonParser p, EventAssembler asm, OpBuffer ops, String source, int base, long[] done)
            throws IOException {
        int shift = base - 1;
        try {
            JsonToken tok;
            int line = base;
            while ((tok = JsonlEvents.nextToken(p, source, shift)) != null) {
                line = p.currentTokenLocation().getLineNr() + shift;
                if (tok != JsonToken.START_OBJECT) {
                    throw new InputException(source, line, "expected a JSON object per line, got " + JsonlEvents.describe(p));
                }
                try {
                    JsonlEvents.readEvent(p, line, shift, asm, ops, source);
                    done[0] = p.currentLocation().getByteOffset();
                } catch (InputException e) {
                    // Input that ends inside an object is reported at the line where the object starts.
                    if (e.getCause() instanceof JsonParseException && endOfInput(e.getCause())) {
                        throw new InputException(source, line, "truncated line: the JSON object that starts here "
                                + "does not end", e.getCause());
                    }
                    throw e;
                } catch (JsonProcessingException e) {
                    throw JsonlEvents.malformed(e, p, source, shift);
                }
            }
            return Math.max(line, p.currentLocation().getLineNr() + shift);
        } catch (JsonProcessingException e) {
            // Jackson parses a string's text lazily, so describing a bad token can fail too.
            throw JsonlEvents.malformed(e, p, source, shift);
        }
    }

    /**
     * A Jackson error (syntax, or a limit of its {@code StreamReadConstraints} such as nesting depth) as one sentence
     * naming the line.
     */
    static InputException malformed(JsonProcessingException e, JsonParser p, String source) {
        return JsonlEvents.malformed(e, p, source, 0);
    }
}
