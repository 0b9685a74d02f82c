package isostress.harness.run;

import isostress.checker.witness.Witness;
import isostress.harness.config.Campaign;
import isostress.harness.db.CommitLogCapture;
import isostress.harness.db.RunningDatabase;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A run's {@code check.witness}: the database's commit log copied into {@code witness.jsonl} from before the first
 * transaction until the sessions ended ({@link CommitLogCapture}, the database's own), then offered to the check
 * only when it was copied to its end: a log cut short would make every later commit look lost.
 */
final class RunWitness implements AutoCloseable {
    private static final RunWitness OFF = new RunWitness(null, null);
    private final CommitLogCapture capture;
    private final Path file;
    private boolean complete;
    private String problem;

    private RunWitness(CommitLogCapture capture, Path file) {
        this.capture = capture;
        this.file = file;
    }

    /**
     * Starts the capture when the campaign asks for it.
     *
     * @throws IOException the database cannot be read this way (the sentence says what it lacks): the run stops
     *                     before its workload
     */
    static RunWitness start(Campaign c, RunningDatabase db, RunDirectory dir) throws IOException, InterruptedException {
        if (!c.witness()) return OFF;
        CommitLogCapture capture = c.database().type().capture(db, dir.witness()).orElseThrow(() -> new IOException(
                "check.witness: " + c.database().type().product() + " has no commit log capture"));
        return new RunWitness(capture, dir.witness());
    }

    /** Gives the capture the history's clock, for what it records of when it read which log. */
    void historyClock(java.util.function.LongSupplier now) {
        if (capture != null) capture.historyClock(now);
    }

    /** Copies the rest of the log; a failure is kept as {@link #problem()}, and the file is then not joined. */
    @Override
    public void close() throws InterruptedException {
        if (capture == null || complete || problem != null) return;
        try {
            capture.close();
            complete = true;
        } catch (IOException e) {
            problem = e.getMessage();
        }
    }

    /** The witness to join with the history, or null (off, or not copied to its end). */
    Path joinable() {
        return complete ? file : null;
    }

    /** The joinable witness as read while it was written, or null (then {@link #joinable()} is read). */
    Witness parsed() {
        return complete ? capture.witness() : null;
    }

    /** Log transactions written to the file. */
    long transactions() {
        return capture == null ? 0 : capture.transactions();
    }

    /** Why the log was not copied to its end, or null. */
    String problem() {
        return problem;
    }
}
