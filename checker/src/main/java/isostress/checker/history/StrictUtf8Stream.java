package isostress.checker.history;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Passes bytes through unchanged and rejects any that are not well-formed UTF-8 with an {@link InputException} naming
 * the file and the line of the offending byte.
 *
 * <p>Why not a {@code CharsetDecoder} with {@code REPORT}: a decoder behind a buffered reader fails kilobytes ahead of
 * the parser, so the parser's line is the wrong one ("an invalid byte on line 3 is reported as a problem of
 * line 1"); {@code InputStreamReader} replaces bad bytes with U+FFFD silently; and Jackson's byte parser accepts
 * encoded surrogates ({@code ED A0 80}) and overlong forms ({@code C0 80}) inside strings and keys. This filter counts
 * lines itself, so the line is the byte's own, and checks the well-formed sequences of the Unicode Standard, Table
 * 3-7 (RFC 3629 section 4): no overlong forms, no surrogates, nothing above U+10FFFF. One comparison per ASCII byte.
 *
 * <p>It also refuses the NUL byte, which no JSON, EDN or SQL-history text holds: without this, Jackson takes NULs
 * among the first four bytes for UTF-16 or UTF-32 and fails with a {@code CharConversionException}.
 */
public final class StrictUtf8Stream extends FilterInputStream {
    private final String source;
    private int line;
    private long offset;
    /** Continuation bytes still expected, and the range the next one must fall in. */
    private int need, lo = 0x80, hi = 0xBF;

    public StrictUtf8Stream(InputStream in, String source) {
        this(in, source, 1, 0);
    }

    /** A stream whose first byte is at {@code line} and byte {@code offset} of the input (for a part of it). */
    StrictUtf8Stream(InputStream in, String source, int line, long offset) {
        super(in);
        this.source = source;
        this.line = line;
        this.offset = offset;
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b < 0) atEnd();
        else check(b);
        return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
        int n = in.read(buf, off, len);
        if (n < 0) {
            atEnd();
            return n;
        }
        for (int i = off; i < off + n; i++) {
            int b = buf[i];
            if (b > 0 && need == 0) { // ASCII outside a sequence: the common case
                offset++;
                if (b == '\n') line++;
            } else {
                check(b & 0xff);
            }
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        // Skipped bytes must be checked too, so they are read.
        byte[] b = new byte[(int) Math.min(n, 8192)];
        long done = 0;
        while (done < n) {
            int r = read(b, 0, (int) Math.min(b.length, n - done));
            if (r < 0) break;
            done += r;
        }
        return done;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    private void check(int b) {
        if (need > 0) {
            if (b < lo || b > hi) throw bad(b, "is not a continuation byte of the multi-byte sequence before it");
            need--;
            lo = 0x80;
            hi = 0xBF;
        } else if (b == 0) {
            throw bad(b, "is a NUL, which no text history holds (a binary file?)");
        } else if (b < 0x80) {
            if (b == '\n') line++;
        } else if (b >= 0xC2 && b <= 0xDF) {
            need = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            need = 2;
            if (b == 0xE0) lo = 0xA0; // overlong below U+0800
            if (b == 0xED) hi = 0x9F; // UTF-16 surrogates U+D800..U+DFFF
        } else if (b >= 0xF0 && b <= 0xF4) {
            need = 3;
            if (b == 0xF0) lo = 0x90; // overlong below U+10000
            if (b == 0xF4) hi = 0x8F; // above U+10FFFF
        } else {
            throw bad(b, b < 0xC0 ? "is a continuation byte without a lead byte" : "never occurs in UTF-8");
        }
        offset++;
    }

    private void atEnd() {
        if (need > 0) throw new InputException(source, line, "invalid UTF-8: the input ends inside a multi-byte "
                + "character (byte " + offset + ")");
    }

    private InputException bad(int b, String why) {
        return new InputException(source, line, String.format("%s: byte 0x%02X at byte %d %s; histories "
                + "are UTF-8 text", b == 0 ? "not text" : "invalid UTF-8", b, offset, why));
    }
}
