package isostress.checker.history;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * dbcop's default encoding, {@code history.bincode} (see {@link DbcopReader}): bincode 1.x with its default options,
 * little-endian, fixed-width u64 lengths and usize, bool as one byte 0 or 1. The layout is that of PolySI's
 * {@code DBCopHistoryLoader}. Binary has no lines, so errors name the byte offset and the session and transaction.
 */
final class DbcopBincode {
    private final InputStream in;
    private final String source;
    private final DbcopReader.Parsed out;
    private final byte[] buf = new byte[8];
    private long offset;
    private String where = "the header";

    DbcopBincode(InputStream in, String source, DbcopReader.Parsed out) {
        this.in = in;
        this.source = source;
        this.out = out;
    }

    /** Parses the whole history into the {@code out} given at construction. */
    void read() throws IOException {
        for (int i = 0; i < 5; i++) u64("params"); // id, n_node, n_variable, n_transaction, n_event
        string("info");
        string("start");
        string("end");
        long sessions = count("session count");
        for (long s = 0; s < sessions; s++) {
            where = "session " + s;
            long txns = count("transaction count");
            for (long t = 0; t < txns; t++) {
                where = "session " + s + ", transaction " + t;
                int first = out.ops;
                long events = count("event count");
                for (long e = 0; e < events; e++) {
                    boolean write = bool("event write flag");
                    long variable = u64("event variable");
                    long value = u64("event value");
                    if (bool("event success flag")) out.op(write, variable, value, false);
                }
                out.txn(s, bool("transaction success flag") ? Outcome.OK : Outcome.FAIL, 0, first);
            }
        }
        if (in.read() >= 0) throw error("unexpected bytes after the history");
        if (out.txns == 0) throw error("no transactions: there is nothing to check, and an empty history is not a "
                + "valid one");
    }

    private long u64(String what) throws IOException {
        if (in.readNBytes(buf, 0, 8) < 8) throw error("truncated: the input ends inside the " + what);
        long v = 0;
        for (int i = 7; i >= 0; i--) v = (v << 8) | (buf[i] & 0xff);
        offset += 8;
        if (v < 0) {
            throw error("the " + what + " " + Long.toUnsignedString(v) + " does not fit a signed 64-bit integer");
        }
        return v;
    }

    private long count(String what) throws IOException {
        long n = u64(what);
        if (n > Integer.MAX_VALUE) throw error("implausible " + what + " " + n + " (not a dbcop bincode history?)");
        return n;
    }

    private boolean bool(String what) throws IOException {
        int b = in.read();
        if (b < 0) throw error("truncated: the input ends before the " + what);
        if (b > 1) {
            throw error("the " + what + " must be the byte 0 or 1, got " + b + " (not a dbcop bincode history?)");
        }
        offset++;
        return b == 1;
    }

    private void string(String what) throws IOException {
        long n = u64(what + " length");
        if (n > 1 << 20) throw error("implausible " + what + " length " + n + " (not a dbcop bincode history?)");
        try {
            in.skipNBytes(n);
        } catch (EOFException e) {
            throw error("truncated: the input ends inside the " + what + " string");
        }
        offset += n;
    }

    private InputException error(String what) {
        return new InputException(source, 0, "bincode, byte " + offset + " (" + where + "): " + what);
    }
}
