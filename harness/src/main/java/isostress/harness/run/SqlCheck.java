package isostress.harness.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import isostress.checker.model.IsolationLevel;
import isostress.checker.sql.SqlCheckOptions;
import isostress.checker.sql.SqlChecker;
import isostress.checker.sql.SqlHistory;
import isostress.checker.sql.SqlHistoryReader;
import isostress.checker.sql.SqlResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a recorded sql history with the SQL checker: first each transaction at its own level, then as if every
 * transaction ran at each of {@code levels} (the campaign's {@code check.levels}; none by default).
 */
final class SqlCheck {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private SqlCheck() {
    }

    /**
     * @param maxStates the campaign's search budget (states the prefix search may visit)
     * @param timeout   wall-clock limit of each check
     */
    static SqlVerdicts check(Path history, List<IsolationLevel> levels, long maxStates, java.time.Duration timeout) {
        SqlHistory h = SqlHistoryReader.read(history);
        SqlCheckOptions base = SqlCheckOptions.DEFAULTS.withMaxStates(maxStates).withTimeout(timeout);
        List<SqlVerdicts.Check> checks = new ArrayList<>();
        checks.add(check("own", h, base));
        for (IsolationLevel l : levels) checks.add(check(l.cliName(), h, base.withLevel(l)));
        return new SqlVerdicts(checks);
    }

    private static SqlVerdicts.Check check(String label, SqlHistory h, SqlCheckOptions o) {
        SqlResult r = SqlChecker.check(h, o);
        return new SqlVerdicts.Check(label, r.verdict(), r.reason(), r.toText(), MAPPER.valueToTree(r.toJson()));
    }
}
