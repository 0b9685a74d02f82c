package isostress.checker.history;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads an input in blocks of whole lines on a second thread and parses each ({@link JsonlChunk#parse}) there, so
 * that reading and parsing overlap with assembling the history on the caller's thread (the "parsing may use
 * both cores"). Memory stays bounded: a few blocks of {@value #BLOCK} bytes are in flight, never the whole input,
 * and blocks the caller is done with come back ({@link #recycle}) to be filled again rather than collected.
 * Must be closed: closing stops the thread.
 */
final class JsonlChunks implements AutoCloseable {
    static final int BLOCK = 1 << 22;
    private static final int IN_FLIGHT = 3;

    private final InputStream in;
    private final BlockingQueue<JsonlChunk> queue = new ArrayBlockingQueue<>(IN_FLIGHT);
    /** Chunks the caller is done with, for {@link #fresh} to reuse. */
    private final BlockingQueue<JsonlChunk> free = new ArrayBlockingQueue<>(IN_FLIGHT + 2);
    private final int block;
    private final Thread thread;
    private volatile boolean parse = true;

    JsonlChunks(InputStream in, String source) {
        this(in, source, BLOCK);
    }

    /** With blocks of {@code block} bytes (tests use small ones, to put lines across block ends). */
    JsonlChunks(InputStream in, String source, int block) {
        this.in = in;
        this.block = block;
        this.thread = new Thread(this::run, "isostress-jsonl-reader " + source);
        thread.setDaemon(true);
        thread.start();
    }

    /** The next block (the last has {@code last} set, or an {@code error}). */
    JsonlChunk next() throws IOException {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while reading the history");
        }
    }

    /** Stops parsing blocks (the caller reads the rest as bytes). */
    void rawOnly() {
        parse = false;
    }

    /**
     * Hands back a chunk whose events the caller has taken, for the thread to fill again; the caller must not touch
     * it afterwards. Never blocks: a chunk the pool has no room for is left to the collector.
     */
    void recycle(JsonlChunk c) {
        free.offer(c);
    }

    /** A chunk to fill: a recycled one whose block holds {@code size} bytes, or a new one. */
    private JsonlChunk fresh(int size) {
        JsonlChunk c = free.poll();
        if (c != null && c.buf.length >= size) return c;
        return new JsonlChunk(new byte[Math.max(block, size)], 0, 0, 0, false, null);
    }

    private void run() {
        JsonlChunk c = fresh(block);
        int have = 0, line = 1;
        long offset = 0;
        try {
            while (true) {
                byte[] buf = c.buf;
                int r = 0;
                while (have < buf.length && (r = in.read(buf, have, buf.length - have)) > 0) have += r;
                boolean eof = r < 0;
                int cut = have;
                if (!eof) {
                    while (cut > 0 && buf[cut - 1] != '\n') cut--;
                    if (cut == 0) { // one line longer than the block: grow it
                        c.buf = Arrays.copyOf(buf, buf.length * 2);
                        continue;
                    }
                }
                c.reset(cut, line, offset, eof, null);
                if (parse) {
                    line = c.parse();
                } else {
                    for (int i = 0; i < cut; i++) if (buf[i] == '\n') line++;
                }
                offset += cut;
                JsonlChunk next = fresh(Math.max(block, have - cut));
                System.arraycopy(buf, cut, next.buf, 0, have - cut);
                have -= cut;
                queue.put(c);
                if (eof) return;
                c = next;
            }
        } catch (InterruptedException e) {
            // closed: the reader stopped early
        } catch (IOException | RuntimeException e) {
            try {
                queue.put(new JsonlChunk(new byte[0], 0, line, offset, true, e));
            } catch (InterruptedException ignored) {
                // closed
            }
        }
    }

    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The rest of the input as bytes, from byte {@code from} of {@code first}: for Jackson when a JSON object spans
     * lines.
     */
    InputStream rest(JsonlChunk first, int from) {
        rawOnly();
        return new InputStream() {
            private JsonlChunk c = first;
            private int pos = from;

            @Override
            public int read() throws IOException {
                byte[] b = new byte[1];
                int n = read(b, 0, 1);
                return n < 0 ? -1 : b[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                while (pos == c.len) {
                    if (c.last) return -1;
                    c = next();
                    if (c.error != null) throw rethrow(c.error);
                    pos = 0;
                }
                int n = Math.min(len, c.len - pos);
                System.arraycopy(c.buf, pos, b, off, n);
                pos += n;
                return n;
            }
        };
    }

    /** A reading error of the thread, raised on the caller's. */
    static IOException rethrow(Exception e) {
        if (e instanceof RuntimeException) throw (RuntimeException) e;
        return (IOException) e;
    }
}
