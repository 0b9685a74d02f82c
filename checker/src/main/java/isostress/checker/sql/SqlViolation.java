package isostress.checker.sql;

import java.util.List;

/**
 * One counterexample of {@link SqlChecker}, as data; {@link SqlLevelChecks} turns it into the common
 * {@link isostress.checker.model.Anomaly} (STYLE.md (b): anomalies are data; text, DOT and JSON render them).
 *
 * @param kind      what went wrong: {@code internal}, {@code aborted read}, {@code intermediate read},
 *                  {@code read does not match predicate}, {@code cycle in so ∪ wr}, {@code cycle in so ∪ wr ∪
 *                  saturated co}, {@code predicate read missed a row}, {@code no consistent commit order}
 * @param message   one line
 * @param txns      the transaction ids involved (0 txns = none)
 * @param predicate the WHERE clause involved, SQL-like, or null
 * @param key       the row (key) missed or seen, or null
 * @param writer    the write id involved, or null
 * @param let       "T1 = ..." lines, one per transaction involved, with its level and statements
 * @param steps     the argument, one sentence a line, ending in the contradiction
 * @param cycle     a commit-order cycle's transaction ids in order ({@code steps}' first lines are its edges), else
 *                  empty
 */
record SqlViolation(String kind, String message, List<Long> txns, String predicate, String key, String writer,
                           List<String> let, List<String> steps, List<Long> cycle) {

    SqlViolation(String kind, String message, List<Long> txns, String predicate, String key, String writer,
                 List<String> let, List<String> steps) {
        this(kind, message, txns, predicate, key, writer, let, steps, List.of());
    }

    /** As text, by the common renderer ({@link isostress.checker.explain.TextRenderer}): one rendering for all. */
    String toText() {
        return isostress.checker.explain.TextRenderer.render(SqlLevelChecks.anomaly(this, null));
    }
}
