package isostress.checker.model;

/**
 * Elle's suffixes for dependency cycles that need more than data dependencies: {@code -process} when the cycle
 * uses session order, {@code -realtime} when it uses real-time order (which then takes precedence).
 */
public enum CycleVariant {
    NONE(""),
    PROCESS("-process"),
    REALTIME("-realtime");

    private final String suffix;

    CycleVariant(String suffix) {
        this.suffix = suffix;
    }

    public String suffix() {
        return suffix;
    }
}
