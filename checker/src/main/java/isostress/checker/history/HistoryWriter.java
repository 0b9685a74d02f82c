package isostress.checker.history;

import java.io.IOException;
import java.io.OutputStream;

/** Writes the {@link History} model in one format. */
interface HistoryWriter {
    void write(History history, OutputStream out) throws IOException;
}
