package isostress.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import isostress.checker.model.Verdict;

import java.util.List;

/**
 * The SQL checker's answers for one run: the history at each transaction's own level, then as if every transaction
 * ran at each level of {@code check.levels}.
 *
 * @param checks in that order
 */
public record SqlVerdicts(List<Check> checks) {
    public SqlVerdicts {
        checks = List.copyOf(checks);
    }

    /**
     * One check.
     *
     * @param level   {@code own} (each transaction at its level) or the level every transaction was checked at
     * @param verdict its verdict
     * @param reason  why (the violation, or why it is unknown); null when valid
     * @param text    the checker's explanation for people
     * @param json    the checker's result as JSON
     */
    public record Check(String level, Verdict verdict, String reason, String text, JsonNode json) {
    }

    /** Invalid if any check is, else unknown if any is, else valid. */
    public Verdict verdict() {
        Verdict v = Verdict.VALID;
        for (Check c : checks) {
            if (c.verdict() == Verdict.INVALID) return Verdict.INVALID;
            if (c.verdict() == Verdict.UNKNOWN) v = Verdict.UNKNOWN;
        }
        return v;
    }

    /** results.json's {@code check} of an sql run: the overall verdict, then each check under {@code levels}. */
    void writeJson(com.fasterxml.jackson.databind.node.ObjectNode check) {
        check.put("verdict", verdict().jsonName());
        com.fasterxml.jackson.databind.node.ObjectNode levels = check.putObject("levels");
        for (Check c : checks) {
            com.fasterxml.jackson.databind.node.ObjectNode l = levels.putObject(c.level());
            l.put("verdict", c.verdict().jsonName());
            if (c.reason() != null) l.put("reason", c.reason());
            if (c.json() != null) l.set("result", c.json());
        }
    }
}
