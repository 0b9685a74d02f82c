package isostress.checker.model;

/** A checker's answer for one level: valid, invalid (with anomalies), or unknown (with the reason). */
public enum Verdict {
    VALID("valid"),
    INVALID("invalid"),
    UNKNOWN("unknown");

    private final String jsonName;

    Verdict(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }
}
