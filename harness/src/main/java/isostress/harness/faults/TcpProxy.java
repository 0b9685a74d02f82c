package isostress.harness.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy between the clients and one database node that can add latency to every packet and drop every
 * connection at once. There is no {@code tc netem} here, so faults on the client link happen in the proxy.
 *
 * <p>Written here rather than taken from a library: NetCrusher (the one candidate on Maven Central) fixes its
 * throttlers when a connection pair is created, so latency could not be switched on and off for connections that
 * are already open, which is exactly what a nemesis does. Latency is applied per chunk in each direction: each chunk is
 * stamped when read and sent once its delay has passed, in arrival order.
 * Threads: one acceptor, two pumps and two senders per connection (the clients hold few connections).
 */
public final class TcpProxy implements AutoCloseable {
    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile long delayNanos;
    private volatile boolean closed;

    /** Listens on 127.0.0.1 at a free port and forwards to {@code host:port}. */
    public TcpProxy(String host, int port) throws IOException {
        this.target = new InetSocketAddress(host, port);
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress("127.0.0.1", 0));
        Thread t = new Thread(this::accept, "proxy-" + port);
        t.setDaemon(true);
        t.start();
    }

    /** The port clients connect to. */
    public int port() {
        return server.getLocalPort();
    }

    /** Delays every chunk by {@code millis} in each direction from now on (0: none). */
    public void delay(long millis) {
        delayNanos = TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** Closes every open connection (the clients see a reset); new ones are accepted. */
    public int dropAll() {
        int n = 0;
        for (Socket s : open) {
            closeQuietly(s);
            n++;
        }
        open.clear();
        return n;
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            Socket upstream = new Socket();
            try {
                upstream.connect(target, 10_000);
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
            } catch (IOException e) {
                closeQuietly(client); // the node is down: the client sees the connection refused, as it would
                closeQuietly(upstream);
                continue;
            }
            open.add(client);
            open.add(upstream);
            pump(client, upstream);
            pump(upstream, client);
        }
    }

    private void pump(Socket from, Socket to) {
        LinkedBlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            byte[] buf = new byte[16 * 1024];
            try (InputStream in = from.getInputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    byte[] copy = java.util.Arrays.copyOf(buf, n);
                    queue.add(new Chunk(copy, System.nanoTime() + delayNanos));
                }
            } catch (IOException e) {
                // closed by the other side or by dropAll
            }
            queue.add(new Chunk(null, System.nanoTime() + delayNanos)); // end of stream, after the data
        }, "proxy-read");
        Thread writer = new Thread(() -> {
            try (OutputStream out = to.getOutputStream()) {
                while (true) {
                    Chunk c = queue.take(); // in arrival order: a delay that shrinks never reorders bytes
                    long wait = c.due - System.nanoTime();
                    if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
                    if (c.data == null) break;
                    out.write(c.data);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "proxy-write");
        reader.setDaemon(true);
        writer.setDaemon(true);
        reader.start();
        writer.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        dropAll();
    }

    /** Bytes that may be sent once {@code due} (System.nanoTime) has passed; null data ends the stream. */
    private record Chunk(byte[] data, long due) {
    }
}
