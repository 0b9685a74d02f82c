package isostress.checker.sql;

import isostress.checker.explain.ArgumentText;
import isostress.checker.explain.TextRenderer;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.Argument;

import java.util.List;

/**
 * One counterexample of {@link SqlChecker}, as data: its {@link Argument}; {@link SqlLevelChecks} turns it into the
 * common {@link isostress.checker.model.Anomaly}. The sentences below are the common renderer's
 * ({@link ArgumentText}), for the checker's reasons and for tests.
 */
record SqlViolation(Argument argument) {

    /** The SQL checker's name for it, e.g. {@code cycle in so ∪ wr} (see {@link ArgumentText#kind}). */
    String kind() {
        return ArgumentText.kind(argument.finding());
    }

    AnomalyType type() {
        return SqlLevelChecks.type(kind());
    }

    /** One line. */
    String message() {
        return ArgumentText.message(argument);
    }

    /** The transactions involved. */
    List<Long> txns() {
        return argument.txnIds();
    }

    /** "T1 = ..." lines, one per transaction involved. */
    List<String> let() {
        return ArgumentText.let(argument);
    }

    /** The argument, one sentence a line, ending in the contradiction. */
    List<String> steps() {
        return ArgumentText.however(argument);
    }

    /** As text, by the common renderer ({@link TextRenderer}): one rendering for all. */
    String toText() {
        return TextRenderer.render(SqlLevelChecks.anomaly(this, null));
    }
}
