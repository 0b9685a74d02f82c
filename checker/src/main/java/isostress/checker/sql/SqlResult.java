package isostress.checker.sql;

import isostress.checker.model.Verdict;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer of {@link SqlChecker}: a verdict, a one-line reason, counterexamples when invalid, and statistics
 * ({@code txns}, {@code conflicts}, {@code extensions}, {@code extensions_tried}, {@code states}, {@code ms}).
 */
public record SqlResult(Verdict verdict, String reason, List<SqlViolation> violations, Map<String, Object> stats) {

    /** A human explanation: the verdict, then each counterexample in "Let: T1 = ... However: ..." form. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append("SQL history: ").append(verdict.jsonName()).append(" — ").append(reason).append('\n');
        for (SqlViolation v : violations) sb.append('\n').append(v.toText());
        sb.append('\n').append("stats: ").append(stats).append('\n');
        return sb.toString();
    }

    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("verdict", verdict.jsonName());
        m.put("reason", reason);
        List<Object> vs = new ArrayList<>();
        for (SqlViolation v : violations) vs.add(v.toJson());
        m.put("violations", vs);
        m.put("stats", stats);
        return m;
    }
}
