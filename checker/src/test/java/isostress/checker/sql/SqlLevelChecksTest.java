package isostress.checker.sql;

import isostress.checker.CheckInput;
import isostress.checker.Checker;
import isostress.checker.model.AnomalyType;
import isostress.checker.model.Result;
import isostress.checker.model.Verdict;
import org.junit.jupiter.api.Test;

import java.util.List;

import static isostress.checker.sql.SqlHist.TRUE;
import static isostress.checker.sql.SqlHist.r;
import static isostress.checker.sql.SqlHist.row;
import static isostress.checker.sql.SqlHist.sel;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every violation the SQL checker reports reaches the common Result through the one entry, with an anomaly type. */
class SqlLevelChecksTest {

    /**
     * A SELECT that returns a row version with another value than its writer wrote. Found by HistoryFuzzTest once it
     * checked SQL histories through {@link Checker}: the kind had no anomaly type, and the check threw.
     */
    @Test
    void aValueItsWriterNeverWroteIsAThinAirRead() {
        SqlHistory h = new SqlHist()
                .init("t", "a", row("g", 1))
                .txn(1, 0, 0, "ser", sel("t", TRUE, r("a", "init", row("g", 2))))
                .build();
        CheckInput.Sql in = new CheckInput.Sql(h, true);
        Result r = Checker.check(in, List.of(), in.defaultOptions());
        assertEquals(Verdict.INVALID, r.verdict(), r.toString());
        assertEquals(AnomalyType.THIN_AIR_READ, r.anomalies().get(0).type(), r.toString());
    }

    /** The kinds the SQL checker reports (grep {@code SqlViolation(} and {@code simple(} in this package). */
    @Test
    void everyKindHasAnAnomalyType() {
        for (String kind : List.of("internal", "aborted read", "intermediate read", "read does not match predicate",
                "value mismatch", "cycle in so ∪ wr", "cycle in so ∪ wr ∪ saturated co", "predicate read missed a row",
                "no consistent commit order")) {
            SqlLevelChecks.type(kind);
        }
    }
}
