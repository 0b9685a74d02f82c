package isostress.checker.history;

/**
 * How a transaction ended, in Jepsen's op-type vocabulary.
 *
 * <p>{@link #INFO} is an unknown outcome (timeout, connection lost during commit): the transaction may or may not
 * have committed. It is never to be confused with {@link #FAIL}, which means certainly aborted.
 */
public enum Outcome {
    /** Committed. */
    OK("ok"),
    /** Certainly aborted: none of its effects may be observed. */
    FAIL("fail"),
    /** Unknown: may have committed. A write of it that someone read means it did. */
    INFO("info");

    private final String jepsenName;

    Outcome(String jepsenName) {
        this.jepsenName = jepsenName;
    }

    /** The Jepsen op type: {@code ok}, {@code fail} or {@code info}. */
    public String jepsenName() {
        return jepsenName;
    }

    /** The outcome for a Jepsen completion type, or null when {@code type} is not a completion type. */
    public static Outcome fromJepsen(String type) {
        switch (type) {
            case "ok": return OK;
            case "fail": return FAIL;
            case "info": return INFO;
            default: return null;
        }
    }
}
