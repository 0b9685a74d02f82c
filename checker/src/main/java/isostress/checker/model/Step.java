package isostress.checker.model;

/**
 * One edge of a counterexample: why {@code from} must come before {@code to}.
 *
 * @param from      transaction id
 * @param to        transaction id
 * @param kind      the dependency
 * @param key       the key that justifies it (null for so and rt)
 * @param value     wr: the value read; ww: the overwritten value; rw: the value read and then overwritten;
 *                  null is the initial value when {@code initialValue} is true, otherwise "not applicable"
 * @param nextValue ww and rw: the value that overwrote {@code value}; else null
 * @param initialValue true when {@code value} is the key's initial value (read from the initial state)
 * @param witness   co edges: the transaction whose reads force the order; -1 otherwise
 * @param order     ww and rw whose version order is the database's commit log's: where the two writes are in the log
 *                  ("log n1 pos 17 → pos 23"); else null (an order the reads show, or one the check derived)
 */
public record Step(int from, int to, EdgeKind kind, Long key, Long value, Long nextValue, boolean initialValue,
                   int witness, String order) {

    /** A step whose order does not come from a commit log. */
    public Step(int from, int to, EdgeKind kind, Long key, Long value, Long nextValue, boolean initialValue,
                int witness) {
        this(from, to, kind, key, value, nextValue, initialValue, witness, null);
    }

    public static Step of(int from, int to, EdgeKind kind) {
        return new Step(from, to, kind, null, null, null, false, -1);
    }
}
