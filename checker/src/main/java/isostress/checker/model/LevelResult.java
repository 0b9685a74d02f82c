package isostress.checker.model;

/**
 * The verdict for one level.
 *
 * @param level     the level; null for an SQL history checked at each transaction's own level ({@link #OWN})
 * @param verdict   valid, invalid or unknown
 * @param reason    how it was reached, or why it is unknown (never null)
 * @param algorithm the algorithm that decided it, e.g. {@code MTC CheckSI (§IV-B, Alg. 1)}
 */
public record LevelResult(IsolationLevel level, Verdict verdict, String reason, String algorithm) {
    /** The name of the check of an SQL history at each transaction's own level (CAV 2025's mixed levels). */
    public static final String OWN = "own";

    /** The level's name in results ({@code snapshot-isolation}), or {@code own}. */
    public String name() {
        return level == null ? OWN : level.cliName();
    }
}
