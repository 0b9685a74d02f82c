package isostress.checker.model;

import java.util.List;

/**
 * A counterexample told in sentences, for histories whose transactions are SQL statements rather than key-value
 * micro-ops (isostress-sql): the SQL checker's argument is about rows, predicates and commit orders, which
 * {@link Step}'s one-key edges cannot carry. Text, DOT and JSON render it beside the usual fields.
 *
 * @param kind      the checker's name for what went wrong, e.g. {@code cycle in so ∪ wr ∪ saturated co}
 * @param message   one line
 * @param txnIds    the transactions involved: those on the cycle, the readers whose axioms forced an edge, the writers
 * @param let       "T1 = ..." lines, one per transaction involved, with its level, statements and rows
 * @param however   the argument, one sentence a line, ending in the contradiction
 * @param cycle     the transactions of a commit-order cycle in order ({@code however}'s first lines are its edges),
 *                  else empty
 * @param predicate the WHERE clause involved, SQL-like, or null
 * @param row       the row (table:key) missed or seen, or null
 * @param writer    the write id involved, or null
 */
public record Argument(String kind, String message, List<Long> txnIds, List<String> let, List<String> however,
                       List<Long> cycle, String predicate, String row, String writer) {
    public Argument {
        txnIds = List.copyOf(txnIds);
        let = List.copyOf(let);
        however = List.copyOf(however);
        cycle = List.copyOf(cycle);
    }
}
