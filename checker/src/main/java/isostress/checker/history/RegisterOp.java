package isostress.checker.history;

import java.util.List;

/**
 * Reads one Jepsen single-object operation, as Knossos and Porcupine check them (Knossos {@code cas-register}
 * model): {@code :f :read} (value nil on invocation, the value read on completion), {@code :f :write} (the value
 * written) and {@code :f :cas} ({@code [old new]}: sets {@code new} iff the register holds {@code old}). Each becomes
 * a transaction of one micro-op on the register's key, so the rest of the pipeline (pairing, info, pending) is shared
 * with transactional histories.
 *
 * <p>jepsen.independent runs one register per key and writes {@code :value} as a tuple {@code [key v]}
 * ({@code [:x 3]}, {@code [:x [1 2]]} for a cas). A plain cas value {@code [1 2]} is told from an independent read or
 * write by its second element: a cas tuple's is itself a vector. A plain history is register key 0.
 */
final class RegisterOp {
    /** Plain (one register) or independent (a register per key); one history holds one of the two. */
    enum Form { PLAIN, INDEPENDENT }

    private RegisterOp() {
    }

    /** True for the {@code :f} names read here. */
    static boolean isRegisterFunction(String f) {
        return "read".equals(f) || "write".equals(f) || "cas".equals(f);
    }

    /**
     * Adds the op's single micro-op to {@code ops} and returns which form its value had.
     *
     * @param value the op's {@code :value} as parsed: Long, Double, String, Boolean, EDN keyword, List or null
     */
    static Form read(String f, Object value, KeyDictionary keys, OpBuffer ops, int line, String source) {
        Form form = Form.PLAIN;
        Object v = value;
        long key = 0;
        if (value instanceof List && ((List<?>) value).size() == 2
                && (!f.equals("cas") || ((List<?>) value).get(1) instanceof List || ((List<?>) value).get(1) == null)) {
            form = Form.INDEPENDENT;
            key = keys.id(((List<?>) value).get(0), line);
            v = ((List<?>) value).get(1);
        }
        switch (f) {
            case "read":
                if (v == null) ops.read(key, 0, true);
                else if (v instanceof Long) ops.read(key, (Long) v, false);
                else throw notInteger(f, v, "an integer or nil", line, source);
                break;
            case "write":
                if (!(v instanceof Long)) throw notInteger(f, v, "an integer", line, source);
                ops.write(key, (Long) v);
                break;
            case "cas": {
                if (v == null && form == Form.INDEPENDENT) {
                    throw new InputException(source, line, "cas of key " + describe(((List<?>) value).get(0))
                            + ": value must be [old new], got nil");
                }
                if (!(v instanceof List) || ((List<?>) v).size() != 2) {
                    throw notInteger(f, v, "[old new] with integers (old may be nil)", line, source);
                }
                Object old = ((List<?>) v).get(0), nw = ((List<?>) v).get(1);
                if (!(old == null || old instanceof Long) || !(nw instanceof Long)) {
                    throw notInteger(f, v, "[old new] with integers (old may be nil)", line, source);
                }
                ops.cas(key, old == null ? 0 : (Long) old, old == null, (Long) nw);
                break;
            }
            default:
                throw new IllegalArgumentException(f);
        }
        return form;
    }

    /** Values stay integers, as in Elle's and Knossos's register tests: anything else is named, not coerced. */
    private static InputException notInteger(String f, Object v, String expected, int line, String source) {
        return new InputException(source, line, ":" + f + " value must be " + expected + ", got " + describe(v)
                + " (register values are integers)");
    }

    private static String describe(Object o) {
        return o == null ? "nil" : EdnParser.abbreviate(o instanceof String ? KeyDictionary.spelling(o) : o.toString());
    }
}
