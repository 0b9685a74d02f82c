package isostress.harness.run;

/** The run cannot go on: the database is gone, or an error says the harness itself is wrong. Exit status 2. */
public final class RunAbortedException extends RuntimeException {
    public RunAbortedException(String message, Throwable cause) {
        super(message, cause);
    }
}
