package isostress.checker.model;

import isostress.checker.history.Outcome;

import java.util.List;

/**
 * An SQL history's counterexample (isostress-sql), as data: the SQL checker's argument is about rows, predicates and
 * commit orders, which {@link Step}'s one-key edges cannot carry. The renderers (text, DOT, JSON, HTML) tell it in
 * sentences; nothing here is pre-rendered English (statements and row values are as the history records them).
 *
 * @param let       the transactions involved: those on a cycle, the readers whose axioms forced an edge, the writers
 * @param finding   what contradicts the transactions' levels
 * @param edges     a commit-order cycle's edges in order, each with the reason it is forced; empty for other findings
 * @param predicate the WHERE clause involved, SQL-like, or null
 * @param row       the row (table:key) missed or seen, or null
 * @param writer    the write id involved, or null
 */
public record Argument(List<SqlTxnFacts> let, Finding finding, List<Edge> edges, String predicate, String row,
                       String writer) {
    /** The initial state, as an edge's end: it precedes every transaction. */
    public static final long INIT = -1;

    public Argument {
        let = List.copyOf(let);
        edges = List.copyOf(edges);
    }

    /** The ids of the transactions involved, as {@link #let} lists them. */
    public List<Long> txnIds() {
        return let.stream().map(SqlTxnFacts::id).toList();
    }

    /** A commit-order cycle's transactions in order (the initial state left out), else empty. */
    public List<Long> cycle() {
        return edges.stream().map(Edge::from).filter(id -> id != INIT).toList();
    }

    /**
     * A transaction as the argument lists it.
     *
     * @param statements its statements in program order, each with the rows it returned or wrote, as the history
     *                   records them (SQL-like)
     */
    public record SqlTxnFacts(long id, IsolationLevel level, int session, Outcome outcome, List<String> statements) {
        public SqlTxnFacts {
            statements = List.copyOf(statements);
        }
    }

    /**
     * A statement that reads rows by a predicate.
     *
     * @param txn       the reading transaction
     * @param level     its level, whose axioms decide which writes it must see
     * @param verb      SELECT, UPDATE or DELETE
     * @param table     the table it reads
     * @param predicate its WHERE clause, SQL-like
     */
    public record Read(long txn, IsolationLevel level, String verb, String table, String predicate) {
    }

    /**
     * A version a read could have seen.
     *
     * @param writer  the transaction that wrote it, or {@link #INIT}
     * @param writeId its write id (null for the initial state)
     * @param value   the row's value, as the history records it
     */
    public record Version(long writer, String writeId, String value) {
    }

    /** One edge of a commit-order cycle: {@code from} must commit before {@code to}, because of {@code reason}. */
    public record Edge(long from, long to, Reason reason) {
    }

    /** Why an edge of the commit order is forced. */
    public sealed interface Reason {
    }

    /** The initial state precedes every transaction. */
    public record InitFirst() implements Reason {
    }

    /** The edge's transactions follow one another in a session (so). */
    public record SessionOrder(int session) implements Reason {
    }

    /**
     * The edge's end read {@code row} from its start (wr): returned it, or did not return it because it saw the
     * start's version, which does not match ({@code seen}).
     */
    public record ReadFrom(Read read, String row, boolean returned, String seen) implements Reason {
    }

    /**
     * A reader's axiom (co): {@code read} saw {@code row} as written by {@code readFrom} (the edge's end); the edge's
     * start also writes {@code row} and is visible to the reader at its level, so it commits before {@code readFrom}.
     */
    public record Visible(Read read, String row, long readFrom) implements Reason {
    }

    /** What contradicts the transactions' levels. */
    public sealed interface Finding {
    }

    /** The edges form a cycle, in so ∪ wr alone ({@code saturated} false) or with the commit order's saturation. */
    public record CommitOrderCycle(boolean saturated) implements Finding {
    }

    /** A predicate read did not return a row although every version of it the read could see matches. */
    public record MissedRow(Read read, String row, List<Version> matching) implements Finding {
        public MissedRow {
            matching = List.copyOf(matching);
        }
    }

    /**
     * Predicate reads missed rows, each must have seen a non-matching version, and no commit order satisfies every
     * reader with any choice of them.
     *
     * @param conflicts the reads that missed rows (empty: no order even for the rows returned)
     * @param choices   the choices of versions they saw
     */
    public record NoCommitOrder(List<Conflict> conflicts, long choices) implements Finding {
        public NoCommitOrder {
            conflicts = List.copyOf(conflicts);
        }
    }

    /** A read that missed {@code row}: the versions that would match it, and those it may have seen instead. */
    public record Conflict(Read read, String row, List<Version> matching, List<Version> nonMatching) {
        public Conflict {
            matching = List.copyOf(matching);
            nonMatching = List.copyOf(nonMatching);
        }
    }

    /** {@code reader} read {@code row} from {@code writeId} of {@code writer}, which aborted ({@code failed}) or may have. */
    public record AbortedRead(long reader, String row, String writeId, long writer, boolean failed) implements Finding {
    }

    /** {@code reader} read {@code row} from {@code writeId}, which its writer overwrote itself before committing. */
    public record IntermediateRead(long reader, String row, String writeId, long writer) implements Finding {
    }

    /** {@code reader} read its own write {@code writeId} of {@code row} before making it. */
    public record ReadBeforeOwnWrite(long reader, String row, String writeId) implements Finding {
    }

    /**
     * A statement after the transaction's own write of {@code row} did not see it as it should: it returned
     * {@code returnedFrom} (null: did not return the row) although the own write {@code ownWriteId} = {@code ownValue}
     * {@code matches} the predicate or not.
     */
    public record OwnWriteMissed(Read read, String row, String ownWriteId, String ownValue, boolean matches,
                                 String returnedFrom) implements Finding {
    }

    /** {@code read} returned {@code row} from {@code writeId} = {@code value}, which does not satisfy its predicate. */
    public record PredicateMismatch(Read read, String row, String writeId, String value) implements Finding {
    }

    /** {@code reader} returned {@code row} from {@code writeId} as {@code returned}, but that version is {@code actual}. */
    public record ValueMismatch(long reader, String row, String writeId, String returned, String actual)
            implements Finding {
    }
}
