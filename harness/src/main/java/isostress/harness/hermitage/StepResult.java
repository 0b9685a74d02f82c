package isostress.harness.hermitage;

import java.util.List;
import java.util.Map;

/**
 * What one step did: the rows a query returned (id to value), the rows an update changed, or the error that aborted
 * its transaction; {@code skipped} when its transaction had already aborted.
 */
record StepResult(Map<Integer, Integer> rows, int updated, String error, boolean skipped) {
    static final StepResult SKIPPED = new StepResult(Map.of(), 0, null, true);

    boolean ok() {
        return error == null && !skipped;
    }

    /** The value a query returned for {@code id}, or null. */
    Integer value(int id) {
        return rows.get(id);
    }

    List<Integer> ids() {
        return List.copyOf(rows.keySet());
    }
}
