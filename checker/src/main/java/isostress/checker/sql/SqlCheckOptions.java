package isostress.checker.sql;

import isostress.checker.model.IsolationLevel;

import java.time.Duration;

/**
 * Limits and level for {@link SqlChecker}. A search that hits a limit answers unknown with the reason, never a guess.
 *
 * @param levelOverride check every transaction as if it ran at this level; null: each transaction's own level
 * @param maxStates     prefix-search states (Alg. 4 calls), summed over all extensions, at most
 * @param timeout       wall-clock time for the whole check
 */
record SqlCheckOptions(IsolationLevel levelOverride, long maxStates, Duration timeout) {
    static final SqlCheckOptions DEFAULTS = new SqlCheckOptions(null, 5_000_000, Duration.ofSeconds(60));

    SqlCheckOptions withLevel(IsolationLevel level) {
        return new SqlCheckOptions(level, maxStates, timeout);
    }

    SqlCheckOptions withMaxStates(long states) {
        return new SqlCheckOptions(levelOverride, states, timeout);
    }

    SqlCheckOptions withTimeout(Duration t) {
        return new SqlCheckOptions(levelOverride, maxStates, t);
    }
}
