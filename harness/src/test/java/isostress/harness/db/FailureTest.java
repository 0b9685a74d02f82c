package isostress.harness.db;

import isostress.checker.history.Outcome;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The one outcome rule: cause x place -> failure -> what the history records and whether the run stops. */
class FailureTest {
    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
            // cause,     committing, failure,        outcome, stops the run
            "ABORT,       false,      ABORTED,        FAIL,    false",
            "ABORT,       true,       ABORTED,        FAIL,    false",
            "INTERRUPTED, false,      ABORTED,        FAIL,    false",
            "INTERRUPTED, true,       UNKNOWN,        INFO,    false",
            "UNEXPECTED,  false,      FATAL,          FAIL,    true",
            "UNEXPECTED,  true,       FATAL_IN_DOUBT, INFO,    true",
    })
    void rule(Failure.Cause cause, boolean committing, Failure failure, Outcome outcome, boolean stops) {
        Failure f = Failure.of(cause, committing);
        assertEquals(failure, f);
        assertEquals(outcome, f.outcome());
        assertEquals(stops, f.stopsRun());
        assertEquals(outcome == Outcome.INFO, f.inDoubt());
    }
}
