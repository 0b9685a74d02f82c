package isostress.checker.sql;

import isostress.checker.model.Verdict;

import java.util.List;
import java.util.Map;

/**
 * The answer of {@link SqlChecker} for one check (package API; {@link SqlLevelChecks} turns it into the common
 * {@code Result}): a verdict, a one-line reason, counterexamples when invalid, and statistics
 * ({@code txns}, {@code conflicts}, {@code extensions}, {@code extensions_tried}, {@code states}, {@code ms}).
 */
record SqlResult(Verdict verdict, String reason, List<SqlViolation> violations, Map<String, Object> stats) {

    /** For tests and benchmarks' messages: the verdict, then each counterexample as the common renderer writes it. */
    String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append("SQL history: ").append(verdict.jsonName()).append(" — ").append(reason).append('\n');
        for (SqlViolation v : violations) sb.append('\n').append(v.toText());
        sb.append('\n').append("stats: ").append(stats).append('\n');
        return sb.toString();
    }
}
