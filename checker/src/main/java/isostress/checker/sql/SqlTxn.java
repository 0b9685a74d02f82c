package isostress.checker.sql;

import isostress.checker.history.Outcome;
import isostress.checker.model.IsolationLevel;

import java.util.List;

/**
 * One transaction of an SQL history: its own isolation level (the reader's level decides its axioms, CAV 2025 Def. 6)
 * and its statements in program order.
 *
 * @param id      unique in the history
 * @param session session (≥ 0); with {@code index} it gives the session order
 * @param index   position in the session, increasing
 * @param start   monotonic ns, or null; informational
 * @param end     monotonic ns, or null; informational
 */
public record SqlTxn(long id, int session, int index, IsolationLevel level, Outcome outcome, Long start, Long end,
                     List<SqlOp> ops) {

    /** {@code T17 (ser, session 3)}. */
    public String label() {
        return "T" + id;
    }
}
