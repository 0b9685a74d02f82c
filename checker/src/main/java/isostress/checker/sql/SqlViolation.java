package isostress.checker.sql;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One counterexample, as data (STYLE.md (b): anomalies are data; text and JSON render them).
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
public record SqlViolation(String kind, String message, List<Long> txns, String predicate, String key, String writer,
                           List<String> let, List<String> steps, List<Long> cycle) {

    SqlViolation(String kind, String message, List<Long> txns, String predicate, String key, String writer,
                 List<String> let, List<String> steps) {
        this(kind, message, txns, predicate, key, writer, let, steps, List.of());
    }

    public String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append(kind).append(": ").append(message).append('\n');
        if (!let.isEmpty()) {
            sb.append("Let:\n");
            for (String l : let) sb.append("  ").append(l).append('\n');
        }
        if (!steps.isEmpty()) {
            sb.append("However:\n");
            for (String s : steps) sb.append("  ").append(s).append('\n');
        }
        return sb.toString();
    }

    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", kind);
        m.put("message", message);
        m.put("txns", txns);
        if (predicate != null) m.put("predicate", predicate);
        if (key != null) m.put("key", key);
        if (writer != null) m.put("writer", writer);
        m.put("let", let);
        m.put("steps", steps);
        return m;
    }
}
