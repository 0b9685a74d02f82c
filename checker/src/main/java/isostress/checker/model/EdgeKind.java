package isostress.checker.model;

/**
 * Kinds of dependency edges between transactions (Adya 1999; MTC Def. 3), plus the orders the checkers add.
 * Stored as the ordinal in a byte on hot paths.
 */
public enum EdgeKind {
    /** Write-write: T2 overwrote the version T1 wrote. */
    WW("ww"),
    /** Write-read: T2 read the version T1 wrote. */
    WR("wr"),
    /** Read-write (anti-dependency): T1 read a version that T2 overwrote. */
    RW("rw"),
    /** Session order: same process, T1 first. */
    SO("so"),
    /** Real-time order: T1 completed before T2 was invoked. */
    RT("rt"),
    /**
     * Commit order forced by a level's axiom (Biswas &amp; Enea §2.2): T1 must commit before T2 because some T3
     * observed T1 and read an older value from T2 of a key T1 wrote. Appears only where no fixed version order
     * exists (histories with lost updates).
     */
    CO("co");

    private static final EdgeKind[] VALUES = values();

    private final String shortName;

    EdgeKind(String shortName) {
        this.shortName = shortName;
    }

    public String shortName() {
        return shortName;
    }

    /** The kind stored as {@code code} (its ordinal). */
    public static EdgeKind of(int code) {
        return VALUES[code];
    }

    public byte code() {
        return (byte) ordinal();
    }
}
