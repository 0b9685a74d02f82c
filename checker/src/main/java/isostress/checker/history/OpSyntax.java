package isostress.checker.history;

/**
 * How micro-ops are spelled in the two Jepsen encodings, so one renderer serves both writers:
 * JSON {@code ["r",1,null]} and EDN {@code [:r 1 nil]}.
 */
enum OpSyntax {
    JSON("\"", "\"", ",", "null"),
    EDN(":", "", " ", "nil");

    private final String fnOpen, fnClose, sep, nil;

    OpSyntax(String fnOpen, String fnClose, String sep, String nil) {
        this.fnOpen = fnOpen;
        this.fnClose = fnClose;
        this.sep = sep;
        this.nil = nil;
    }

    /**
     * Appends op {@code o} of {@code h}. In an invocation ({@code completion} false) reads carry no value, as
     * Jepsen records them.
     */
    void appendOp(StringBuilder sb, History h, int o, boolean completion) {
        String k = key(h, h.opKey(o));
        sb.append('[');
        switch (h.opKind(o)) {
            case History.READ:
                fn(sb, "r").append(k).append(sep);
                if (!completion || h.opValueNull(o)) sb.append(nil); else sb.append(h.opValue(o));
                break;
            case History.LIST_READ: {
                fn(sb, "r").append(k).append(sep);
                long[] vs = completion ? h.listValues(o) : null;
                if (vs == null) {
                    sb.append(nil);
                } else {
                    sb.append('[');
                    for (int i = 0; i < vs.length; i++) {
                        if (i > 0) sb.append(sep);
                        sb.append(vs[i]);
                    }
                    sb.append(']');
                }
                break;
            }
            case History.WRITE: fn(sb, "w").append(k).append(sep).append(h.opValue(o)); break;
            case History.APPEND: fn(sb, "append").append(k).append(sep).append(h.opValue(o)); break;
            case History.CAS:
                fn(sb, "cas").append(k).append(sep).append('[');
                if (h.opValueNull(o)) sb.append(nil); else sb.append(h.opValue(o));
                sb.append(sep).append(h.casNew(o)).append(']');
                break;
            default:
                throw new IllegalStateException("op kind " + h.opKind(o));
        }
        sb.append(']');
    }

    /**
     * Appends {@code , :f :read, :value 3} (EDN) or {@code ,"f":"read","value":3} (JSON) for transaction {@code t} of a
     * {@link History#registerOps()} history: Knossos's form, or jepsen.independent's {@code [key v]} tuple. Reads
     * carry no value in an invocation.
     */
    void appendRegisterOp(StringBuilder sb, History h, int t, boolean completion) {
        int o = h.firstOp(t);
        String f = h.opKind(o) == History.READ ? "read" : h.opKind(o) == History.WRITE ? "write" : "cas";
        if (this == EDN) sb.append(", :f :").append(f).append(", :value ");
        else sb.append(",\"f\":\"").append(f).append("\",\"value\":");
        if (h.independentRegisters()) sb.append('[').append(key(h, h.opKey(o))).append(sep);
        switch (h.opKind(o)) {
            case History.READ:
                if (!completion || h.opValueNull(o)) sb.append(nil); else sb.append(h.opValue(o));
                break;
            case History.WRITE:
                sb.append(h.opValue(o));
                break;
            default:
                sb.append('[');
                if (h.opValueNull(o)) sb.append(nil); else sb.append(h.opValue(o));
                sb.append(sep).append(h.casNew(o)).append(']');
        }
        if (h.independentRegisters()) sb.append(']');
    }

    /** Appends the transaction's ops, separated. */
    void appendOps(StringBuilder sb, History h, int t, boolean completion) {
        sb.append('[');
        for (int o = h.firstOp(t); o < h.endOp(t); o++) {
            if (o > h.firstOp(t)) sb.append(sep);
            appendOp(sb, h, o, completion);
        }
        sb.append(']');
    }

    /**
     * A key as written: integers as themselves, other keys as the input spelled them ({@link History#keyName}); in
     * JSON an EDN keyword becomes the string {@code ":x"}, JSON having no keywords.
     */
    private String key(History h, long id) {
        String n = h.keyName(id);
        return this == JSON && n.startsWith(":") ? "\"" + n + "\"" : n;
    }

    private StringBuilder fn(StringBuilder sb, String name) {
        return sb.append(fnOpen).append(name).append(fnClose).append(sep);
    }
}
