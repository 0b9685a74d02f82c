package isostress.generator.sim;

import isostress.checker.history.InitialState;
import isostress.checker.history.Outcome;

import java.io.IOException;

/** A {@link TxnSink} that passes every event on and writes each commit to a {@link SimulatedLog}. */
public final class LoggingSink implements TxnSink {
    private final TxnSink next;
    private final SimulatedLog log;

    public LoggingSink(TxnSink next, SimulatedLog log) {
        this.next = next;
        this.log = log;
    }

    @Override
    public void header(InitialState initial) throws IOException {
        next.header(initial);
    }

    @Override
    public void invoke(long index, long process, TxnOps ops) throws IOException {
        next.invoke(index, process, ops);
    }

    @Override
    public void commit(long process, TxnOps ops) throws IOException {
        log.commit(ops);
        next.commit(process, ops);
    }

    @Override
    public void complete(long index, long process, Outcome outcome, TxnOps ops) throws IOException {
        next.complete(index, process, outcome, ops);
    }

    @Override
    public void finish() throws IOException {
        next.finish();
    }
}
