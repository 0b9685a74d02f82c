package isostress.checker.history;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads elle-cli's JSON input: one JSON array whose elements are the op maps a JSON-lines history holds one per line
 * ({@code [{"type":"invoke","f":"txn","value":[["append",1,2]],"process":0,"time":1,"index":0}, ...]}), on one line
 * or spread over many. The array is streamed with Jackson's token parser, never loaded as a tree (a history can be
 * gigabytes), and each element goes through {@link JsonlEvents#readEvent}, the JSON-lines reader's own code for an
 * event, so both forms accept and refuse the same ops with the same sentences; an error names the line where the
 * element starts.
 */
final class JsonArrayOps {
    private JsonArrayOps() {
    }

    /** True when the first byte that is not white space is {@code [}; reads ahead on {@code in} and resets it. */
    static boolean startsWithArray(InputStream in) throws IOException {
        in.mark(1 << 16);
        try {
            int b;
            for (int n = 0; n < (1 << 16) && (b = in.read()) >= 0; n++) {
                if (!Character.isWhitespace(b)) return b == '[';
            }
            return false;
        } finally {
            in.reset();
        }
    }

    /** The token after an element (or the array's start): a ',' between them is Jackson's to check. */
    private static JsonToken between(JsonParser p, String source, int arrayLine) throws IOException {
        JsonToken tok;
        try {
            tok = p.nextToken();
        } catch (JsonProcessingException e) {
            if (!String.valueOf(e.getOriginalMessage()).contains("end-of-input")) {
                throw JsonlEvents.malformed(e, p, source, 0);
            }
            tok = null;
        }
        if (tok == null) {
            throw new InputException(source, arrayLine, "truncated: the JSON array of ops that starts here does not "
                    + "end (no closing ])");
        }
        return tok;
    }

    /** Reads the array {@code in} holds; {@code in} must start (after white space) with {@code [}. */
    static History read(InputStream in, String source) throws IOException {
        EventAssembler asm = new EventAssembler(source);
        OpBuffer ops = new OpBuffer();
        try (JsonParser p = JsonlReader.FACTORY.createParser(new StrictUtf8Stream(in, source))) {
            JsonToken tok = JsonlEvents.nextToken(p, source);
            int arrayLine = p.currentTokenLocation().getLineNr();
            if (tok != JsonToken.START_ARRAY) {
                throw new InputException(source, arrayLine, "expected a JSON array of ops, got " + JsonlEvents.describe(p));
            }
            int line = arrayLine;
            while ((tok = between(p, source, arrayLine)) != JsonToken.END_ARRAY) {
                line = p.currentTokenLocation().getLineNr();
                if (tok != JsonToken.START_OBJECT) {
                    throw new InputException(source, line, "expected a JSON object (an op like {\"type\":"
                            + "\"invoke\",\"f\":\"txn\",...}) as each element of the JSON array, got "
                            + JsonlEvents.describe(p));
                }
                try {
                    JsonlEvents.readEvent(p, line, 0, asm, ops, source);
                } catch (InputException e) {
                    if (e.getCause() instanceof JsonParseException && String.valueOf(
                            ((JsonParseException) e.getCause()).getOriginalMessage()).contains("end-of-input")) {
                        throw new InputException(source, line, "truncated: the op that starts here does not end",
                                e.getCause());
                    }
                    throw e;
                } catch (JsonProcessingException e) {
                    throw JsonlEvents.malformed(e, p, source, 0);
                }
            }
            int end = p.currentTokenLocation().getLineNr();
            if (JsonlEvents.nextToken(p, source) != null) {
                throw new InputException(source, p.currentTokenLocation().getLineNr(), "more input after the JSON "
                        + "array of ops, which ends on line " + end + "; a history is one array");
            }
            return asm.finish(Math.max(line, p.currentLocation().getLineNr()));
        } catch (JsonProcessingException e) {
            throw new InputException(source, e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
                    "malformed JSON: " + e.getOriginalMessage(), e);
        }
    }
}
