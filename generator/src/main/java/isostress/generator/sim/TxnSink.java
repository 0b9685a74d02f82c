package isostress.generator.sim;

import isostress.checker.history.InitialState;
import isostress.checker.history.Outcome;

import java.io.IOException;

/** Receives a simulated run's events in index order. */
public interface TxnSink {
    /** Called once, before any event. */
    void header(InitialState initial) throws IOException;

    /** A transaction was invoked; reads are not known yet. */
    void invoke(long index, long process, TxnOps ops) throws IOException;

    /** The transaction of {@code process} completed. */
    void complete(long index, long process, Outcome outcome, TxnOps ops) throws IOException;

    /**
     * The transaction of {@code process} took effect in the simulated store: called in commit order, between its
     * invocation and its completion (an {@code info} transaction that took effect included).
     */
    default void commit(long process, TxnOps ops) throws IOException {
    }

    /** Called once at the end. */
    default void finish() throws IOException {
    }
}
