package isostress.checker.history;

import java.io.IOException;
import java.io.InputStream;

/** Reads one history format into the {@link History} model. */
public interface HistoryReader {
    /**
     * Reads a whole history. Bad input raises {@link InputException} naming {@code source} and the line.
     *
     * @param source a name for messages (the file name)
     */
    History read(InputStream in, String source) throws IOException;
}
