package isostress.checker.history;

/**
 * How {@link EdnWriter} spells micro-ops, Jepsen's EDN encoding: {@code [:r 1 nil]}. (JSON lines are written by
 * {@link JsonlWriter} through Jackson.)
 */
final class EdnOps {
    private EdnOps() {
    }

    /**
     * Appends op {@code o} of {@code h}. In an invocation ({@code completion} false) reads carry no value, as
     * Jepsen records them.
     */
    static void appendOp(StringBuilder sb, History h, int o, boolean completion) {
        String k = h.keyName(h.opKey(o));
        sb.append('[');
        switch (h.opKind(o)) {
            case History.READ:
                fn(sb, "r").append(k).append(' ');
                if (!completion || h.opValueNull(o)) sb.append("nil"); else sb.append(h.opValue(o));
                break;
            case History.LIST_READ: {
                fn(sb, "r").append(k).append(' ');
                long[] vs = completion ? h.listValues(o) : null;
                if (vs == null) {
                    sb.append("nil");
                } else {
                    sb.append('[');
                    for (int i = 0; i < vs.length; i++) {
                        if (i > 0) sb.append(' ');
                        sb.append(vs[i]);
                    }
                    sb.append(']');
                }
                break;
            }
            case History.WRITE: fn(sb, "w").append(k).append(' ').append(h.opValue(o)); break;
            case History.APPEND: fn(sb, "append").append(k).append(' ').append(h.opValue(o)); break;
            case History.CAS:
                fn(sb, "cas").append(k).append(' ').append('[');
                if (h.opValueNull(o)) sb.append("nil"); else sb.append(h.opValue(o));
                sb.append(' ').append(h.casNew(o)).append(']');
                break;
            default:
                throw new IllegalStateException("op kind " + h.opKind(o));
        }
        sb.append(']');
    }

    /**
     * Appends {@code , :f :read, :value 3} for transaction {@code t} of a {@link History#registerOps()} history:
     * Knossos's form, or jepsen.independent's {@code [key v]} tuple. Reads carry no value in an invocation.
     */
    static void appendRegisterOp(StringBuilder sb, History h, int t, boolean completion) {
        int o = h.firstOp(t);
        String f = h.opKind(o) == History.READ ? "read" : h.opKind(o) == History.WRITE ? "write" : "cas";
        sb.append(", :f :").append(f).append(", :value ");
        if (h.independentRegisters()) sb.append('[').append(h.keyName(h.opKey(o))).append(' ');
        switch (h.opKind(o)) {
            case History.READ:
                if (!completion || h.opValueNull(o)) sb.append("nil"); else sb.append(h.opValue(o));
                break;
            case History.WRITE:
                sb.append(h.opValue(o));
                break;
            default:
                sb.append('[');
                if (h.opValueNull(o)) sb.append("nil"); else sb.append(h.opValue(o));
                sb.append(' ').append(h.casNew(o)).append(']');
        }
        if (h.independentRegisters()) sb.append(']');
    }

    /** Appends the transaction's ops, separated. */
    static void appendOps(StringBuilder sb, History h, int t, boolean completion) {
        sb.append('[');
        for (int o = h.firstOp(t); o < h.endOp(t); o++) {
            if (o > h.firstOp(t)) sb.append(' ');
            appendOp(sb, h, o, completion);
        }
        sb.append(']');
    }

    private static StringBuilder fn(StringBuilder sb, String name) {
        return sb.append(':').append(name).append(' ');
    }
}
