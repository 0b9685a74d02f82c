package isostress.harness.db;

import java.io.IOException;

/**
 * The database cannot be reached or refuses the harness: the message says why, in one sentence, and what to try
 * (see {@link ConnectionErrors}). A configuration or infrastructure error: exit status 2.
 */
public final class CannotConnectException extends IOException {
    public CannotConnectException(String message, Throwable cause) {
        super(message, cause);
    }
}
