package isostress.checker.model;

/**
 * The verdict for one level.
 *
 * @param level     the level
 * @param verdict   valid, invalid or unknown
 * @param reason    how it was reached, or why it is unknown (never null)
 * @param algorithm the algorithm that decided it, e.g. {@code MTC CheckSI (§IV-B, Alg. 1)}
 */
public record LevelResult(IsolationLevel level, Verdict verdict, String reason, String algorithm) {
}
