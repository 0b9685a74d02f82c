package isostress.checker.witness;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.checker.history.InputException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A witness file's {@code log} line (docs/witness.md), a capture's account of one member's time as a primary on one
 * timeline:
 * <pre>
 * {"log": {"node": "n2", "timeline": 2, "branches": [[1, 50331744]], "primary_from_ns": 12034000000,
 *          "read_from_ns": 12950000000, "read_to_ns": 61800000000, "primary_to_ns": null}}
 * </pre>
 * Times are the history's clock in nanoseconds; {@code primary_from_ns} null is "before the capture began",
 * {@code primary_to_ns} null "still primary when the capture ended", {@code read_from_ns} and {@code read_to_ns} null
 * "its log was never read". Rare (one per member and timeline), so read as a tree.
 */
final class CaptureLogLine {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CaptureLogLine() {
    }

    static CaptureLog read(JsonParser p, JsonToken start, int line, String source) throws IOException {
        if (start != JsonToken.START_OBJECT) {
            throw new InputException(source, line, "\"log\" must be an object {\"node\", \"timeline\", ...}");
        }
        JsonNode o = JSON.readTree(p);
        JsonNode node = o.get("node");
        if (node == null || !node.isTextual()) {
            throw new InputException(source, line, "\"log\": \"node\" must be a string (the member)");
        }
        long timeline = integer(o, "timeline", line, source, -1);
        if (timeline < 1) throw new InputException(source, line, "\"log\": \"timeline\" must be 1 or more");
        List<CaptureLog.Branch> branches = new ArrayList<>();
        JsonNode bs = o.get("branches");
        if (bs != null && !bs.isNull()) {
            if (!bs.isArray()) throw new InputException(source, line, "\"log\": \"branches\" must be a list");
            for (JsonNode b : bs) {
                if (!b.isArray() || b.size() != 2 || !b.get(0).canConvertToLong() || !b.get(1).canConvertToLong()) {
                    throw new InputException(source, line, "\"log\": a branch is [parent timeline, position], got "
                            + b);
                }
                branches.add(new CaptureLog.Branch(b.get(0).asLong(), b.get(1).asLong()));
            }
        }
        long readFrom = integer(o, "read_from_ns", line, source, Long.MAX_VALUE);
        long readTo = integer(o, "read_to_ns", line, source, Long.MIN_VALUE);
        if ((readFrom == Long.MAX_VALUE) != (readTo == Long.MIN_VALUE) || readTo < readFrom && readTo != Long.MIN_VALUE) {
            throw new InputException(source, line, "\"log\": \"read_from_ns\" and \"read_to_ns\" are both null (never "
                    + "read) or both times, the first not after the second");
        }
        return new CaptureLog(node.asText(), timeline, branches, integer(o, "primary_from_ns", line, source,
                Long.MIN_VALUE), readFrom, readTo, integer(o, "primary_to_ns", line, source, Long.MAX_VALUE), line);
    }

    private static long integer(JsonNode o, String field, int line, String source, long absent) {
        JsonNode v = o.get(field);
        if (v == null || v.isNull()) return absent;
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new InputException(source, line, "\"log\": \"" + field + "\" must be an integer or null, got " + v);
        }
        return v.asLong();
    }
}
