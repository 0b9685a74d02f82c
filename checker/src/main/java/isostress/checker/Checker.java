package isostress.checker;

import isostress.checker.history.History;
import isostress.checker.history.InputException;
import isostress.checker.mini.MiniChecker;
import isostress.checker.model.IsolationLevel;
import isostress.checker.model.Result;

import java.util.Collection;
import java.util.List;

/**
 * The checker's front door: picks the algorithm for the history's shape and checks the levels asked.
 *
 * <p>Mini-transaction histories (every write preceded by a read of its key in the same transaction, unique values)
 * go to the MTC-based checkers ({@link MiniChecker}); other shapes are rejected with the first offending transaction
 * until the general checkers exist.
 */
public final class Checker {
    private Checker() {
    }

    /**
     * Checks {@code history} at each of {@code levels}.
     *
     * @throws InputException for histories no checker accepts (the message names the offending transaction) and for
     *                        levels that need real time the history lacks
     */
    public static Result check(History history, Collection<IsolationLevel> levels, CheckOptions options) {
        if (levels.isEmpty()) throw new IllegalArgumentException("no level to check");
        return MiniChecker.check(history, levels, options);
    }

    /** Checks at the default levels with default limits. */
    public static Result check(History history) {
        return check(history, defaultLevels(history), CheckOptions.DEFAULTS);
    }

    /** Strict serializability when the history has real-time order, serializability otherwise. */
    public static List<IsolationLevel> defaultLevels(History history) {
        return List.of(history.realTime() ? IsolationLevel.STRICT_SERIALIZABLE : IsolationLevel.SERIALIZABLE);
    }
}
