package isostress.harness.run;

import isostress.checker.model.IsolationLevel;

import java.nio.file.Path;
import java.util.List;

/** Checks a recorded sql history with the SQL checker (package isostress.checker.sql). */
final class SqlCheck {
    private SqlCheck() {
    }

    /** Null while the SQL checker is not part of the build. */
    static SqlVerdicts check(Path history, List<IsolationLevel> levels, long maxStates) {
        return null;
    }
}
