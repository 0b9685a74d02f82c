package isostress.checker.witness;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Reads a large witness file in two halves on two threads, each half streamed from its own place in the file.
 *
 * <p>Why: a witness has a line per committed transaction, and reading a million of them was half the time a run's
 * log added to its end-of-run check; the lines are independent, so the two cores a check has read half each. Only
 * the captures' own form is read this way ({@link WitnessReader.Mode#CANONICAL_ONLY}): at the first line of
 * another form, or one whose position does not increase, the file is read whole the usual way instead, so one
 * reader words every error and numbers its lines.
 */
final class WitnessHalves {
    /** Smaller files are read on one thread: a second one would cost more than it saves. */
    static final long MIN_BYTES = 1 << 20;

    private WitnessHalves() {
    }

    /** The witness in {@code file}, or null when it is to be read whole (small, or not all in canonical form). */
    static Witness read(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < MIN_BYTES) return null;
            long split = lineStartAfter(ch, size / 2);
            if (split >= size) return null;
            String source = file.toString();
            int[] linesOfA = new int[1];
            CompletableFuture<Witness> second = CompletableFuture.supplyAsync(() -> part(file, source, split, size,
                    null));
            Witness a;
            try {
                a = part(file, source, 0, split, linesOfA);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            Witness b = await(second);
            return a == null || b == null ? null : Witness.concat(a, b, linesOfA[0]);
        }
    }

    /** The offset just after the first newline at or after {@code from}, or the file's size when none. */
    private static long lineStartAfter(FileChannel ch, long from) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(1 << 12);
        long at = from;
        while (true) {
            buf.clear();
            int n = ch.read(buf, at);
            if (n <= 0) return ch.size();
            for (int i = 0; i < n; i++) if (buf.get(i) == '\n') return at + i + 1;
            at += n;
        }
    }

    /** Bytes [from, to) of the file as a witness, or null when a line there is not in canonical form. */
    private static Witness part(Path file, String source, long from, long to, int[] lines) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ch.position(from);
            InputStream in = new Limited(Channels.newInputStream(ch), to - from);
            return WitnessReader.read(in, source, WitnessReader.Mode.CANONICAL_ONLY, lines);
        } catch (WitnessReader.NotCanonical e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Witness await(CompletableFuture<Witness> f) throws IOException {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof UncheckedIOException u) throw u.getCause();
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error r) throw r;
            throw e;
        }
    }

    /** The first {@code remaining} bytes of a stream. */
    private static final class Limited extends FilterInputStream {
        private long remaining;

        Limited(InputStream in, long remaining) {
            super(in);
            this.remaining = remaining;
        }

        @Override
        public int read() throws IOException {
            if (remaining <= 0) return -1;
            int c = super.read();
            if (c >= 0) remaining--;
            return c;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (remaining <= 0) return -1;
            int n = super.read(b, off, (int) Math.min(len, remaining));
            if (n > 0) remaining -= n;
            return n;
        }
    }
}
