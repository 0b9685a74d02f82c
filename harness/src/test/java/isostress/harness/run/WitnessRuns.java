package isostress.harness.run;

import isostress.checker.history.History;
import isostress.checker.history.Outcome;
import isostress.harness.db.DatabaseAdapter;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;

/** What the tests of runs with a captured commit log ask of a history and its witness, whatever the database. */
final class WitnessRuns {
    private WitnessRuns() {
    }

    /** Transactions of the history that wrote something, with outcome {@code o}. */
    static long writers(History h, Outcome o) {
        long n = 0;
        for (int t = 0; t < h.size(); t++) {
            if (h.outcome(t) != o) continue;
            for (int op = h.firstOp(t); op < h.endOp(t); op++) {
                if (h.opKind(op) != History.READ && h.opKind(op) != History.LIST_READ) {
                    n++;
                    break;
                }
            }
        }
        return n;
    }

    /** The initial rows (every key = the initial value) were written before the capture began: none is in the log. */
    static void assertNoInitialRow(Path witness) throws Exception {
        for (String line : Files.readAllLines(witness)) {
            assertFalse(line.matches(".*\\[\"w\",-?\\d+," + DatabaseAdapter.INITIAL + "\\].*"), line);
        }
    }
}
