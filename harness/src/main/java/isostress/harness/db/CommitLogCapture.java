package isostress.harness.db;

import isostress.checker.witness.Witness;

import java.io.IOException;

/**
 * The database's own commit log being copied into the run's {@code witness.jsonl} while the workload runs: one line
 * per committed transaction that wrote the workload's keys, in commit order (the format the checker's
 * {@code WitnessReader} reads). Started after the schema is created, so the initial rows are not in it; closed after
 * the sessions ended, when it copies what the log holds up to then.
 */
public interface CommitLogCapture extends AutoCloseable {
    /**
     * The history's clock (nanoseconds since the run started), given once the history is opened: a capture that
     * records when it read which log (one following a moving primary) writes those times in the history's time, so
     * that the join can tell which transactions ran while no log was read. Others ignore it.
     */
    default void historyClock(java.util.function.LongSupplier now) {
    }

    /** Log transactions written to the file so far. */
    long transactions();

    /**
     * The witness the file holds, read as it was written ({@link WitnessLines#witness()}); null when it must be
     * read from the file. Asked after {@link #close()}.
     */
    Witness witness();

    /**
     * Copies the rest of the log (waiting for a killed server to be back, within a bound), closes the file and
     * releases what the capture holds on the server.
     *
     * @throws IOException the rest of the log could not be read: the file is incomplete and must not be joined
     */
    @Override
    void close() throws IOException, InterruptedException;
}
